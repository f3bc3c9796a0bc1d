"""Read-only helpers over the game state: players, holds, net worth, landing squares, trading partners."""
from __future__ import annotations

import copy
import json

from domain.engine import RuleViolation, event

from . import data

BASE = "base"


def fresh_turn() -> dict:
    """The per-turn scratch record, as it is at the start of a turn."""
    return {"to": None, "destination": None, "use_drive": False, "dice": [], "movement_value": 0,
            "nav_die": None, "nav_value": None, "mp": 0, "steps": 0, "prev": None, "hazard_due": 0,
            "entered_orbitals": [], "moved": False, "landed": False, "limited": False,
            "buy_used": False, "sell_used": False, "end_reason": None}


def player(state: dict, pid: str) -> dict:
    """The mutable record of one player."""
    return state["pl"][pid]


def holds_used(p: dict) -> int:
    """Holds in use: cargo tokens, passengers, drives, and every shield beyond the first."""
    return len(p["cargo"]) + len(p["drives"]) + max(0, p["shields"] - 1)


def holds(p: dict) -> int:
    """The holds of the player's ship class."""
    return data.SHIPS[p["ship"]]["holds"]


def deed_value(state: dict, pid: str) -> int:
    """The printed value of every deed the player owns (factories and merchant spaceports)."""
    total = sum(data.CULTURES[c]["deed"] for c, owner in state["factories"].items() if owner == pid)
    total += data.DEFAULTS["spaceport_deed_price"] * sum(1 for o in state["spaceports"].values() if o == pid)
    return total


def net_worth(state: dict, pid: str) -> int:
    """Cash plus the printed value of owned deeds (networth.value)."""
    return state["pl"][pid]["cash"] + deed_value(state, pid)


def is_landing(state: dict, square: str) -> bool:
    """Base, city, port, or an orbital square holding a merchant spaceport."""
    kind = data.SQUARES[square]["kind"]
    return kind in ("base", "city", "port") or (kind == "orbital" and square in state["spaceports"])


def landing_squares(state: dict) -> list[str]:
    """Every landing square in canonical order."""
    return [s for s in data.SQUARE_ORDER if is_landing(state, s)]


def trade_partner(state: dict, square: str) -> str | None:
    """The culture one trades with on `square`, BASE on the Galactic Base, or None."""
    sq = data.SQUARES[square]
    if sq["kind"] == "base":
        return BASE
    if sq["kind"] in ("city", "port") or (sq["kind"] == "orbital" and square in state["spaceports"]):
        return state["revealed"].get(sq["system"])
    return None


def skip_colors(p: dict) -> set[str]:
    """The square colours the player's drives let him skip."""
    return {c for d in p["drives"] for c in data.EQUIPMENT[d]["skips"]}


def science_of(partner: str) -> str:
    """The science of a trading partner (BASE for the Galactic Base)."""
    return BASE if partner == BASE else data.CULTURES[partner]["science"]


def passes(fn, *args) -> bool:
    """True when the check raises no RuleViolation."""
    try:
        fn(*args)
    except RuleViolation:
        return False
    return True


def violate(rule_id: str, message: str):
    """Raise a RuleViolation with a bare rule id."""
    raise RuleViolation(rule_id, message)


class Sim:
    """A scratch copy of the state that records the events applied to it (decide never mutates)."""

    def __init__(self, state: dict, evolve):
        self.state = json.loads(json.dumps(state))  # the state is plain JSON: far faster than deepcopy
        self.events: list[dict] = []
        self._evolve = evolve

    def emit(self, type_: str, **fields) -> dict:
        """Record an event and apply it to the scratch state."""
        ev = event(type_, **fields)
        self.events.append(ev)
        self.state = self._evolve(self.state, copy.deepcopy(ev))
        return ev
