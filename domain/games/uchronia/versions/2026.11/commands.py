"""Validates a command against the rules and returns its events, followed by the automatic ones."""
from __future__ import annotations

import pickle

from marshmallow import ValidationError

from domain.engine.contract import event
from domain.engine.errors import RuleViolation
from domain.engine.text import T, joined, name as printed

from .command_text import colour, colour_word, order_name
from .data import COLOR_ORDER, COLORS, ORDER_COLOR, ORDERS, design_of
from .evolve import evolve
from .flow import settle
from .schemas import COMMAND_SCHEMAS
from .state import count, has_effect, operation_limit, repetitions
from .steps import STEP_COMMANDS, can_start, can_supply, decision, eligible_gifts, raid_targets
from .words import STEPS

_BY_KIND = {
    "setup_discard": ("discard_to_forum",),
    "choose_action": ("issue_order", "plot"),
    "reveal": ("reveal", "end_order"),
    "give_card": ("give_card",),
    "raid": ("raid", "end_order"),
    "monopoly_bonus": ("monopoly_bonus",),
}


def allowed_types(state: dict, kind: str) -> tuple:
    """The command types that fit the pending decision."""
    if kind == "order_step":
        return STEP_COMMANDS[state["order"]["order"]] + ("end_order",)
    return _BY_KIND.get(kind, ())


def _color(value, rule: str = "cards.by-colour") -> str:
    """Return a valid colour id or reject, citing `rule`."""
    if value not in COLORS:
        raise RuleViolation(rule, T("That colour does not exist; the colours are {items}.",
                                    items=joined([colour_word(c) for c in COLORS])))
    return value


def _discard_to_forum(state, player, p):
    color = p["color"]
    if color not in COLORS or state["hands"][player][color] < 1:
        raise RuleViolation("setup.forum-discard", T("You hold no {color} card to put into the Forum.", color=colour(color)))
    return [event("card_discarded_to_forum", player=player, color=color)]


def _issue_order(state, player, p):
    order, colors = p["order"], p["colors"]
    if order not in ORDERS:
        raise RuleViolation("orders.five-types", T("That order does not exist; the orders are {items}.",
                                                   items=joined([order_name(o) for o in ORDERS])))
    for c in colors:
        _color(c)
    if not colors:
        raise RuleViolation("command.single", T("Play 1 card, or 2 cards of the same colour, to issue an order."))
    if len(colors) == 1 and COLOR_ORDER[colors[0]] != order:
        raise RuleViolation("command.single",
                            T("A single {colors} card issues {color_order}, not {order}.", colors=colour(colors[0]),
                              color_order=order_name(COLOR_ORDER[colors[0]]), order=order_name(order)))
    if len(colors) > 2 or (len(colors) == 2 and colors[0] != colors[1]):
        raise RuleViolation("command.joker", T("A joker is exactly 2 cards of the same colour."))
    if state["hands"][player][colors[0]] < len(colors):
        raise RuleViolation("command.cards-in-hand", T("You do not hold {count} {colors} card(s).",
                                                       count=len(colors), colors=colour(colors[0])))
    reps = repetitions(state, player, order, commanded=True)
    return [event("order_issued", player=player, order=order, colors=list(colors), repetitions=reps)]


def _plot(state, player, p):
    target = p["copy_from"]
    if target is None:
        return [event("plotted", player=player, copied_from=None, order=None, repetitions=None)]
    if target == player or target not in state["turn_order"]:
        raise RuleViolation("plot.copy", T("You may copy only the Residence of another player in this match."))
    residence = state["residence"][target]
    if not residence["colors"]:
        raise RuleViolation("plot.copy-needs-operation", T("That player's Residence is empty: there is nothing to copy."))
    order = residence["order"]
    if state["operations"][player][ORDER_COLOR[order]] < 1 and not has_effect(state, player, "free_copy"):
        raise RuleViolation("plot.copy-needs-operation",
                            T("Copying {order} needs at least 1 {order_color} card in your Operations.", order=order_name(order),
                              order_color=colour(ORDER_COLOR[order])))
    reps = repetitions(state, player, order, commanded=False)
    return [event("plotted", player=player, copied_from=target, order=order, repetitions=reps)]


def _take_from_forum(state, player, p):
    color = _color(p["color"], "production.forum-has-color")
    if state["forum"][color] < 1:
        raise RuleViolation("production.forum-has-color", T("The Forum holds no {color} card.", color=colour(color)))
    return [event("card_taken_from_forum", player=player, color=color)]


def _stock_from_hand(state, player, p):
    color = _color(p["color"], "expeditions.hand-has-color")
    if state["hands"][player][color] < 1:
        raise RuleViolation("expeditions.hand-has-color", T("You hold no {color} card.", color=colour(color)))
    return [event("card_stocked_from_hand", player=player, color=color)]


def _reveal(state, player, p):
    colors = p["colors"]
    hand = state["hands"][player]
    if not colors or any(c not in COLORS for c in colors) or any(colors.count(c) > hand[c] for c in set(colors)):
        raise RuleViolation("draconias.reveal", T("Reveal at least 1 card, and only cards that are in your hand."))
    reps = state["order"]["repetitions"]
    if len(colors) > reps:
        raise RuleViolation("draconias.operations", T("You may reveal at most {reps} card(s) for this Draconias.",
                                                      reps=reps))
    ordered = [c for c in COLORS for _ in range(colors.count(c))]
    return [event("cards_revealed", player=player, colors=ordered)]


def _give_card(state, player, p):
    color = p["color"]
    if color not in eligible_gifts(state, player):
        raise RuleViolation("draconias.victim-choice",
                            T("Give 1 card from your hand of a colour the Draconias player revealed."))
    return [event("card_given", **{"from": player, "to": state["order"]["player"], "color": color})]


def _raid(state, player, p):
    for target in raid_targets(state, player):
        if target["building_id"] == p["building_id"]:
            return [event("resource_raided", player=player, from_player=target["player"],
                          building_id=target["building_id"], color=target["color"])]
    raise RuleViolation("draconias.raid", T("Raid an opponent's building under construction that holds a resource."))


def _trade(state, player, p):
    color = _color(p["color"], "trade.stock-has-color")
    if state["stock"][player][color] < 1:
        raise RuleViolation("trade.stock-has-color", T("Your Stock holds no {color} card.", color=colour(color)))
    limit = operation_limit(state, player)
    if count(state["operations"][player]) >= limit:
        raise RuleViolation("operations.limit", T("You already hold {limit} operations, your limit.", limit=limit))
    out = [event("operation_added", player=player, color=color)]
    mine = state["operations"][player][color] + 1
    holder = state["monopolies"][color]
    beats_all = all(mine > state["operations"][o][color] for o in state["turn_order"] if o != player)
    if holder != player and beats_all:
        out.append(event("monopoly_taken", player=player, color=color, from_player=holder))
    return out


def _start_building(state, player, p):
    building_id, discard = p["building_id"], p["discard"]
    broken = can_start(state, player, building_id, discard)
    if broken == "construction.start":
        raise RuleViolation(broken, T("Start a Great Work by discarding a Forum card of its colour."))
    if broken:
        raise RuleViolation(broken, T("You already have a {name}.", name=printed(design_of(building_id)['name'])))
    out = [event("building_started", player=player, building_id=building_id, discarded_color=discard)]
    if state["building_deck"]:
        out.append(event("great_works_refilled", building_id=state["building_deck"][0]))
    return out


def _supply_building(state, player, p):
    building_id = p["building_id"]
    broken = can_supply(state, player, building_id)
    if broken == "construction.supply":
        raise RuleViolation(broken, T("Supply one of your buildings under construction from a Stock card of its colour."))
    if broken:
        raise RuleViolation(broken, T("That building already holds its full cost."))
    design = design_of(building_id)
    placed = state["under_construction"][player][building_id] + 1
    out = [event("resource_placed", player=player, building_id=building_id, color=design["color"], placed=placed)]
    if placed == design["cost"]:
        out.append(event("building_completed", player=player, building_id=building_id, vp=design["cost"]))
    return out


def _end_order(state, player, p):
    order = state["order"]
    if order["order"] == "draconias":
        if order["revealed"] is None:
            raise RuleViolation("orders.optional-steps", T("Reveal at least 1 card before ending the Draconias."))
        unused = max(0, order["repetitions"] - len(order["revealed"]))
    else:
        if order["used"] == 0:
            raise RuleViolation("orders.optional-steps", T("The first step of an order is mandatory."))
        unused = order["repetitions"] - order["used"]
    return [event("order_finished", player=player, order=order["order"], unused=unused)]


def _monopoly_bonus(state, player, p):
    color = state["bonus"]["color"]
    if p["take"] and state["forum"][color] < 1:
        raise RuleViolation("monopoly.build-bonus", T("The Forum holds no {color} card to take.", color=colour(color)))
    return [event("monopoly_bonus_resolved", player=player, color=color, taken=p["take"])]


_HANDLERS = {
    "discard_to_forum": _discard_to_forum,
    "issue_order": _issue_order,
    "plot": _plot,
    "take_from_forum": _take_from_forum,
    "stock_from_hand": _stock_from_hand,
    "reveal": _reveal,
    "give_card": _give_card,
    "raid": _raid,
    "trade": _trade,
    "start_building": _start_building,
    "supply_building": _supply_building,
    "end_order": _end_order,
    "monopoly_bonus": _monopoly_bonus,
}


def _fresh(value):
    """A deep copy of plain JSON data (a pickle round trip: several times faster than copy.deepcopy)."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def decide(state: dict, player: str, command: dict, rng=None) -> list[dict]:
    """Validate `command` from `player`; return its events and the automatic ones that follow.

    Uchronia draws only in setup, so `rng` is never used here."""
    kind, active = decision(state)
    if player not in active:
        raise RuleViolation("turn.not-active", T("It is not your turn to act."))
    ctype = command.get("type") if isinstance(command, dict) else None
    allowed = allowed_types(state, kind)
    if ctype not in allowed:
        moves = joined([T(STEPS[t][0]) for t in allowed], T(" or "))
        raise RuleViolation("turn.wrong-step", T("That move does not fit this moment of the turn; now you may {moves}.",
                                                 moves=moves))
    try:
        payload = COMMAND_SCHEMAS[ctype].load(command.get("payload") or {})
    except ValidationError as err:
        raise RuleViolation("turn.wrong-step", T("The details of that move are not valid for it.")) from err
    events = _HANDLERS[ctype](state, player, payload)
    scratch = _fresh(state)
    for ev in events:
        evolve(scratch, ev)
    return _fresh(events) + settle(scratch)
