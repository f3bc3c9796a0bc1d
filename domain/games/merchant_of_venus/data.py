"""Loads and validates merchant_of_venus.json and derives the lookup tables the rules use."""
from __future__ import annotations

import json
from pathlib import Path

from domain.engine.versions import data_file

_PATH = data_file(__package__, "merchant_of_venus.json")  # the rules version this package is loaded as
_KEYS = ("squares", "links", "nav_exits", "telegates", "systems", "cultures", "ships", "equipment",
         "passengers", "demands", "races", "defaults")
KINDS = ("space", "nav", "telegate", "orbital", "city", "port", "base")
COLORS = ("blue", "yellow", "red")
SCIENCES = ("biotech", "industry", "technology", "metaphysics", "primitive")


def _fail(message: str):
    raise ValueError(f"merchant_of_venus.json: {message}")


def _check_map(raw: dict) -> None:
    ids = [s["id"] for s in raw["squares"]]
    if len(set(ids)) != len(ids):
        _fail("duplicate square ids")
    for sq in raw["squares"]:
        if sq["kind"] not in KINDS or sq["color"] not in COLORS:
            _fail(f"bad kind or colour on {sq['id']}")
        if not isinstance(sq["hazard"], int) or sq["hazard"] < 0:
            _fail(f"bad hazard on {sq['id']}")
        if not isinstance(sq["x"], (int, float)) or not isinstance(sq["y"], (int, float)):
            _fail(f"bad coordinates on {sq['id']}")
    known = set(ids)
    for a, b, cost in raw["links"]:
        if a not in known or b not in known or cost not in (1, 2):
            _fail(f"bad link {a}-{b}")
    for nav, exits in raw["nav_exits"].items():
        if nav not in known or any(e not in known for e in exits):
            _fail(f"bad navigation square {nav}")
    if any(t not in known for t in raw["telegates"]):
        _fail("unknown telegate")


def _check_tables(raw: dict) -> None:
    culture_ids = {c["id"] for c in raw["cultures"]}
    for c in raw["cultures"]:
        if c["science"] not in SCIENCES or not 1 <= c["group"] <= raw["defaults"]["groups"]:
            _fail(f"bad culture {c['id']}")
        for kind in ("goods", "factory"):
            if not {"name", "cost", "sale"} <= set(c[kind]):
                _fail(f"bad {kind} for {c['id']}")
    if len(raw["systems"]) + 1 != len(raw["cultures"]):
        _fail("there must be one culture more than systems (the set-aside card)")
    for p in raw["passengers"]:
        if p["origin"] not in culture_ids or p["destination"] not in culture_ids:
            _fail(f"bad passenger {p['id']}")
    for d in raw["demands"]:
        if d["at"] not in culture_ids or d["wants"].split(":", 1)[1] not in culture_ids:
            _fail(f"bad demand {d['id']}")
    if any(r not in culture_ids for r in raw["races"]):
        _fail("a race must be a culture")


def load(path: Path = _PATH) -> dict:
    """Read and validate the game data file; raise ValueError when it is malformed."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"merchant_of_venus.json unreadable: {exc}") from exc
    if not isinstance(raw, dict) or any(k not in raw for k in _KEYS):
        _fail("missing top-level keys")
    try:
        _check_map(raw)
        _check_tables(raw)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ValueError(f"merchant_of_venus.json invalid: {exc}") from exc
    return raw


RAW = load()
DEFAULTS = RAW["defaults"]
SQUARES = {s["id"]: s for s in RAW["squares"]}
SQUARE_ORDER = [s["id"] for s in RAW["squares"]]
LINKS: dict[str, dict[str, int]] = {sid: {} for sid in SQUARES}
for _a, _b, _cost in RAW["links"]:
    LINKS[_a][_b] = _cost
    LINKS[_b][_a] = _cost
NAV_EXITS = RAW["nav_exits"]
TELEGATES = RAW["telegates"]
SYSTEMS = {s["id"]: s for s in RAW["systems"]}
SYSTEM_ORDER = [s["id"] for s in RAW["systems"]]
CULTURES = {c["id"]: c for c in RAW["cultures"]}
CULTURE_ORDER = [c["id"] for c in RAW["cultures"]]
SHIPS = {s["id"]: s for s in RAW["ships"]}
SHIP_ORDER = [s["id"] for s in RAW["ships"]]
EQUIPMENT = {e["id"]: e for e in RAW["equipment"]}
EQUIPMENT_ORDER = [e["id"] for e in RAW["equipment"]]
DRIVES = [e for e in EQUIPMENT_ORDER if e.startswith("drive:")]
PASSENGERS = {p["id"]: p for p in RAW["passengers"]}
PASSENGER_ORDER = [p["id"] for p in RAW["passengers"]]
DEMANDS = {d["id"]: d for d in RAW["demands"]}
DEMAND_ORDER = [d["id"] for d in RAW["demands"]]
RACES = list(RAW["races"])
ITEMS = ["good", "factory_good", "factory_deed", "spaceport_deed"] + EQUIPMENT_ORDER + ["ship"]
CARGO_TOKENS = [f"{kind}:{c}" for c in CULTURE_ORDER for kind in ("good", "factory")]


def _derive_buyers() -> dict[str, list[str]]:
    span, groups = DEFAULTS["buyer_span"], DEFAULTS["groups"]
    out = {}
    for cid, c in CULTURES.items():
        wanted = {(c["group"] - k - 1) % groups + 1 for k in range(1, span + 1)}
        out[cid] = [o for o in CULTURE_ORDER if CULTURES[o]["group"] in wanted]
    return out


BUYS_FROM = _derive_buyers()


def grade(cost: int) -> str:
    """The goods grade (basic, premium, luxury) for a cost."""
    for row in DEFAULTS["grades"]:
        if cost <= row["max_cost"]:
            return row["grade"]
    return DEFAULTS["grades"][-1]["grade"]


def token_culture(token: str) -> str:
    """The origin culture of a `good:<c>` or `factory:<c>` token."""
    return token.split(":", 1)[1]


def token_info(token: str) -> dict:
    """The goods row (name, cost, sale) of a cargo token id."""
    kind, culture = token.split(":", 1)
    return CULTURES[culture]["goods" if kind == "good" else "factory"]


def system_of(square: str) -> str | None:
    """The system a square belongs to, if any."""
    return SQUARES[square]["system"]
