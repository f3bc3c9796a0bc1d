"""What each viewer may see: the state view and redacted events (spec §8)."""
from __future__ import annotations

import copy

from domain.engine import ALL

from . import data
from .state import holds, holds_used, net_worth


def _player_view(state: dict, pid: str) -> dict:
    p = state["pl"][pid]
    return {"race": p["race"], "cash": p["cash"], "ship": p["ship"], "square": p["square"],
            "cargo": list(p["cargo"]), "shields": p["shields"], "drives": list(p["drives"]),
            "ious": list(p["ious"]), "holds_used": holds_used(p), "holds": holds(p),
            "net_worth": net_worth(state, pid), "observed_systems": sorted(p["observed"]),
            "factories": [c for c, o in state["factories"].items() if o == pid],
            "spaceports": [s for s, o in state["spaceports"].items() if o == pid]}


def _systems(state: dict) -> dict:
    out = {}
    for sid in data.SYSTEM_ORDER:
        culture = state["revealed"].get(sid)
        out[sid] = {"name": data.SYSTEMS[sid]["name"], "culture": culture,
                    "culture_name": data.CULTURES[culture]["name"] if culture else None,
                    "observed_by": [p for p in state["players"] if sid in state["pl"].get(p, {}).get("observed", {})]}
    return out


def _markets(state: dict) -> dict:
    revealed_at = {c: s for s, c in state["revealed"].items()}
    out = {}
    for cid, m in state["market"].items():
        c = data.CULTURES[cid]
        out[cid] = {"name": c["name"], "science": c["science"], "goods": m["good"], "factory_goods": m["factory"],
                    "factory_deed": m["deed"], "deed_price": c["deed"],
                    "goods_info": {**c["goods"], "grade": data.grade(c["goods"]["cost"])},
                    "factory_info": {**c["factory"], "grade": data.grade(c["factory"]["cost"])},
                    "factory_owner": state["factories"].get(cid), "system": revealed_at.get(cid),
                    "passengers": [p for p, at in state["passenger_at"].items() if at == cid],
                    "demands": [d for d, at in state["demand_at"].items() if at == cid]}
    return out


def view(state: dict, viewer) -> dict:
    """The state as `viewer` may see it (a player id, None for a spectator, or ALL)."""
    opts = state["options"]
    t = state["turn"]
    out = {
        "game": "merchant-of-venus", "players": list(state["players"]), "active": state["active"],
        "phase": state["phase"], "free_space": state["free_space"], "round": state["round"],
        "max_rounds": opts.get("max_rounds"), "target_net_worth": opts.get("target_net_worth"),
        "first_player": state["first_player"], "systems": _systems(state), "markets": _markets(state),
        "spaceport_deeds": list(state["spaceport_deeds"]), "spaceports": dict(state["spaceports"]),
        "player_states": {p: _player_view(state, p) for p in state["players"] if p in state["pl"]},
        "turn": {k: copy.deepcopy(t[k]) for k in ("to", "destination", "use_drive", "dice", "movement_value",
                                                   "nav_die", "nav_value", "mp", "steps", "prev", "hazard_due",
                                                   "landed", "limited", "buy_used", "sell_used", "end_reason")},
        "observed": {}, "result": copy.deepcopy(state["outcome"]),
    }
    if viewer == ALL:
        out["observed"] = {p: dict(state["pl"][p]["observed"]) for p in state["pl"]}
        out["placement"] = dict(state["placement"])
        out["set_aside"] = state["set_aside"]
    elif viewer in state["pl"]:
        out["observed"] = dict(state["pl"][viewer]["observed"])
    return out


def redact(ev: dict, viewer) -> dict:
    """The event as `viewer` may see it: face-down cards and private observations removed."""
    if viewer == ALL:
        return ev
    kind, d = ev.get("type"), ev.get("data", {})
    if kind == "cards_dealt":
        return {"type": kind, "data": {}}
    if kind == "culture_observed" and d.get("player") != viewer:
        return {"type": kind, "data": {k: v for k, v in d.items() if k != "culture"}}
    if kind == "match_started" and isinstance(d.get("options"), dict) and "fixed_cultures" in d["options"]:
        opts = {k: v for k, v in d["options"].items() if k != "fixed_cultures"}
        return {"type": kind, "data": {**d, "options": opts}}
    return ev
