"""What each viewer may see: the view of the state and the redaction of events (§8)."""
from __future__ import annotations

import copy

from domain.engine.contract import ALL

from .state import count, operation_limit, vp
from .steps import decision

_PRIVATE_DRAWS = ("cards_dealt", "cards_drawn")


def _pending(state: dict) -> dict | None:
    """The pending step: its kind, who decides, and the public details of a running order."""
    kind, active = decision(state)
    if kind == "finished":
        return None
    pending = {"step": kind, "players": list(active)}
    order = state["order"]
    if order is not None:
        pending["order"] = {k: copy.deepcopy(order[k]) for k in
                            ("player", "order", "repetitions", "used", "source", "copied_from", "revealed",
                             "victims")}
    if state["bonus"] is not None:
        pending["bonus"] = dict(state["bonus"])
    return pending


def _player_view(state: dict, p: str, viewer) -> dict:
    """One player's tableau; the hand colours only for that player (or ALL)."""
    hand = state["hands"][p]
    return {
        "hand": dict(hand) if viewer in (p, ALL) else None,
        "hand_size": count(hand),
        "stock": dict(state["stock"][p]),
        "operations": dict(state["operations"][p]),
        "residence": {"colors": list(state["residence"][p]["colors"]), "order": state["residence"][p]["order"]},
        "under_construction": dict(state["under_construction"][p]),
        "completed": list(state["completed"][p]),
        "vp": vp(state, p),
        "operation_limit": operation_limit(state, p),
        "monopolies": [c for c, h in state["monopolies"].items() if h == p],
    }


def view(state: dict, viewer) -> dict:
    """The state as `viewer` (player id, None for a spectator, or ALL) may see it."""
    out = {
        "game": "uchronia",
        "phase": state["phase"],
        "round": state["round"],
        "max_rounds": state["max_rounds"],
        "vp_target": state["vp_target"],
        "turn_order": list(state["turn_order"]),
        "first_player": state["first_player"],
        "current_player": state["current"],
        "pending": _pending(state),
        "viewer": viewer,
        "forum": dict(state["forum"]),
        "discard": dict(state["discard"]),
        "great_works": list(state["great_works"]),
        "monopolies": dict(state["monopolies"]),
        "draw_pile_size": len(state["draw_pile"]),
        "building_deck_size": len(state["building_deck"]),
        "players": {p: _player_view(state, p, viewer) for p in state["turn_order"]},
        "end_triggered": copy.deepcopy(state["end_triggered"]),
        "result": copy.deepcopy(state["finished"]),
    }
    if viewer == ALL:
        out["draw_pile"] = list(state["draw_pile"])
        out["building_deck"] = list(state["building_deck"])
    return out


def redact(event: dict, viewer) -> dict:
    """The event as `viewer` may see it: deck orders only for ALL, drawn colours only for the drawer."""
    if viewer == ALL:
        return event
    data = event.get("data", {})
    if event.get("type") == "decks_shuffled":
        return {"type": "decks_shuffled", "data": {
            "resource_count": len(data["resource_order"]) if "resource_order" in data else data.get("resource_count"),
            "building_count": len(data["building_order"]) if "building_order" in data else data.get("building_count"),
        }}
    if event.get("type") in _PRIVATE_DRAWS and data.get("player") != viewer:
        return {"type": event["type"], "data": {k: v for k, v in data.items() if k != "colors"}}
    return event
