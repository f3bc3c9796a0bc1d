"""One readable English sentence per event for the move log (works on redacted events, never raises)."""
from __future__ import annotations

from domain.engine.text import N_, T, Text, in_order, joined, name as printed

from . import data
from .command_text import item_name, square_name


def _culture(cid) -> Text:
    return printed(data.CULTURES[cid]["name"]) if cid in data.CULTURES else Text(str(cid))


def _system(sid) -> Text:
    return printed(data.SYSTEMS[sid]["name"]) if sid in data.SYSTEMS else Text(str(sid))


def _item(d: dict) -> Text:
    item = d.get("item")
    if item in ("good", "factory_good"):
        name = d.get("name") or item
        count = d.get("count", 1)
        return T("{count}x {good}", count=count, good=printed(name)) if isinstance(count, int) and count > 1 \
            else printed(name)
    if item == "factory_deed":
        return T("the {culture} factory deed", culture=_culture(d.get("culture")))
    if item == "spaceport_deed":
        return T("the spaceport deed on {square}", square=square_name(d.get("target")))
    if item == "ship":
        return T("a {ship}", ship=printed(d.get("target")))
    if isinstance(item, str) and ":" in item and item.split(":", 1)[1] in data.CULTURES:
        return printed(data.token_info(item)["name"])
    return item_name(item)


def _bought(d, who) -> Text:
    text = T("{player} bought {item} for c{credits}", player=who, item=_item(d), credits=d.get("credits_paid", "?"))
    if d.get("iou_culture"):
        text = T("{bought} using the {culture} IOU", bought=text, culture=_culture(d["iou_culture"]))
    if d.get("trade_in"):
        text = T("{bought} after a c{trade_in} trade-in", bought=text, trade_in=d["trade_in"])
    return text


def _sold(d, who) -> Text:
    text = T("{player} sold {item} for c{price}", player=who, item=_item(d), price=d.get("price", "?"))
    return T("{sold} plus a c{bonus} demand bonus", sold=text, bonus=d["bonus"]) if d.get("bonus") else text


def _moved(d, who) -> Text:
    where = {"player": who, "origin": square_name(d.get("from")), "to": square_name(d.get("to")),
             "mp": d.get("mp_left")}
    if d.get("jump"):
        return T("{player} moved from {origin} to {to} by telegate, {mp} MP left", **where)
    if d.get("skipped"):
        return T("{player} moved from {origin} to {to} (skipped by drive), {mp} MP left", **where)
    return T("{player} moved from {origin} to {to}, {mp} MP left", **where)


def _observed(d, who) -> Text:
    if d.get("culture"):
        return T("{player} secretly observed {system} and found the {culture}", player=who,
                 system=_system(d.get("system")), culture=_culture(d["culture"]))
    return T("{player} secretly observed {system}", player=who, system=_system(d.get("system")))


REASONS = {"round_limit": N_("round limit"), "target": N_("target"), "destination": N_("destination"),
           "mp_exhausted": N_("mp exhausted"), "blocked": N_("blocked"), "stopped": N_("stopped")}


def _reason(reason) -> Text:
    """A reason id as the log says it (`round_limit` -> round limit)."""
    return T(REASONS[reason]) if reason in REASONS else Text(str(reason).replace("_", " "))


def _finished(d, name) -> Text:
    winners = joined([name(w) for w in d.get("winners", [])])
    return T("the match ended ({reason}); winner: {winners}", reason=_reason(d.get("reason")), winners=winners)


def _started(d, n) -> Text:
    plays = [T("{player} plays the {culture}", player=n(p), culture=_culture(r)) for p, r in in_order(d.get("races"))]
    return T("the match started; {plays}", plays=joined(plays))


def _declared(d, w) -> Text:
    where = {"player": w, "via": square_name(d.get("to")), "destination": square_name(d.get("destination"))}
    if d.get("use_drive"):
        return T("{player} headed via {via} for {destination} using drives", **where)
    return T("{player} headed via {via} for {destination}", **where)


_TEXT = {
    "match_started": lambda d, w, n: _started(d, n),
    "cards_dealt": lambda d, w, n: T("the First Contact cards were dealt face down"),
    "turn_started": lambda d, w, n: T("round {round}: {player}'s turn", round=d.get("round"), player=w),
    "movement_skipped": lambda d, w, n: T("{player} skipped movement", player=w),
    "direction_declared": lambda d, w, n: _declared(d, w),
    "speed_rolled": lambda d, w, n: T("{player} rolled {dice} for {mp} MP", player=w, dice=d.get("dice"),
                                      mp=d.get("movement_value")),
    "navigation_assigned": lambda d, w, n: T("{player} assigned a {value} to navigation", player=w,
                                             value=d.get("value")),
    "ship_moved": lambda d, w, n: _moved(d, w),
    "hazard_fee_paid": lambda d, w, n: T("{player} paid c{paid} to leave the hazard on {square}", player=w,
                                         paid=d.get("paid"), square=square_name(d.get("square"))),
    "culture_observed": lambda d, w, n: _observed(d, w),
    "movement_ended": lambda d, w, n: T("{player} ended the move on {square} ({reason})", player=w,
                                        square=square_name(d.get("square")), reason=_reason(d.get("reason"))),
    "first_contact_made": lambda d, w, n: T("{player} made First Contact with the {culture} on {system} (IOU c{iou})",
                                            player=w, culture=_culture(d.get("culture")),
                                            system=_system(d.get("system")), iou=d.get("iou")),
    "item_bought": lambda d, w, n: _bought(d, w),
    "commission_paid": lambda d, w, n: T("{owner} received a c{amount} {source} commission", owner=n(d.get("owner")),
                                         amount=d.get("amount"), source=printed(d.get("source"))),
    "item_sold": lambda d, w, n: _sold(d, w),
    "passenger_picked_up": lambda d, w, n: T("{player} picked up {passenger}", player=w,
                                             passenger=item_name(d.get("passenger"))),
    "passenger_dropped_off": lambda d, w, n: T("{player} dropped off {passenger} for c{fare}", player=w,
                                               passenger=item_name(d.get("passenger")), fare=d.get("fare")),
    "item_jettisoned": lambda d, w, n: T("{player} jettisoned {item}", player=w, item=_item(d)),
    "turn_ended": lambda d, w, n: T("{player} ended the turn with net worth c{worth}", player=w,
                                    worth=d.get("net_worth")),
    "match_finished": lambda d, w, n: _finished(d, n),
}


def describe(ev: dict, name) -> str:
    """One sentence for the move log, e.g. "ann bought Bionic Perfume for c80"."""
    try:
        d = ev.get("data") or {}
        who = name(d["player"]) if d.get("player") is not None else T("someone")
        fn = _TEXT.get(ev.get("type"))
        return fn(d, who, name) if fn else Text(f"{ev.get('type')}")
    except Exception:  # the move log must never break on an odd or redacted event
        return Text(str(ev.get("type", "event")) if isinstance(ev, dict) else "event")
