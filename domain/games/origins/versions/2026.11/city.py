"""City grid geometry: cells, orthogonal adjacency, district blocks, tile kinds and placement cells."""
from __future__ import annotations

from functools import lru_cache

from .data import BUILDINGS, CELLS, COLUMNS, DISTRICTS, ROWS


def parse(cell) -> tuple[int, int] | None:
    """(row index, column index) of a cell name such as `B4`, or None if it is not on the grid."""
    if not isinstance(cell, str) or len(cell) < 2:
        return None
    row, col = cell[0], cell[1:]
    if row not in ROWS or col not in COLUMNS:
        return None
    return ROWS.index(row), COLUMNS.index(col)


def name(r: int, c: int) -> str | None:
    """The cell name at row/column indexes, or None off the grid."""
    if 0 <= r < len(ROWS) and 0 <= c < len(COLUMNS):
        return f"{ROWS[r]}{COLUMNS[c]}"
    return None


@lru_cache(maxsize=None)
def neighbours(cell: str) -> tuple[str, ...]:
    """The cells sharing a side with `cell` (placement.adjacency: corners do not count); cached, as
    legal-command listing asks it for every cell many times (bots simulate thousands of commands)."""
    rc = parse(cell)
    if rc is None:
        return ()
    r, c = rc
    found = [name(r - 1, c), name(r + 1, c), name(r, c - 1), name(r, c + 1)]
    return tuple(n for n in found if n is not None)


def is_adjacent(a: str, b: str) -> bool:
    """True if two cells share a horizontal or vertical side."""
    return b in neighbours(a)


def block(anchor) -> list[str] | None:
    """The cells of the district block named by its top-left anchor, in order TL, TR, BL, BR."""
    rc = parse(anchor)
    size = DISTRICTS["size"]
    if rc is None:
        return None
    r, c = rc
    cells = [name(r + dr, c + dc) for dr in range(size) for dc in range(size)]
    return None if None in cells else cells


ANCHORS: list = [cell for cell in CELLS if block(cell) is not None]


def adjacent_empty_cells(city: dict) -> list[str]:
    """Empty cells sharing a side with a tile of the city, in grid order (placement.adjacent)."""
    return [cell for cell in CELLS if cell not in city and any(n in city for n in neighbours(cell))]


def empty_cells(city: dict) -> list[str]:
    """Every empty cell of the city, in grid order."""
    return [cell for cell in CELLS if cell not in city]


def placement_cells(city: dict, tile_kind: str, as_farm: bool) -> list[str]:
    """Cells where a tile may go: adjacent empty cells, or any empty cell for a face-up `any_cell` building."""
    if not as_farm and BUILDINGS.get(tile_kind, {}).get("any_cell"):
        return empty_cells(city)
    return adjacent_empty_cells(city)


def is_building(entry: dict) -> bool:
    """A face-up, coloured building tile (not a farm, not the Palace or Agora)."""
    return entry["face_up"] and entry["kind"] not in ("grey", "farm")


def count_kind(city: dict, kind: str) -> int:
    """How many tiles of the city have this kind (a colour, `farm` or `grey`)."""
    return sum(1 for entry in city.values() if entry["kind"] == kind)


def closed_cells(player: dict) -> set:
    """Cells already part of one of the player's closed districts."""
    return {cell for d in player["districts"] for cell in d["cells"]}
