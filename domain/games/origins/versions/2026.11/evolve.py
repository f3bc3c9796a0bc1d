"""evolve: applies one event to the state (total, deterministic, never draws)."""
from __future__ import annotations

from .common import ARCHON, citizen_die, orator_die, plain_die
from .data import BUILDINGS, STARTING_TILES, TEMPLES, TILE_IDS, tile_kind_name
from .effects import apply_gains

_START_KINDS = {t["tile"]: t["kind"] for t in STARTING_TILES}


def city_entry(tile: str, as_farm: bool) -> dict:
    """The stored form of a tile in a city: {tile, building, kind, face_up}."""
    kind_name = tile_kind_name(tile)
    if tile in _START_KINDS:
        return {"tile": tile, "building": tile, "kind": _START_KINDS[tile], "face_up": True}
    kind = "farm" if as_farm else BUILDINGS[kind_name]["colour"]
    return {"tile": tile, "building": kind_name, "kind": kind, "face_up": not as_farm}


def new_player(seat: dict) -> dict:
    """A player's state from its match_set_up entry."""
    return {
        "resources": dict(seat["resources"]),
        "vp": 0, "gold": 0, "war": 0,
        "temples": {t: 0 for t in TEMPLES},
        "dice": [dict(plain_die(d), used=False) for d in seat["dice"]],
        "orator_dice": [],
        "archon_used": False,
        "attacked": False,
        "city": {cell: city_entry(tile, False) for cell, tile in seat["city"].items()},
        "districts": [],
        "zodiac": [],
    }


def _set_up(state, d):
    state["status"] = "playing"
    state["seats"] = list(d["seats"])
    state["max_rounds"] = d["max_rounds"]
    state["sites"] = {k: dict(v) for k, v in d["sites"].items()}
    state["citizen_row"] = [plain_die(s["die"]) for s in d["citizen_row"]]
    state["orator_row"] = [plain_die(s["die"]) for s in d["orator_row"]]
    state["market"] = list(d["market"])
    state["stack"] = sorted(t for t in TILE_IDS if t not in d["market"])
    state["district_cards"] = [dict(c) for c in d["district_cards"]]
    state["players"] = {pid: new_player(seat) for pid, seat in d["players"].items()}
    state["next_die"] = 1 + len(d["citizen_row"]) + len(d["orator_row"]) + sum(
        len(seat["dice"]) for seat in d["players"].values())


def _round_started(state, d):
    state["round"] = d["round"]
    state["order"] = list(d["order"])
    state["current"] = d["order"][0]
    state["passed"] = []
    for refill in d["orator_refills"]:
        state["orator_row"][refill["slot"] - 1] = plain_die(refill["die"])
        state["next_die"] += 1


def _site_visited(state, d):
    p = state["players"][d["player"]]
    state["sites"][d["site"]]["dial"] = d["dial_to"]
    state["visit"] = visit_record(p, d)
    apply_visit_to_player(p, d)


def visit_record(player: dict, d: dict) -> dict:
    """The open-visit record for a site_visited event (read before the worker moves)."""
    worker = d["worker"]
    if worker == ARCHON:
        kind, colour = "archon", None
    elif citizen_die(player, worker) is not None:
        kind, colour = "citizen", citizen_die(player, worker)["colour"]
    else:
        kind, colour = "orator", orator_die(player, worker)["colour"]
    return {"player": d["player"], "site": d["site"], "worker": worker, "kind": kind, "colour": colour,
            "main_done": False, "bonus_available": d["bonus_available"], "bonus_done": False}


def apply_visit_to_player(player: dict, d: dict) -> None:
    """Pay the dial and move the worker of a site_visited event (dice.use-increase, orator.single-use)."""
    player["resources"]["wisdom"] -= d["wisdom_paid"]
    worker = d["worker"]
    if worker == ARCHON:
        player["archon_used"] = True
        return
    die = citizen_die(player, worker)
    if die is not None:
        die["used"] = True
        die["value"] = d["die_value_to"]
    else:
        player["orator_dice"] = [o for o in player["orator_dice"] if o["id"] != worker]


def _mark(state, source: str):
    if state["visit"] is not None:
        state["visit"]["bonus_done" if source == "bonus" else "main_done"] = True


def _temple_advanced(state, d):
    p = state["players"][d["player"]]
    p["temples"][d["temple"]] = d["to"]
    p["resources"]["stone"] -= d["stone_paid"]
    _mark(state, d["source"])


def _zodiac_card_taken(state, d):
    card = d.get("card")
    if card is not None and card in state["zodiac_decks"][d["temple"]]:
        state["zodiac_decks"][d["temple"]].remove(card)
        state["players"][d["player"]]["zodiac"].append({"temple": d["temple"], "card": card})


def _citizen_die_taken(state, d):
    p = state["players"][d["player"]]
    p["resources"]["wisdom"] -= d["wisdom_paid"]
    row = state["citizen_row"]
    taken = row[d["slot"] - 1]
    p["dice"].append(dict(taken, used=False))
    state["citizen_row"] = [die for i, die in enumerate(row) if i != d["slot"] - 1] + [plain_die(d["new_die"])]
    state["next_die"] += 1
    _mark(state, "main")


def _building_bought(state, d):
    p = state["players"][d["player"]]
    for res, amount in d["paid"].items():
        p["resources"][res] -= amount
    p["city"][d["cell"]] = city_entry(d["tile"], d["as_farm"])
    state["market"] = [None if t == d["tile"] else t for t in state["market"]]
    _mark(state, d["source"])


def _market_refilled(state, d):
    state["market"][d["slot"] - 1] = d["tile"]
    if d["tile"] in state["stack"]:
        state["stack"].remove(d["tile"])


def _effect_applied(state, d):
    apply_gains(state["players"][d["player"]], d["gains"])


def _food_spent(state, d):
    p = state["players"][d["player"]]
    p["resources"]["food"] -= d["food"]
    die = citizen_die(p, d["die"]) if d["die"] else None
    if die is not None and d["die_value_to"] is not None:
        die["value"] = d["die_value_to"]
    p["war"] = d["war_to"]
    _mark(state, "main")


def _war_advanced(state, d):
    p = state["players"][d["player"]]
    p["war"] = d["to"]
    p["resources"]["wisdom"] -= d["wisdom_paid"]
    _mark(state, "bonus")


def _attack_made(state, d):
    p = state["players"][d["player"]]
    p["resources"]["wisdom"] -= d["wisdom_paid"]
    for res in ("stone", "food", "wisdom"):
        p["resources"][res] += d["reward"].get(res, 0)
    p["gold"] += d["reward"].get("gold", 0)
    p["vp"] += d["vp"]
    p["attacked"] = True
    _mark(state, d["source"])


def _resources_gained(state, d):
    p = state["players"][d["player"]]
    for res, amount in d["gains"].items():
        p["resources"][res] += amount
    _mark(state, "bonus" if d["source"] == "bonus" else "main")


def _orator_die_taken(state, d):
    p = state["players"][d["player"]]
    die = state["orator_row"][d["slot"] - 1]
    state["orator_row"][d["slot"] - 1] = None
    p["orator_dice"].append(plain_die(die))
    _mark(state, "bonus")


def _visit_ended(state, d):
    state["visit"] = None


def _district_closed(state, d):
    p = state["players"][d["player"]]
    die = citizen_die(p, d["die"])
    p["dice"] = [x for x in p["dice"] if x["id"] != d["die"]]
    p["districts"].append({"anchor": d["anchor"], "cells": list(d["cells"]), "die": plain_die(die),
                           "card": d["card"]})
    p["vp"] += d["vp"]
    p["gold"] += d["gold"]
    for card in state["district_cards"]:
        if card["id"] == d["card"]:
            card["gold"] -= d["gold"]


def _player_passed(state, d):
    state["passed"].append(d["player"])


def _turn_ended(state, d):
    state["current"] = d["next"]


def _round_ended(state, d):
    for p in state["players"].values():
        for die in p["dice"]:
            die["used"] = False
        p["archon_used"] = False
        p["attacked"] = False
    state["current"] = None


def _game_ended(state, d):
    state["status"] = "finished"
    state["current"] = None
    state["visit"] = None
    state["result"] = {
        "winners": list(d["winners"]),
        "scores": {pid: s["total"] for pid, s in d["scores"].items()},
        "breakdown": {pid: dict(s) for pid, s in d["scores"].items()},
        "zodiac": {pid: list(cards) for pid, cards in d["zodiac"].items()},
    }


HANDLERS = {
    "match_set_up": _set_up, "round_started": _round_started, "site_visited": _site_visited,
    "temple_advanced": _temple_advanced, "zodiac_card_taken": _zodiac_card_taken,
    "citizen_die_taken": _citizen_die_taken, "building_bought": _building_bought,
    "market_refilled": _market_refilled, "effect_applied": _effect_applied, "food_spent": _food_spent,
    "war_advanced": _war_advanced, "attack_made": _attack_made, "resources_gained": _resources_gained,
    "orator_die_taken": _orator_die_taken, "visit_ended": _visit_ended, "district_closed": _district_closed,
    "player_passed": _player_passed, "turn_ended": _turn_ended, "round_ended": _round_ended,
    "game_ended": _game_ended,
}


def evolve(state: dict, ev: dict) -> dict:
    """Apply one event to `state` (mutated and returned); unknown event types are ignored."""
    handler = HANDLERS.get(ev.get("type"))
    if handler is not None:
        handler(state, ev["data"])
    return state
