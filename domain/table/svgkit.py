"""Small SVG drawing helpers the boards share: escaped text, readable ink on a fill, places, the root element."""
from __future__ import annotations

import re
from html import escape

READABLE_PX = 12  # the smallest text a board shows, in CSS px, at any page width (the SVG pans instead)
SEAT_LETTERS = "ABCDEF"


def e(value) -> str:
    """Escape any value for SVG text or attributes."""
    return escape(str(value), quote=True)


def luminance(colour: str) -> float:
    """WCAG relative luminance of a #rrggbb colour."""
    c = colour.lstrip("#")
    rgb = [int(c[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink(fill: str) -> str:
    """Black or white text, whichever reads better on `fill`."""
    return "#000000" if contrast("#000000", fill) >= contrast("#ffffff", fill) else "#ffffff"


def text(x, y, value, size=14, fill="#000000", anchor="start", weight="normal", extra="") -> str:
    """An escaped <text> element."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}"{extra}>{e(value)}</text>') if isinstance(x, (int, float)) else ""


def place(key: str, name: str, body: str) -> str:
    """A board place a command may act on: a group with `data-place`, its name as a tooltip (its second
    child is what a live place outlines)."""
    return f'<g data-place="{e(key)}"><title>{e(name)}</title>{body}</g>'


def mine_anchor(x: float, y: float) -> str:
    """An invisible point marking the viewer's own piece: the page scrolls a board too wide for the screen to it."""
    return f'<circle data-mine="" cx="{x:.1f}" cy="{y:.1f}" r="1" fill="none"/>'


def seat_letter(index: int) -> str:
    """The letter that marks a seat's pieces next to its colour (colour is never the only cue)."""
    return SEAT_LETTERS[index % len(SEAT_LETTERS)]


def svg_root(width: float, height: float, label: str, summary: str, dark: bool, body: str, kind: str = "") -> str:
    """A board <svg>: a named group (its places may be buttons) with a text alternative of the essentials."""
    theme = ("board-dark" if dark else "board-light") + (f" {kind}" if kind else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board-svg {theme}" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="group" '
            f'aria-label="{e(label)}" font-family="sans-serif">'
            f'<desc>{e(summary)}</desc>{body}</svg>')


def block(width: float, height: float, label: str, body: str, dark: bool = False, kind: str = "board-block") -> str:
    """A small self-contained <svg> of one part of a board (a chip row, a tile), laid out by the page."""
    return svg_root(width, height, label, label, dark, body, kind)


def hit(x: float, y: float, size: float = 44) -> str:
    """An invisible square of `size` px centred on (x, y): a place's tap target (WCAG 2.5.5: 44 px)."""
    return (f'<rect class="hit" x="{x - size / 2:.1f}" y="{y - size / 2:.1f}" width="{size}" height="{size}" '
            f'rx="{size / 2}" fill="transparent" stroke="none"/>')


def hit_box(x0: float, y0: float, x1: float, y1: float) -> str:
    """An invisible rounded box a place is tapped by (covering its shape and its labels), at least 44 px."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = max(x1 - x0, 44), max(y1 - y0, 44)
    return (f'<rect class="hit" x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="8" '
            f'fill="transparent" stroke="none"/>')


_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')
_FONT = re.compile(r'font-size="([\d.]+)"')


def font_sizes(svg: str) -> list[float]:
    """Every font size an SVG sets, in its user units."""
    return [float(f) for f in _FONT.findall(svg)]


def readable_width(svg: str) -> float | None:
    """The CSS width at which the SVG's smallest text is READABLE_PX (the board never shows it narrower)."""
    box = _VIEWBOX.search(svg)
    sizes = font_sizes(svg)
    if not box or not sizes:
        return None
    return float(box.group(1)) * READABLE_PX / min(sizes)


_SVG = re.compile(r"<svg .*?</svg>", re.S)


def _one_readable(svg: str) -> str:
    """One <svg> element with `--board-min` set from its own viewBox and smallest text."""
    width = readable_width(svg)
    if width is None:
        return svg
    return f'<svg style="--board-min: {width:.0f}px" ' + svg[len("<svg "):]


def with_readable_width(markup: str) -> str:
    """Set `--board-min` on every <svg> of a board so the page's CSS keeps each at least readable_width wide."""
    return _SVG.sub(lambda m: _one_readable(m.group(0)), markup)
