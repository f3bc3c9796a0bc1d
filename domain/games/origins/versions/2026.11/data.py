"""Loads and validates origins.json: every table of the game lives there, none in Python literals."""
from __future__ import annotations

import json
from pathlib import Path

from domain.engine.versions import data_file

_PATH = data_file(__package__, "origins.json")  # the rules version this package is loaded as


def _require(cond: bool, message: str) -> None:
    """Raise ValueError with `message` unless `cond` holds."""
    if not cond:
        raise ValueError(f"origins.json: {message}")


def _validate(raw: dict) -> None:
    """Check the shape and the cross-references of the raw data file."""
    for key in ("players", "options", "colours", "dice", "sites", "dial", "bonus_tokens", "bonus_costs",
                "citizen_row", "orator_row", "resources", "buildings", "market_size", "starting_tiles",
                "city", "district_cards", "districts", "temples", "temple_top", "temple_vp",
                "temple_advance", "zodiac_cards", "war", "gather_amount", "food_spend", "player_start",
                "scoring"):
        _require(key in raw, f"missing key {key!r}")
    colours = raw["colours"]
    _require(len(set(colours)) == len(colours) and colours, "colours must be unique and non-empty")
    _require(len(raw["sites"]) == len(raw["bonus_tokens"]), "one bonus token per site")
    for site in raw["sites"]:
        _require(site["colour"] in colours, f"site {site['id']} has unknown colour")
        _require(isinstance(site["main"], list) and site["main"], f"site {site['id']} needs main actions")
    _require(all(c >= 0 for c in raw["citizen_row"]["costs"]), "citizen row costs must be >= 0")
    kinds = set()
    for b in raw["buildings"]:
        _require(b["colour"] in colours, f"building {b['kind']} has unknown colour")
        _require(b["copies"] >= 1 and b["wisdom"] >= 0 and b["stone"] >= 0, f"building {b['kind']} numbers")
        _require(b["kind"] not in kinds, f"duplicate building {b['kind']}")
        kinds.add(b["kind"])
        for k in b["effect"]:
            _require(k in ("vp", "stone", "food", "wisdom", "war", "lowest_temple",
                           "food_per_adjacent_farm", "vp_per_farm"), f"unknown effect {k}")
    tile_count = sum(b["copies"] for b in raw["buildings"])
    _require(tile_count > raw["market_size"], "more tiles than market slots needed")
    tile_kinds = set(colours) | {"grey", "farm"}
    for card in raw["district_cards"]:
        _require(len(card["needs"]) == 2 and set(card["needs"]) <= tile_kinds, f"card {card['id']} needs")
    _require(raw["districts"]["cards_dealt"] <= len(raw["district_cards"]), "too many district cards dealt")
    _require(len(raw["temple_vp"]) == raw["temple_top"] + 1, "temple_vp needs one value per position")
    for card in raw["zodiac_cards"]:
        _require(card["temple"] in raw["temples"], f"zodiac {card['id']} has unknown temple")
    war = raw["war"]
    covered = sorted(p for band in war["bands"] for p in range(band["from"], band["to"] + 1))
    _require(covered == list(range(war["max"] + 1)), "war bands must cover 0..max exactly once")
    rows, cols = raw["city"]["rows"], raw["city"]["columns"]
    cells = {f"{r}{c}" for r in rows for c in cols}
    for t in raw["starting_tiles"]:
        _require(t["cell"] in cells, f"starting tile {t['tile']} off the grid")
    opt = raw["options"]["max_rounds"]
    _require(opt["min"] <= opt["default"] <= opt["max"], "max_rounds default out of range")
    _require(2 <= raw["players"]["min"] <= raw["players"]["max"], "player counts")
    _require(raw["player_start"]["citizen_dice"] <= min(raw["player_start"]["stands"], len(colours)),
             "starting dice must fit the stands and be of different colours")


def load(path: Path = _PATH) -> dict:
    """Read, validate and return the data file as a dict (raises ValueError on a bad file)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"origins.json unreadable: {exc}") from exc
    try:
        _validate(raw)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"origins.json malformed: {exc!r}") from exc
    return raw


DATA = load()
COLOURS: list = DATA["colours"]
SITES: dict = {s["id"]: s for s in DATA["sites"]}
SITE_IDS: list = [s["id"] for s in DATA["sites"]]
TOKEN_IDS: list = [t["id"] for t in DATA["bonus_tokens"]]
MAIN_SITE: dict = {cmd: s["id"] for s in DATA["sites"] for cmd in s["main"]}
BONUS_TOKEN: dict = {t["command"]: t["id"] for t in DATA["bonus_tokens"]}
BONUS_COSTS: dict = DATA["bonus_costs"]
BUILDINGS: dict = {b["kind"]: b for b in DATA["buildings"]}
TILE_IDS: list = [f"{b['kind']}-{n}" for b in DATA["buildings"] for n in range(1, b["copies"] + 1)]
STARTING_TILES: list = DATA["starting_tiles"]
ROWS: list = DATA["city"]["rows"]
COLUMNS: list = [str(c) for c in DATA["city"]["columns"]]
CELLS: list = [f"{r}{c}" for r in ROWS for c in COLUMNS]
DISTRICT_CARDS: dict = {c["id"]: c for c in DATA["district_cards"]}
TEMPLES: list = DATA["temples"]
TEMPLE_TOP: int = DATA["temple_top"]
ZODIAC: dict = {c["id"]: c for c in DATA["zodiac_cards"]}
WAR: dict = DATA["war"]
RESOURCES: list = DATA["resources"]
CITIZEN_COSTS: list = DATA["citizen_row"]["costs"]
ORATOR_SLOTS: int = DATA["orator_row"]["slots"]
DICE: dict = DATA["dice"]
DIAL: dict = DATA["dial"]
START: dict = DATA["player_start"]
DISTRICTS: dict = DATA["districts"]
MAX_ROUNDS: dict = DATA["options"]["max_rounds"]


def tile_kind_name(tile: str) -> str:
    """The building kind of a tile id (`masonry-2` -> `masonry`; `palace` stays `palace`)."""
    return tile.rsplit("-", 1)[0] if "-" in tile else tile


def building(tile: str) -> dict | None:
    """The building row of a market tile id, or None for an unknown id."""
    return BUILDINGS.get(tile_kind_name(tile)) if tile in TILE_IDS else None
