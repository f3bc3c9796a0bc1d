"""decide, legal_commands, active_players and on_timeout: who may do what now."""
from __future__ import annotations

from domain.engine import RuleViolation
from domain.engine.text import T

from .bonuses import BONUS_ACTIONS
from .common import ready_workers, require
from .data import SITE_IDS
from .districts import close_candidates, close_events
from .mains import MAIN_ACTIONS
from .rounds import pass_events
from .visits import (action_events, bonus_commands, end_visit_allowed, end_visit_events, forfeit_events,
                     main_commands, visit_event)

TURN_COMMANDS = ("visit", "close_district", "pass")


def decide(state: dict, player: str, command: dict, rng) -> list:
    """Validate a command of `player` and return its events; never mutates `state`."""
    ctype = command.get("type") if isinstance(command, dict) else None
    payload = command.get("payload") if isinstance(command, dict) else None
    payload = payload if isinstance(payload, dict) else {}
    require(isinstance(ctype, str), "round.turn-order", T("A command needs a type."))
    require(state["status"] == "playing" and player == state["current"], "round.turn-order",
            T("It is not your turn."))
    visit = state["visit"]
    if ctype in TURN_COMMANDS:
        require(visit is None, "round.turn-order", T("Finish your open visit first."))
        if ctype == "visit":
            return [visit_event(state, player, payload)]
        if ctype == "close_district":
            return close_events(state, player, payload)
        return pass_events(state, player, rng)
    if ctype == "end_visit":
        return end_visit_events(state, player)
    if ctype in MAIN_ACTIONS or ctype in BONUS_ACTIONS:
        return action_events(state, player, ctype, payload, rng)
    raise RuleViolation("round.turn-order", T("There is no such move."))


def _visit_commands(state: dict, pid: str) -> list:
    out = []
    for worker in ready_workers(state["players"][pid]):
        for site in SITE_IDS:
            payload = {"worker": worker, "site": site}
            try:
                visit_event(state, pid, payload)
            except RuleViolation:
                continue
            out.append({"type": "visit", "payload": payload})
    return out


def legal_commands(state: dict, player: str) -> list:
    """Every concrete command `player` may send now."""
    if state["status"] != "playing" or player != state["current"]:
        return []
    p = state["players"][player]
    visit = state["visit"]
    if visit is None:
        return (_visit_commands(state, player)
                + [{"type": "close_district", "payload": c} for c in close_candidates(state, p)]
                + [{"type": "pass", "payload": {}}])
    out = main_commands(state, p, visit) + bonus_commands(state, p, visit)
    if end_visit_allowed(state, p, visit):
        out.append({"type": "end_visit", "payload": {}})
    return out


def active_players(state: dict) -> list:
    """The player whose turn it is, or nobody once finished."""
    return [state["current"]] if state["status"] == "playing" and state["current"] else []


def on_timeout(state: dict, player: str, rng) -> list:
    """A passed deadline: an open visit ends with its remainder forfeited, then the player passes."""
    if state["status"] != "playing" or player != state["current"]:
        return []
    events = forfeit_events(state, player) if state["visit"] is not None else []
    scratch_state = state if not events else dict(state, visit=None)
    return events + pass_events(scratch_state, player, rng)

