"""describe_command: one readable order per legal command for the action buttons ("Start the Clay Pits ...")."""
from __future__ import annotations

from domain.engine.text import N_, NT, T, Text, joined, name as printed

from .data import COLOR_INFO, DESIGNS


def order_name(order_id) -> Text:
    """The published name of an order id (`draconias` -> Draconias)."""
    for info in COLOR_INFO.values():
        if info["order"] == order_id:
            return printed(info["order_name"])
    return printed(str(order_id).capitalize())


# What the player(s) a pending step waits for must do, in plain words ("waiting for Bob to <words>").
STEP_WORDS = {
    "setup_discard": N_("put a starting card into the Forum"),
    "choose_action": N_("choose an action"),
    "order_step": N_("carry out the order"),
    "reveal": N_("reveal cards for Draconias"),
    "give_card": N_("give a revealed card"),
    "raid": N_("decide whether to raid a building"),
    "monopoly_bonus": N_("take or decline the Monopoly bonus card"),
    "auto": N_("finish the automatic steps"),
    "finished": N_("finish: the match is over"),
}


def step_words(step) -> str:
    """A pending step (views' `pending.step`) as what the waited-for player does: `order_step` -> carry out
    their order; an unknown step in plain words, never its id."""
    return T(STEP_WORDS[step]) if step in STEP_WORDS else Text(str(step or "act").replace("_", " "))


def colour(color) -> Text:
    """A card colour as a translatable name (`red`)."""
    return printed(color)


def colour_word(color) -> Text:
    """A card colour standing alone, as a list names it (`red`; Russian "красный", not the genitive)."""
    return printed(color, "colour")


def power(building_id) -> Text:
    """What a completed building does for its owner, as printed on its card (empty for an unknown id)."""
    design = DESIGNS.get(str(building_id).rsplit("_", 1)[0])
    return printed(design["text"]) if design else Text("")


def _card(color, count: int = 1) -> Text:
    """`a red card` / `2 red cards`."""
    return NT("a {color} card", "{n} {color} cards", count, color=colour(color))


def _cards(colors) -> Text:
    """A colour multiset in words: `2 red cards and a blue card`."""
    counts: dict = {}
    for c in colors or []:
        counts[c] = counts.get(c, 0) + 1
    return joined([_card(c, n) for c, n in counts.items()], T(" and "), empty=T("no card"))


def building_name(state: dict, building_id) -> Text:
    """A building's printed name; the second copy is told apart when both copies are in play."""
    base, _, copy = str(building_id).rpartition("_")
    design = DESIGNS.get(base)
    if design is None:
        return Text(str(building_id).replace("_", " "))
    twin = f"{base}_{'1' if copy == '2' else '2'}"
    in_play = set(state.get("great_works") or [])
    for sites in (state.get("under_construction") or {}).values():
        in_play.update(sites)
    if twin in in_play and building_id in in_play:
        return T("{building} (copy {copy})", building=printed(design["name"]), copy=copy)
    return printed(design["name"])


def _owner(state: dict, building_id):
    """The player who has `building_id` under construction, or None."""
    return next((p for p, sites in (state.get("under_construction") or {}).items() if building_id in sites), None)


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words, e.g. "Start the Clay Pits, discarding a red card from the Forum"."""
    t = command.get("type")
    p = command.get("payload") or {}
    if t == "discard_to_forum":
        return T("Put {card} into the Forum", card=_card(p.get("color")))
    if t == "issue_order":
        colors = p.get("colors") or []
        if len(colors) > 1:
            return T("Command {order} with {cards} as a joker", order=order_name(p.get("order")), cards=_cards(colors))
        return T("Command {order} with {cards}", order=order_name(p.get("order")), cards=_cards(colors))
    if t == "plot":
        if p.get("copy_from") is None:
            return T("Plot without copying (draw cards)")
        residence = (state.get("residence") or {}).get(p["copy_from"]) or {}
        if residence.get("order"):
            return T("Plot, copying {player}'s {order}", player=name(p["copy_from"]), order=order_name(residence["order"]))
        return T("Plot, copying {player}'s order", player=name(p["copy_from"]))
    if t == "take_from_forum":
        return T("Take {card} from the Forum into your Stock", card=_card(p.get("color")))
    if t == "stock_from_hand":
        return T("Move {card} from your hand to your Stock", card=_card(p.get("color")))
    if t == "reveal":
        return T("Reveal {cards} for Draconias", cards=_cards(p.get("colors")))
    if t == "give_card":
        return T("Give {card}", card=_card(p.get("color")))
    if t == "raid":
        bid = p.get("building_id")
        owner = _owner(state, bid)
        if owner:
            return T("Raid a resource from {player}'s {building}", player=name(owner),
                     building=building_name(state, bid))
        return T("Raid a resource from {building}", building=building_name(state, bid))
    if t == "trade":
        return T("Trade {card} from your Stock into your Operations", card=_card(p.get("color")))
    if t == "start_building":
        return T("Start the {building}, discarding {card} from the Forum",
                 building=building_name(state, p.get("building_id")), card=_card(p.get("discard")))
    if t == "supply_building":
        return T("Supply the {building} from your Stock", building=building_name(state, p.get("building_id")))
    if t == "end_order":
        return T("End this order")
    if t == "monopoly_bonus":
        return T("Take the Monopoly bonus card") if p.get("take") else T("Decline the Monopoly bonus card")
    return Text(str(t).replace("_", " ").capitalize())
