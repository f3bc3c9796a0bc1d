"""describe_command: one readable order per legal command for the action buttons ("Start the Clay Pits ...")."""
from __future__ import annotations

from .data import COLOR_INFO, DESIGNS


def _order(order_id) -> str:
    """The published name of an order id (`draconias` -> Draconias)."""
    for info in COLOR_INFO.values():
        if info["order"] == order_id:
            return info["order_name"]
    return str(order_id).capitalize()


# What the player(s) a pending step waits for must do, in plain words ("waiting for Bob to <words>").
STEP_WORDS = {
    "setup_discard": "put a starting card into the Forum",
    "choose_action": "choose an action",
    "order_step": "carry out their order",
    "reveal": "reveal cards for Draconias",
    "give_card": "give a revealed card",
    "raid": "decide whether to raid a building",
    "monopoly_bonus": "take or decline the Monopoly bonus card",
    "auto": "finish the automatic steps",
    "finished": "finish: the match is over",
}


def step_words(step) -> str:
    """A pending step (views' `pending.step`) as what the waited-for player does: `order_step` -> carry out
    their order; an unknown step in plain words, never its id."""
    return STEP_WORDS.get(step) or str(step or "act").replace("_", " ")


def _card(color, count: int = 1) -> str:
    """`a red card` / `2 red cards`."""
    return f"a {color} card" if count == 1 else f"{count} {color} cards"


def _cards(colors) -> str:
    """A colour multiset in words: `2 red cards and a blue card`."""
    counts: dict = {}
    for c in colors or []:
        counts[c] = counts.get(c, 0) + 1
    parts = [_card(c, n) for c, n in counts.items()]
    return " and ".join(parts) if parts else "no card"


def building_name(state: dict, building_id) -> str:
    """A building's printed name; the second copy is told apart when both copies are in play."""
    base, _, copy = str(building_id).rpartition("_")
    design = DESIGNS.get(base)
    if design is None:
        return str(building_id).replace("_", " ")
    twin = f"{base}_{'1' if copy == '2' else '2'}"
    in_play = set(state.get("great_works") or [])
    for sites in (state.get("under_construction") or {}).values():
        in_play.update(sites)
    return f"{design['name']} (copy {copy})" if twin in in_play and building_id in in_play else design["name"]


def _owner(state: dict, building_id):
    """The player who has `building_id` under construction, or None."""
    return next((p for p, sites in (state.get("under_construction") or {}).items() if building_id in sites), None)


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words, e.g. "Start the Clay Pits, discarding a red card from the Forum"."""
    t = command.get("type")
    p = command.get("payload") or {}
    if t == "discard_to_forum":
        return f"Put {_card(p.get('color'))} into the Forum"
    if t == "issue_order":
        colors = p.get("colors") or []
        how = "as a joker " if len(colors) > 1 else ""
        return f"Command {_order(p.get('order'))} with {_cards(colors)} {how}".strip()
    if t == "plot":
        if p.get("copy_from") is None:
            return "Plot without copying (draw cards)"
        residence = (state.get("residence") or {}).get(p["copy_from"]) or {}
        order = f" {_order(residence['order'])}" if residence.get("order") else ""
        return f"Plot, copying {name(p['copy_from'])}'s{order or ' order'}"
    if t == "take_from_forum":
        return f"Take {_card(p.get('color'))} from the Forum into your Stock"
    if t == "stock_from_hand":
        return f"Move {_card(p.get('color'))} from your hand to your Stock"
    if t == "reveal":
        return f"Reveal {_cards(p.get('colors'))} for Draconias"
    if t == "give_card":
        return f"Give {_card(p.get('color'))}"
    if t == "raid":
        bid = p.get("building_id")
        owner = _owner(state, bid)
        whose = f"{name(owner)}'s " if owner else ""
        return f"Raid a resource from {whose}{building_name(state, bid)}"
    if t == "trade":
        return f"Trade {_card(p.get('color'))} from your Stock into your Operations"
    if t == "start_building":
        return (f"Start the {building_name(state, p.get('building_id'))}, discarding "
                f"{_card(p.get('discard'))} from the Forum")
    if t == "supply_building":
        return f"Supply the {building_name(state, p.get('building_id'))} from your Stock"
    if t == "end_order":
        return "End this order"
    if t == "monopoly_bonus":
        return "Take the Monopoly bonus card" if p.get("take") else "Decline the Monopoly bonus card"
    return str(t).replace("_", " ").capitalize()
