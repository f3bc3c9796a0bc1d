"""Buying a market tile (as a building or a farm) and placing it: checks, candidates and events."""
from __future__ import annotations

from domain.engine import event
from domain.engine.text import T

from .city import parse, placement_cells, neighbours
from .command_text import tile_name
from .common import require
from .data import BUILDINGS, building, tile_kind_name
from .effects import effect_gains, tracks_of
from .evolve import city_entry


def cost_of(tile: str, as_farm: bool) -> dict:
    """Wisdom and stone a tile costs: its printed cost, or nothing as a farm (farm.free)."""
    if as_farm:
        return {"wisdom": 0, "stone": 0}
    b = building(tile)
    return {"wisdom": b["wisdom"], "stone": b["stone"]}


def check_build(state: dict, player: dict, payload: dict) -> None:
    """Validate a build payload for this player (build.*, farm.*, placement.*, effect.overrides-rules)."""
    require("rotation" not in payload, "placement.no-rotation",
            T("Tiles are never rotated; a build takes no rotation."))
    tile, as_farm, cell = payload.get("tile"), payload.get("as_farm"), payload.get("cell")
    require(tile in state["market"] and tile is not None, "build.from-market",
            T("That tile is not face up in the market."))
    require(isinstance(as_farm, bool), "farm.instead", T("Say whether the tile is built as a farm."))
    cost = cost_of(tile, as_farm)
    res = player["resources"]
    require(res["wisdom"] >= cost["wisdom"] and res["stone"] >= cost["stone"], "build.pay-cost",
            T("The tile {tile} costs {wisdom} wisdom and {stone} stone; you cannot pay it.", tile=tile_name(tile),
              wisdom=cost['wisdom'], stone=cost['stone']))
    require(cell is not None, "placement.must-place", T("A bought tile must be placed at once: name its cell."))
    require(parse(cell) is not None, "placement.in-grid", T("Cell {cell} is not on your city grid (A1-E5).", cell=cell))
    city = player["city"]
    require(cell not in city, "placement.empty-cell", T("Cell {cell} already holds a tile.", cell=cell))
    if as_farm or not BUILDINGS[tile_kind_name(tile)].get("any_cell"):
        require(any(n in city for n in neighbours(cell)), "placement.adjacent",
                T("Cell {cell} shares no side with a tile of your city.", cell=cell))


def build_candidates(state: dict, player: dict) -> list:
    """Every build payload that passes check_build for this player."""
    out = []
    res = player["resources"]
    for tile in state["market"]:
        if tile is None:
            continue
        for as_farm in (False, True):
            cost = cost_of(tile, as_farm)
            if res["wisdom"] < cost["wisdom"] or res["stone"] < cost["stone"]:
                continue
            for cell in placement_cells(player["city"], tile_kind_name(tile), as_farm):
                out.append({"tile": tile, "as_farm": as_farm, "cell": cell})
    return out


def build_events(state: dict, pid: str, payload: dict, rng, source: str, food_paid: int) -> list:
    """building_bought, market_refilled and (face up) effect_applied for a checked build payload."""
    player = state["players"][pid]
    tile, as_farm, cell = payload["tile"], payload["as_farm"], payload["cell"]
    paid = dict(cost_of(tile, as_farm), food=food_paid)
    events = [event("building_bought", player=pid, tile=tile, as_farm=as_farm, cell=cell, paid=paid,
                    source=source)]
    slot = state["market"].index(tile) + 1
    refill = rng.choice(state["stack"]) if state["stack"] else None
    events.append(event("market_refilled", player=pid, slot=slot, tile=refill))
    if not as_farm:
        city = dict(player["city"])
        city[cell] = city_entry(tile, False)
        gains = effect_gains(tile_kind_name(tile), cell, city, tracks_of(player))
        events.append(event("effect_applied", player=pid, tile=tile, trigger="placed", gains=gains))
    return events
