"""Loads and validates uchronia.json, the game's cards, buildings and constants."""
from __future__ import annotations

import json
from pathlib import Path

from domain.engine.versions import data_file

_PATH = data_file(__package__, "uchronia.json")  # the rules version this package is loaded as
_EFFECTS = {"order_bonus", "extra_draw", "free_copy", "raid", "operation_limit", "any_discard"}


def _require(condition: bool, message: str) -> None:
    """Raise ValueError with `message` unless `condition` holds."""
    if not condition:
        raise ValueError(f"uchronia.json: {message}")


def _positive_int(value) -> bool:
    """True for an int (not a bool) greater than zero."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def validate(raw: dict) -> dict:
    """Check the raw data file and return it; raise ValueError on any inconsistency."""
    _require(isinstance(raw, dict), "top level must be an object")
    colors = raw.get("colors")
    _require(isinstance(colors, list) and len(colors) == 5, "exactly 5 colours are required")
    ids = [c.get("id") for c in colors]
    orders = [c.get("order") for c in colors]
    _require(len(set(ids)) == 5 and all(isinstance(i, str) for i in ids), "colour ids must be unique strings")
    _require(len(set(orders)) == 5 and all(isinstance(o, str) for o in orders), "orders must be unique strings")
    for c in colors:
        _require(_positive_int(c.get("cards")), f"colour {c.get('id')} needs a positive card count")
        _require(isinstance(c.get("order_name"), str), f"colour {c.get('id')} needs an order name")
    buildings = raw.get("buildings")
    _require(isinstance(buildings, list) and buildings, "buildings must be a non-empty list")
    seen = set()
    for b in buildings:
        _require(isinstance(b.get("id"), str) and b["id"] not in seen, f"bad or duplicate building id {b.get('id')}")
        seen.add(b["id"])
        _require(b.get("color") in ids, f"building {b['id']} has an unknown colour")
        _require(_positive_int(b.get("cost")), f"building {b['id']} needs a positive cost")
        _require(b.get("effect") in _EFFECTS, f"building {b['id']} has an unknown effect")
        _require(isinstance(b.get("name"), str), f"building {b['id']} needs a name")
        if b["effect"] == "order_bonus":
            _require(b.get("order") in orders, f"building {b['id']} boosts an unknown order")
    for key in ("building_copies", "great_works_size", "starting_hand", "plot_refill_to", "max_rounds_default",
                "min_players", "max_players"):
        _require(_positive_int(raw.get(key)), f"{key} must be a positive integer")
    _require(isinstance(raw.get("base_operation_limit"), int), "base_operation_limit must be an integer")
    _require(raw["min_players"] <= raw["max_players"], "min_players exceeds max_players")
    targets = raw.get("vp_target_default")
    _require(isinstance(targets, dict), "vp_target_default must be an object")
    for n in range(raw["min_players"], raw["max_players"] + 1):
        _require(_positive_int(targets.get(str(n))), f"vp_target_default lacks {n} players")
    for key in ("vp_target_range", "max_rounds_range"):
        rng = raw.get(key)
        _require(isinstance(rng, list) and len(rng) == 2 and rng[0] <= rng[1], f"{key} must be [lo, hi]")
    deck = sum(c["cards"] for c in colors)
    _require(deck >= raw["max_players"] * raw["starting_hand"], "the draw pile is too small to deal")
    _require(len(buildings) * raw["building_copies"] >= raw["great_works_size"], "too few buildings")
    return raw


def load(path: Path = _PATH) -> dict:
    """Read and validate the data file."""
    with open(path, encoding="utf-8") as fh:
        return validate(json.load(fh))


DATA = load()
COLORS: list[str] = [c["id"] for c in DATA["colors"]]
COLOR_INFO: dict[str, dict] = {c["id"]: c for c in DATA["colors"]}
ORDERS: list[str] = [c["order"] for c in DATA["colors"]]
ORDER_COLOR: dict[str, str] = {c["order"]: c["id"] for c in DATA["colors"]}
COLOR_ORDER: dict[str, str] = {c["id"]: c["order"] for c in DATA["colors"]}
DESIGNS: dict[str, dict] = {b["id"]: b for b in DATA["buildings"]}
BUILDING_IDS: list[str] = [f"{b['id']}_{k}" for b in DATA["buildings"]
                           for k in range(1, DATA["building_copies"] + 1)]
RESOURCE_DECK: list[str] = [c["id"] for c in DATA["colors"] for _ in range(c["cards"])]


def design_of(building_id: str) -> dict:
    """The design record of a building instance id such as `clay_pits_2`."""
    return DESIGNS[building_id.rsplit("_", 1)[0]]
