"""Deterministic, auditable randomness: draw n = HMAC-SHA256(seed, match id, n), plus a scripted fake for tests."""
from __future__ import annotations

import abc
import hashlib
import hmac


def derive_draw(seed: bytes, match_id: str, n: int) -> int:
    """Return draw number `n` of a match as a 256-bit integer."""
    return int.from_bytes(hmac.digest(seed, f"{match_id}:{n}".encode(), "sha256"), "big")  # one C call


def draw_value(seed: bytes, match_id: str, n: int, lo: int, hi: int) -> int:
    """Map draw `n` onto the inclusive range lo..hi (bias below 2**-200 for any board-game range)."""
    return lo + derive_draw(seed, match_id, n) % (hi - lo + 1)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: sha256 of its bytes, hex."""
    return hashlib.sha256(seed).hexdigest()


class Rng(abc.ABC):
    """The randomness a game may use. Every outcome is one or more recorded integer draws."""

    def __init__(self):
        self.draws: list[list[int]] = []  # [n, lo, hi, value] per draw, in order

    @abc.abstractmethod
    def _next(self, lo: int, hi: int) -> int:
        """Produce and record the next draw in lo..hi."""

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in lo..hi inclusive."""
        if hi < lo:
            raise ValueError(f"empty range {lo}..{hi}")
        return self._next(lo, hi)

    def roll(self, n: int = 1, sides: int = 6) -> list[int]:
        """Roll `n` dice with `sides` sides."""
        return [self.randint(1, sides) for _ in range(n)]

    def choice(self, seq):
        """One element of a non-empty sequence."""
        seq = list(seq)
        return seq[self.randint(0, len(seq) - 1)]

    def shuffled(self, seq) -> list:
        """A shuffled copy of `seq` (Fisher-Yates, one draw per position)."""
        items = list(seq)
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]
        return items


class HmacRng(Rng):
    """Draws derived from a secret seed; `start` is the match's draw counter (never rewinds)."""

    def __init__(self, seed: bytes, match_id: str, start: int = 0):
        super().__init__()
        self.seed = seed
        self.match_id = match_id
        self.counter = start

    def _next(self, lo: int, hi: int) -> int:
        n = self.counter
        self.counter += 1
        value = draw_value(self.seed, self.match_id, n, lo, hi)
        self.draws.append([n, lo, hi, value])
        return value


class ReplayRng(Rng):
    """Yields the recorded draws [n, lo, hi, value] again, checking each request matches (for audits)."""

    def __init__(self, recorded: list[list[int]]):
        super().__init__()
        self._recorded = list(recorded)

    def _next(self, lo: int, hi: int) -> int:
        if not self._recorded:
            raise ValueError("more draws requested than were recorded")
        n, rlo, rhi, value = self._recorded.pop(0)
        if (rlo, rhi) != (lo, hi):
            raise ValueError(f"draw {n} was recorded for {rlo}..{rhi}, requested {lo}..{hi}")
        self.draws.append([n, lo, hi, value])
        return value


class ScriptedRng(Rng):
    """A test double: `ints` are returned by randint/roll/choice in order; `shuffles` are explicit orders
    returned by shuffled() (each must be a permutation of what is shuffled). When a queue is empty,
    randint returns `lo` and shuffled keeps the order, unless `strict`, which raises instead."""

    def __init__(self, ints=(), shuffles=(), strict: bool = False):
        super().__init__()
        self.ints = list(ints)
        self.shuffles = [list(s) for s in shuffles]
        self.strict = strict
        self.counter = 0

    def _next(self, lo: int, hi: int) -> int:
        if self.ints:
            value = self.ints.pop(0)
            if not lo <= value <= hi:
                raise AssertionError(f"scripted draw {value} outside {lo}..{hi}")
        elif self.strict:
            raise AssertionError(f"no scripted draw left for {lo}..{hi}")
        else:
            value = lo
        self.draws.append([self.counter, lo, hi, value])
        self.counter += 1
        return value

    def choice(self, seq):
        """Pick by a scripted index into `seq`."""
        return super().choice(seq)

    def shuffled(self, seq) -> list:
        """Return the next scripted order, or `seq` unchanged."""
        items = list(seq)
        if self.shuffles:
            order = self.shuffles.pop(0)
            if sorted(map(repr, order)) != sorted(map(repr, items)):
                raise AssertionError("scripted shuffle is not a permutation of the shuffled items")
            return order
        if self.strict:
            raise AssertionError("no scripted shuffle left")
        return items
