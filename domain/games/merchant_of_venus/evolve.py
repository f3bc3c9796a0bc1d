"""Applies one event to the state (total and deterministic; draws nothing)."""
from __future__ import annotations

from . import data
from .state import fresh_turn, holds, holds_used


def initial_state(players: list[str], options: dict) -> dict:
    """The empty state before the setup events."""
    return {
        "players": list(players), "options": dict(options), "phase": "setup", "free_space": False,
        "active": None, "first_player": None, "round": 0, "placement": {}, "set_aside": None,
        "revealed": {}, "market": {c: {"good": data.DEFAULTS["goods_tokens"],
                                       "factory": data.DEFAULTS["factory_tokens"], "deed": True}
                                   for c in data.CULTURE_ORDER},
        "factories": {}, "spaceport_deeds": [], "spaceports": {},
        "passenger_at": {p["id"]: p["origin"] for p in data.RAW["passengers"]},
        "demand_at": {d["id"]: d["at"] for d in data.RAW["demands"]},
        "pl": {}, "turn": fresh_turn(), "outcome": None,
    }


def _match_started(s, d):
    s["players"] = list(d.get("seats", s["players"]))
    s["first_player"] = d.get("first_player")
    for pid in s["players"]:
        s["pl"][pid] = {"race": d.get("races", {}).get(pid), "cash": d.get("cash", 0),
                        "ship": data.DEFAULTS["start_ship"], "square": data.DEFAULTS["start_square"],
                        "cargo": [], "shields": 0, "drives": [], "ious": [], "observed": {}}


def _cards_dealt(s, d):
    s["placement"] = dict(d.get("placement", {}))
    s["set_aside"] = d.get("set_aside")


def _turn_started(s, d):
    s["active"] = d["player"]
    s["round"] = d["round"]
    s["phase"] = "declare"
    s["free_space"] = False
    s["turn"] = fresh_turn()


def _movement_skipped(s, d):
    s["phase"] = "trade"


def _direction_declared(s, d):
    t = s["turn"]
    t["to"], t["destination"], t["use_drive"] = d["to"], d["destination"], d["use_drive"]
    s["phase"] = "roll"


def _speed_rolled(s, d):
    t = s["turn"]
    t["dice"] = list(d["dice"])
    t["movement_value"] = d["movement_value"]
    t["mp"] = d["movement_value"]
    s["phase"] = "move"


def _navigation_assigned(s, d):
    s["turn"]["nav_die"] = d["die"]
    s["turn"]["nav_value"] = d["value"]


def _ship_moved(s, d):
    t = s["turn"]
    p = s["pl"][d["player"]]
    p["square"] = d["to"]
    t["prev"] = d["from"]
    t["mp"] = d["mp_left"]
    t["steps"] += 1
    t["moved"] = True
    sq = data.SQUARES[d["to"]]
    t["hazard_due"] = sq["hazard"] if not d["skipped"] else 0
    if sq["kind"] == "orbital" and d["to"] not in t["entered_orbitals"]:
        t["entered_orbitals"].append(d["to"])


def _hazard_fee_paid(s, d):
    s["pl"][d["player"]]["cash"] -= d["paid"]


def _culture_observed(s, d):
    if "culture" in d:
        s["pl"][d["player"]]["observed"][d["system"]] = d["culture"]


def _movement_ended(s, d):
    t = s["turn"]
    t["end_reason"] = d["reason"]
    t["landed"] = d["landed"]
    t["limited"] = d["landed"] and data.SQUARES[d["square"]]["kind"] in ("city", "port")
    s["phase"] = "trade"


def _first_contact_made(s, d):
    s["revealed"][d["system"]] = d["culture"]
    s["pl"][d["player"]]["ious"].append(d["culture"])
    for orbital in d["spaceport_deeds"]:
        if orbital not in s["spaceport_deeds"]:
            s["spaceport_deeds"].append(orbital)


def _refresh_free_space(s, pid):
    p = s["pl"][pid]
    s["free_space"] = holds_used(p) > holds(p)


def _item_bought(s, d):
    pid, item, culture = d["player"], d["item"], d["culture"]
    p = s["pl"][pid]
    p["cash"] -= d["credits_paid"]
    if d["iou_culture"] in p["ious"]:
        p["ious"].remove(d["iou_culture"])
    if d["buy_action"]:
        s["turn"]["buy_used"] = True
    if item == "good":
        s["market"][culture]["good"] -= d["count"]
        p["cargo"].extend([f"good:{culture}"] * d["count"])
    elif item == "factory_good":
        s["market"][culture]["factory"] -= d["count"]
        p["cargo"].extend([f"factory:{culture}"] * d["count"])
    elif item == "factory_deed":
        s["market"][culture]["deed"] = False
        s["factories"][culture] = pid
    elif item == "spaceport_deed":
        if d["target"] in s["spaceport_deeds"]:
            s["spaceport_deeds"].remove(d["target"])
        s["spaceports"][d["target"]] = pid
    elif item == "shield":
        p["shields"] += 1
    elif item == "ship":
        p["ship"] = d["target"]
    else:
        p["drives"].append(item)
    _refresh_free_space(s, pid)


def _commission_paid(s, d):
    s["pl"][d["owner"]]["cash"] += d["amount"]


def _item_sold(s, d):
    p = s["pl"][d["player"]]
    p["cargo"].remove(d["item"])
    kind, origin = d["item"].split(":", 1)
    s["market"][origin][kind] += 1
    p["cash"] += d["price"] + d["bonus"]
    if d["demand"]:
        s["demand_at"][d["demand"]] = None
    s["turn"]["sell_used"] = True


def _passenger_picked_up(s, d):
    s["pl"][d["player"]]["cargo"].append(d["passenger"])
    s["passenger_at"][d["passenger"]] = None


def _passenger_dropped_off(s, d):
    p = s["pl"][d["player"]]
    p["cargo"].remove(d["passenger"])
    p["cash"] += d["fare"]


def _item_jettisoned(s, d):
    p = s["pl"][d["player"]]
    item = d["item"]
    if item == "shield":
        p["shields"] -= 1
    elif item in data.DRIVES:
        p["drives"].remove(item)
    else:
        p["cargo"].remove(item)
        if ":" in item:
            kind, origin = item.split(":", 1)
            s["market"][origin][kind] += 1
    _refresh_free_space(s, d["player"])


def _turn_ended(s, d):
    s["phase"] = "ended"


def _match_finished(s, d):
    s["phase"] = "finished"
    s["active"] = None
    s["free_space"] = False
    s["outcome"] = {"winners": list(d["winners"]), "reason": d["reason"],
                    "net_worths": dict(d["net_worths"])}


_HANDLERS = {
    "match_started": _match_started, "cards_dealt": _cards_dealt, "turn_started": _turn_started,
    "movement_skipped": _movement_skipped, "direction_declared": _direction_declared,
    "speed_rolled": _speed_rolled, "navigation_assigned": _navigation_assigned, "ship_moved": _ship_moved,
    "hazard_fee_paid": _hazard_fee_paid, "culture_observed": _culture_observed,
    "movement_ended": _movement_ended, "first_contact_made": _first_contact_made,
    "item_bought": _item_bought, "commission_paid": _commission_paid, "item_sold": _item_sold,
    "passenger_picked_up": _passenger_picked_up, "passenger_dropped_off": _passenger_dropped_off,
    "item_jettisoned": _item_jettisoned, "turn_ended": _turn_ended, "match_finished": _match_finished,
}


def evolve(state: dict, ev: dict) -> dict:
    """Apply one event and return the (mutated) state; unknown event types change nothing."""
    handler = _HANDLERS.get(ev.get("type"))
    if handler is not None:
        handler(state, ev.get("data", {}))
    return state

