"""One readable English sentence per event for the move log (works on redacted events, never raises)."""
from __future__ import annotations

from . import data
from .command_text import item_name, square_name


def _culture(cid) -> str:
    return data.CULTURES[cid]["name"] if cid in data.CULTURES else str(cid)


def _system(sid) -> str:
    return data.SYSTEMS[sid]["name"] if sid in data.SYSTEMS else str(sid)


def _item(d: dict) -> str:
    item = d.get("item")
    if item in ("good", "factory_good"):
        name = d.get("name") or item
        count = d.get("count", 1)
        return f"{count}x {name}" if isinstance(count, int) and count > 1 else str(name)
    if item == "factory_deed":
        return f"the {_culture(d.get('culture'))} factory deed"
    if item == "spaceport_deed":
        return f"the spaceport deed on {square_name(d.get('target'))}"
    if item == "ship":
        return f"a {d.get('target')}"
    if isinstance(item, str) and ":" in item and item.split(":", 1)[1] in data.CULTURES:
        return data.token_info(item)["name"]
    return item_name(item)


def _bought(d, who) -> str:
    text = f"{who} bought {_item(d)} for c{d.get('credits_paid', '?')}"
    if d.get("iou_culture"):
        text += f" using the {_culture(d['iou_culture'])} IOU"
    if d.get("trade_in"):
        text += f" after a c{d['trade_in']} trade-in"
    return text


def _sold(d, who) -> str:
    text = f"{who} sold {_item(d)} for c{d.get('price', '?')}"
    return text + (f" plus a c{d['bonus']} demand bonus" if d.get("bonus") else "")


def _moved(d, who) -> str:
    how = " by telegate" if d.get("jump") else " (skipped by drive)" if d.get("skipped") else ""
    return f"{who} moved from {square_name(d.get('from'))} to {square_name(d.get('to'))}{how}, {d.get('mp_left')} MP left"


def _observed(d, who) -> str:
    seen = f" and found the {_culture(d['culture'])}" if d.get("culture") else ""
    return f"{who} secretly observed {_system(d.get('system'))}{seen}"


def _finished(d, name) -> str:
    winners = ", ".join(name(w) for w in d.get("winners", []))
    return f"the match ended ({str(d.get('reason')).replace('_', ' ')}); winner: {winners}"


_TEXT = {
    "match_started": lambda d, w, n: "the match started; " + ", ".join(
        f"{n(p)} plays the {_culture(r)}" for p, r in d.get("races", {}).items()),
    "cards_dealt": lambda d, w, n: "the First Contact cards were dealt face down",
    "turn_started": lambda d, w, n: f"round {d.get('round')}: {w}'s turn",
    "movement_skipped": lambda d, w, n: f"{w} skipped movement",
    "direction_declared": lambda d, w, n: f"{w} headed via {square_name(d.get('to'))} for {square_name(d.get('destination'))}"
                                          + (" using drives" if d.get("use_drive") else ""),
    "speed_rolled": lambda d, w, n: f"{w} rolled {d.get('dice')} for {d.get('movement_value')} MP",
    "navigation_assigned": lambda d, w, n: f"{w} assigned a {d.get('value')} to navigation",
    "ship_moved": lambda d, w, n: _moved(d, w),
    "hazard_fee_paid": lambda d, w, n: f"{w} paid c{d.get('paid')} to leave the hazard on {square_name(d.get('square'))}",
    "culture_observed": lambda d, w, n: _observed(d, w),
    "movement_ended": lambda d, w, n: f"{w} ended the move on {square_name(d.get('square'))} ({str(d.get('reason')).replace('_', ' ')})",
    "first_contact_made": lambda d, w, n: f"{w} made First Contact with the {_culture(d.get('culture'))} "
                                          f"on {_system(d.get('system'))} (IOU c{d.get('iou')})",
    "item_bought": lambda d, w, n: _bought(d, w),
    "commission_paid": lambda d, w, n: f"{n(d.get('owner'))} received a c{d.get('amount')} {d.get('source')} "
                                       f"commission",
    "item_sold": lambda d, w, n: _sold(d, w),
    "passenger_picked_up": lambda d, w, n: f"{w} picked up {item_name(d.get('passenger'))}",
    "passenger_dropped_off": lambda d, w, n: f"{w} dropped off {item_name(d.get('passenger'))} for "
                                             f"c{d.get('fare')}",
    "item_jettisoned": lambda d, w, n: f"{w} jettisoned {_item(d)}",
    "turn_ended": lambda d, w, n: f"{w} ended the turn with net worth c{d.get('net_worth')}",
    "match_finished": lambda d, w, n: _finished(d, n),
}


def describe(ev: dict, name) -> str:
    """One sentence for the move log, e.g. "ann bought Bionic Perfume for c80"."""
    try:
        d = ev.get("data") or {}
        who = name(d["player"]) if d.get("player") is not None else "someone"
        fn = _TEXT.get(ev.get("type"))
        return fn(d, who, name) if fn else f"{ev.get('type')}"
    except Exception:  # the move log must never break on an odd or redacted event
        return str(ev.get("type", "event")) if isinstance(ev, dict) else "event"
