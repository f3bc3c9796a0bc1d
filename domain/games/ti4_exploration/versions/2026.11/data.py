"""Loads and validates ti4_exploration.json (map, planets, exploration cards, relics, technologies, constants)."""
from __future__ import annotations

import json
from pathlib import Path

from domain.engine.versions import data_file

DATA_FILE = data_file(__package__, "ti4_exploration.json")  # the rules version this package is loaded as

PLANET_DECKS = ("cultural", "hazardous", "industrial")
DECKS = ("cultural", "industrial", "hazardous", "frontier")
FRAGMENT_TYPES = ("cultural", "industrial", "hazardous", "unknown")
FATES = ("discard", "attach", "fragment", "purge", "player", "common")
OPTIONS = frozenset({
    "attach", "buy_ship", "decline", "place", "place_ground_force", "take", "gain_commodities",
    "convert_commodities", "gain_commodity", "ready_pay_trade_good", "ready_pay_commodity",
    "place_pay_trade_good", "place_pay_commodity", "remove_ground_force", "place_ship", "keep", "gain",
    "replenish_commodities",
})
REQUIRED_CONSTANTS = (
    "starting_trade_goods", "starting_commodities", "commodity_value", "starting_command_tokens",
    "command_tokens_per_status", "home_ships", "home_space_ground_forces", "home_planet_ground_forces",
    "ship_capacity", "ship_cost", "ground_force_cost", "sarween_discount", "max_units_per_production",
    "research_command_tokens", "research_trade_goods", "enigmatic_device_trade_goods", "freelancers_cost",
    "lot_max_count", "fragments_per_relic", "max_unknown_fragments", "influence_per_vp", "mecatol_vp",
    "planet_vp", "relic_drawn_vp", "mecatol", "mirage",
)


def _require(condition: bool, message: str) -> None:
    """Raise ValueError with `message` unless `condition` holds."""
    if not condition:
        raise ValueError(f"{DATA_FILE.name}: {message}")


def _validate(raw: dict) -> None:
    """Check the shape and the cross references of the raw data file."""
    for key in ("systems", "planets", "seats", "exploration_cards", "deck_sizes", "relics", "technologies",
                "constants"):
        _require(key in raw, f"missing key {key!r}")
    systems = {s["id"]: s for s in raw["systems"]}
    planets = {p["id"]: p for p in raw["planets"]}
    _require(len(systems) == len(raw["systems"]), "duplicate system id")
    _require(len(planets) == len(raw["planets"]), "duplicate planet id")
    for sid, s in systems.items():
        for other in s["adjacent"]:
            _require(other in systems, f"{sid} is adjacent to unknown system {other}")
            _require(sid in systems[other]["adjacent"], f"adjacency {sid}-{other} is not symmetric")
        for pid in s["planets"]:
            _require(pid in planets and planets[pid]["system"] == sid, f"planet {pid} does not belong to {sid}")
    for pid, p in planets.items():
        _require(p["system"] is None or pid in systems[p["system"]]["planets"], f"planet {pid} is not placed")
        _require(all(t in PLANET_DECKS for t in p["traits"]), f"planet {pid} has an unknown trait")
        _require(isinstance(p["resources"], int) and isinstance(p["influence"], int), f"planet {pid} values")
    for seat in raw["seats"]:
        _require(systems.get(seat["home"], {}).get("home_seat") == seat["seat"], f"seat {seat} home mismatch")
    sizes = {d: 0 for d in DECKS}
    ids = set()
    for c in raw["exploration_cards"]:
        _require(c["deck"] in DECKS, f"card {c['id']} has unknown deck")
        _require(c["fate"] in FATES, f"card {c['id']} has unknown fate")
        _require(c["options"] and set(c["options"]) <= OPTIONS, f"card {c['id']} has unknown options")
        _require(c["id"] not in ids and c["count"] >= 1, f"card {c['id']} duplicated or empty")
        _require(c["fate"] != "fragment" or c.get("fragment_type") in FRAGMENT_TYPES, f"card {c['id']} type")
        ids.add(c["id"])
        sizes[c["deck"]] += c["count"]
    _require(sizes == raw["deck_sizes"], f"deck sizes {sizes} differ from {raw['deck_sizes']}")
    _require(len(raw["relics"]) == 5, "the relic deck holds 5 relics")
    for key in REQUIRED_CONSTANTS:
        _require(key in raw["constants"], f"missing constant {key!r}")
    _require(raw["constants"]["mirage"] in planets and raw["constants"]["mecatol"] in planets, "special planets")


def load(path: Path = DATA_FILE) -> dict:
    """Read and validate the data file, returning the raw dict."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    _validate(raw)
    return raw


RAW = load()
SYSTEMS = {s["id"]: s for s in RAW["systems"]}
PLANETS = {p["id"]: p for p in RAW["planets"]}
SEAT_HOMES = {s["seat"]: s["home"] for s in RAW["seats"]}
HOME_SYSTEMS = frozenset(SEAT_HOMES.values())
CARD_TYPES = {c["id"]: c for c in RAW["exploration_cards"]}
RELICS = {r["id"]: r for r in RAW["relics"]}
RELIC_ORDER = [r["id"] for r in RAW["relics"]]
TECHNOLOGIES = [t["id"] for t in RAW["technologies"]]
CONST = RAW["constants"]
DECK_CARDS = {d: [f"{c['id']}#{n}" for c in RAW["exploration_cards"] if c["deck"] == d
                  for n in range(1, c["count"] + 1)] for d in DECKS}


def card_type(card: str) -> dict:
    """The card-type record of a physical card id `<card-id>#<n>` (or of a bare card id)."""
    return CARD_TYPES[card.split("#", 1)[0]]


def is_card(card) -> bool:
    """Whether `card` names a known exploration card."""
    return isinstance(card, str) and card.split("#", 1)[0] in CARD_TYPES
