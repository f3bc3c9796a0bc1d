"""describe_command: one readable order per legal command for the action buttons ("Buy Bionic Perfume for c80")."""
from __future__ import annotations

from domain.engine import RuleViolation
from domain.engine.text import T, Text, name as printed

from . import data
from .names import culture_name, item_name, square_name
from .state import BASE, player, trade_partner
from .trading import quote


def square_label(sid) -> str:
    """The short label drawn on the board next to a square (its system's name is drawn nearby)."""
    sq = data.SQUARES.get(sid)
    if sq is None:
        return str(sid)
    kind = sq["kind"]
    suffix = str(sid).partition(".")[2]
    return {"base": "Base", "orbital": f"orbit {suffix.lstrip('o')}", "city": "city", "port": "port",
            "nav": "nav", "telegate": "gate"}.get(kind, str(sid).upper())


def _bought_thing(partner, p: dict) -> Text:
    item, target, count = p.get("item"), p.get("target"), p.get("count", 1)
    if item in ("good", "factory_good") and partner in data.CULTURES:
        row = data.CULTURES[partner]["goods" if item == "good" else "factory"]
        return T("{count} {good}", count=count, good=printed(row["name"])) if count > 1 else printed(row["name"])
    if item == "factory_deed":
        return T("the {culture} factory deed", culture=culture_name(partner))
    if item == "spaceport_deed":
        return T("the spaceport deed on {square}", square=square_name(target))
    if item == "ship":
        return T("a {ship}", ship=printed(target))
    if str(item).startswith("drive:"):
        return T("a {colour} drive", colour=printed(str(item).split(":", 1)[1], "drive"))
    return T("a {item}", item=printed(item))


def _buy(state: dict, pid, p: dict) -> Text:
    """"Buy Bionic Perfume for c80 using the Nillis IOU"."""
    square = player(state, pid)["square"] if pid in state.get("pl", {}) else None
    partner = trade_partner(state, square) if square else None
    text = T("Buy {thing}", thing=_bought_thing(partner, p))
    try:
        q = quote(state, pid, partner, {"item": p.get("item"), "target": p.get("target"),
                                        "count": p.get("count", 1), "use_iou": bool(p.get("use_iou"))})
    except (RuleViolation, KeyError, TypeError):
        q = None
    if q is not None:
        if q["trade_in"]:
            text = T("{buy} for c{credits} (c{trade_in} trade-in)", buy=text, credits=q["credits"],
                     trade_in=q["trade_in"])
        else:
            text = T("{buy} for c{credits}", buy=text, credits=q["credits"])
    if p.get("use_iou"):
        if partner not in (None, BASE):
            return T("{buy} using the {culture} IOU", buy=text, culture=culture_name(partner))
        return T("{buy} using an IOU", buy=text)
    return text


def _declare(p: dict) -> Text:
    where = {"via": square_name(p.get("to")), "destination": square_name(p.get("destination"))}
    if p.get("use_drive"):
        return T("Head out via {via} for {destination} using your drives", **where)
    return T("Head out via {via} for {destination}", **where)


def _assign(state: dict, p: dict) -> Text:
    dice = (state.get("turn") or {}).get("dice") or []
    i = p.get("die", 0)
    value = dice[i] if isinstance(i, int) and 0 <= i < len(dice) else "?"
    return T("Use die {die} (a {value}) for navigation", die=i + 1 if isinstance(i, int) else i, value=value)


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words for the player to act (`state["active"]`)."""
    t = command.get("type")
    p = command.get("payload") or {}
    pid = state.get("active")
    if t == "skip_movement":
        return T("Skip movement this turn")
    if t == "declare_direction":
        return _declare(p)
    if t == "roll_speed":
        return T("Roll {dice} speed dice", dice=p.get("dice"))
    if t == "assign_navigation":
        return _assign(state, p)
    if t == "move":
        return T("Move to {square}", square=square_name(p.get("to")))
    if t == "end_move":
        return T("Stop moving here")
    if t == "observe":
        return T("Observe this system's culture secretly")
    if t == "buy":
        return _buy(state, pid, p)
    if t == "sell":
        if str(p.get("item")).split(":", 1)[-1] in data.CULTURES:
            return T("Sell {item} for c{price}", item=item_name(p.get("item")), price=data.token_info(p["item"])["sale"])
        return T("Sell {item}", item=item_name(p.get("item")))
    if t == "pick_up":
        return T("Pick up {passenger}", passenger=item_name(p.get("passenger")))
    if t == "drop_off":
        fare = data.PASSENGERS.get(p.get("passenger"), {}).get("fare", "?")
        return T("Drop off {passenger} for c{fare}", passenger=item_name(p.get("passenger")), fare=fare)
    if t == "jettison":
        return T("Jettison {item}", item=item_name(p.get("item")))
    if t == "end_turn":
        return T("End your turn")
    return Text(str(t).replace("_", " ").capitalize())
