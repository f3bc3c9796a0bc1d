"""A greedy label placer for map boards: each label or token takes the first of its candidate spots that covers
no box already taken (shapes, labels, tokens), else the one that covers least."""
from __future__ import annotations

CHAR_W = 0.62  # average glyph width of the boards' sans-serif, in em (digits and capitals)


def text_box(x: float, y: float, label: str, size: float, anchor: str = "middle", pad: float = 1.5) -> tuple:
    """The approximate box of an SVG text at baseline (x, y)."""
    w = CHAR_W * size * len(label) + 2 * pad
    x0 = {"middle": x - w / 2, "end": x - w}.get(anchor, x - pad)
    return (x0, y - size * 0.95 - pad, x0 + w, y + size * 0.25 + pad)


def overlap(a: tuple, b: tuple) -> float:
    """The area two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class Placer:
    """Boxes taken so far on one map, and the choice of a free spot among candidates."""

    def __init__(self, bounds: tuple):
        self.bounds = bounds
        self.taken: list[tuple] = []

    def take(self, box: tuple) -> tuple:
        """Mark a box as taken (a shape that labels must avoid) and return it."""
        self.taken.append(box)
        return box

    def cost(self, box: tuple) -> float:
        """How much a box covers of what is taken, plus how far it leaves the map."""
        x0, y0, x1, y1 = self.bounds
        outside = max(0, x0 - box[0]) + max(0, box[2] - x1) + max(0, y0 - box[1]) + max(0, box[3] - y1)
        return sum(overlap(box, t) for t in self.taken) + 1000 * outside

    def choose(self, candidates: list) -> int:
        """Index of the first candidate box that covers nothing (else the least covering); the box is taken."""
        costs = [self.cost(c) for c in candidates]
        free = [i for i, c in enumerate(costs) if c == 0]
        best = free[0] if free else min(range(len(candidates)), key=costs.__getitem__)
        self.take(candidates[best])
        return best
