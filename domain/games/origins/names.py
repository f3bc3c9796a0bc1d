"""Printed names of the game's ids (`harvest_hall-2` -> Harvest Hall), shared by the rules' refusals and the move texts."""
from __future__ import annotations

from domain.engine.text import Text, name as printed

from .data import tile_kind_name


def words(raw_id) -> Text:
    """An id in words: `war_camp` -> War Camp, `harvest_hall` -> Harvest Hall."""
    return printed(" ".join(w.capitalize() for w in str(raw_id).replace("-", "_").split("_") if w))


def tile_name(tile) -> Text:
    """A building tile's full name (`harvest_hall-2` -> Harvest Hall)."""
    return words(tile_kind_name(str(tile)))
