"""The HTML around a board's pictures: header lines and legends that wrap, a map frame that pans, seat cards
and tiles that reflow (a phone shows them one under another, a desktop side by side)."""
from __future__ import annotations

from domain.table.svgkit import e, ink


def board_set(game_id: str, kind: str, label: str, parts: list[str]) -> str:
    """The whole board: a named group of its parts (`kind`: "map" or "list")."""
    return (f'<div class="board-set board-{kind}" data-board-game="{e(game_id)}" role="group" '
            f'aria-label="{e(label)}">' + "".join(p for p in parts if p) + "</div>")


def lines(items: list[str], cls: str = "board-lines") -> str:
    """Header lines (already escaped HTML), each wrapping at word boundaries."""
    return f'<div class="{cls}">' + "".join(f"<p>{item}</p>" for item in items if item) + "</div>"


def legend(title: str, items: list[str]) -> str:
    """A legend: a title and items (escaped HTML) that wrap as a list."""
    return (f'<div class="board-legend"><strong>{e(title)}</strong><ul>'
            + "".join(f"<li>{item}</li>" for item in items) + "</ul></div>")


def swatch(fill: str, mark: str, round_: bool = False) -> str:
    """A colour sample with its letter in readable ink (colour is never the only cue)."""
    shape = " round" if round_ else ""
    return (f'<span class="swatch{shape}" style="background:{e(fill)};color:{ink(fill)}" aria-hidden="true">'
            f'{e(mark)}</span>')


def map_frame(svg: str, label: str) -> str:
    """The map in its own frame: it pans inside (the page never scrolls sideways) and opens on [data-mine]."""
    return f'<div class="board-map-frame" data-map-frame="" tabindex="0" role="region" aria-label="{e(label)}">{svg}</div>'


def tiles(items: list[str], cls: str = "board-tiles") -> str:
    """Small pictures (chip rows, cards) that flow and wrap."""
    return f'<div class="{cls}">' + "".join(items) + "</div>"


def section(title: str, body: str, cls: str = "board-part") -> str:
    """A titled part of a list board (the shared zones, a player's area)."""
    return f'<section class="{cls}"><h3>{title}</h3>{body}</section>'


def seat_card(colour: str, letter: str, title: str, rows: list[str], active: bool, mine: bool = False) -> str:
    """One player's card: seat colour and letter, name line, then wrapped lines (escaped HTML)."""
    cls = "seat-card" + (" to-act" if active else "") + (" mine" if mine else "")
    return (f'<section class="{cls}" style="--seat:{e(colour)}"><h3>{swatch(colour, letter, True)} {title}</h3>'
            f'<ul>' + "".join(f"<li>{row}</li>" for row in rows if row) + "</ul></section>")


def seat_cards(cards: list[str]) -> str:
    """The players' cards, side by side where there is room."""
    return '<div class="seat-cards">' + "".join(cards) + "</div>"
