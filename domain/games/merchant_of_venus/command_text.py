"""describe_command: one readable order per legal command for the action buttons ("Buy Bionic Perfume for c80")."""
from __future__ import annotations

from domain.engine import RuleViolation

from . import data
from .state import BASE, player, trade_partner
from .trading import quote

_COMPASS = {"n": "North", "e": "East", "s": "South", "w": "West"}


def square_name(sid) -> str:
    """A square's name a person reads: "W1", "Colony World orbit 1", "North navigation", "West telegate"."""
    sq = data.SQUARES.get(sid)
    if sq is None:
        return str(sid)
    system = data.SYSTEMS[sq["system"]]["name"] if sq.get("system") in data.SYSTEMS else None
    prefix, _, suffix = str(sid).partition(".")
    kind = sq["kind"]
    if kind == "base":
        return "the Galactic Base"
    if kind == "orbital":
        return f"{system} orbit {suffix.lstrip('o')}"
    if kind == "city":
        return f"{system} city"
    if kind == "port":
        return f"{system} spaceport"
    if kind == "nav":
        return f"{system or _COMPASS.get(prefix, prefix.upper())} navigation"
    if kind == "telegate":
        return f"{_COMPASS.get(suffix, suffix.upper())} telegate"
    return str(sid).upper()


def square_label(sid) -> str:
    """The short label drawn on the board next to a square (its system's name is drawn nearby)."""
    sq = data.SQUARES.get(sid)
    if sq is None:
        return str(sid)
    kind = sq["kind"]
    suffix = str(sid).partition(".")[2]
    return {"base": "Base", "orbital": f"orbit {suffix.lstrip('o')}", "city": "city", "port": "port",
            "nav": "nav", "telegate": "gate"}.get(kind, str(sid).upper())


def culture_name(cid) -> str:
    """A culture's name ("Nillis")."""
    return data.CULTURES[cid]["name"] if cid in data.CULTURES else str(cid)


def item_name(item) -> str:
    """A carried item in words: goods by name, passengers by route, drives by colour."""
    item = str(item)
    if item in data.PASSENGERS:
        p = data.PASSENGERS[item]
        return f"the {culture_name(p['origin'])} passenger bound for {culture_name(p['destination'])}"
    if ":" in item and item.split(":", 1)[1] in data.CULTURES:
        kind = "factory goods" if item.startswith("factory:") else "goods"
        return f"{data.token_info(item)['name']} ({culture_name(item.split(':', 1)[1])} {kind})"
    if item.startswith("drive:"):
        return f"the {item.split(':', 1)[1]} drive"
    return f"a {item}" if item == "shield" else item


def _bought_thing(partner, p: dict) -> str:
    item, target, count = p.get("item"), p.get("target"), p.get("count", 1)
    if item in ("good", "factory_good") and partner in data.CULTURES:
        row = data.CULTURES[partner]["goods" if item == "good" else "factory"]
        return f"{count} {row['name']}" if count > 1 else row["name"]
    if item == "factory_deed":
        return f"the {culture_name(partner)} factory deed"
    if item == "spaceport_deed":
        return f"the spaceport deed on {square_name(target)}"
    if item == "ship":
        return f"a {target}"
    if str(item).startswith("drive:"):
        return f"a {str(item).split(':', 1)[1]} drive"
    return f"a {item}"


def _buy(state: dict, pid, p: dict) -> str:
    """"Buy Bionic Perfume for c80 using the Nillis IOU"."""
    square = player(state, pid)["square"] if pid in state.get("pl", {}) else None
    partner = trade_partner(state, square) if square else None
    text = f"Buy {_bought_thing(partner, p)}"
    try:
        q = quote(state, pid, partner, {"item": p.get("item"), "target": p.get("target"),
                                        "count": p.get("count", 1), "use_iou": bool(p.get("use_iou"))})
    except (RuleViolation, KeyError, TypeError):
        q = None
    if q is not None:
        text += f" for c{q['credits']}"
        if q["trade_in"]:
            text += f" (c{q['trade_in']} trade-in)"
    if p.get("use_iou"):
        text += f" using the {culture_name(partner)} IOU" if partner not in (None, BASE) else " using an IOU"
    return text


def _declare(p: dict) -> str:
    text = f"Head out via {square_name(p.get('to'))} for {square_name(p.get('destination'))}"
    return text + (" using your drives" if p.get("use_drive") else "")


def _assign(state: dict, p: dict) -> str:
    dice = (state.get("turn") or {}).get("dice") or []
    i = p.get("die", 0)
    value = dice[i] if isinstance(i, int) and 0 <= i < len(dice) else "?"
    return f"Use die {i + 1 if isinstance(i, int) else i} (a {value}) for navigation"


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words for the player to act (`state["active"]`)."""
    t = command.get("type")
    p = command.get("payload") or {}
    pid = state.get("active")
    if t == "skip_movement":
        return "Skip movement this turn"
    if t == "declare_direction":
        return _declare(p)
    if t == "roll_speed":
        return f"Roll {p.get('dice')} speed dice"
    if t == "assign_navigation":
        return _assign(state, p)
    if t == "move":
        return f"Move to {square_name(p.get('to'))}"
    if t == "end_move":
        return "Stop moving here"
    if t == "observe":
        return "Observe this system's culture secretly"
    if t == "buy":
        return _buy(state, pid, p)
    if t == "sell":
        return f"Sell {item_name(p.get('item'))} for c{data.token_info(p['item'])['sale']}" \
            if str(p.get("item")).split(":", 1)[-1] in data.CULTURES else f"Sell {item_name(p.get('item'))}"
    if t == "pick_up":
        return f"Pick up {item_name(p.get('passenger'))}"
    if t == "drop_off":
        fare = data.PASSENGERS.get(p.get("passenger"), {}).get("fare", "?")
        return f"Drop off {item_name(p.get('passenger'))} for c{fare}"
    if t == "jettison":
        return f"Jettison {item_name(p.get('item'))}"
    if t == "end_turn":
        return "End your turn"
    return str(t).replace("_", " ").capitalize()
