"""Applies one event to the state; total and deterministic, never draws."""
from __future__ import annotations

from .data import design_of
from .state import left_of


def _add(counts: dict, color: str, n: int = 1) -> None:
    """Add n cards of a colour to a count map."""
    counts[color] = counts.get(color, 0) + n


def _take(counts: dict, color: str, n: int = 1) -> None:
    """Remove up to n cards of a colour from a count map (never below zero)."""
    counts[color] = max(0, counts.get(color, 0) - n)


def _use_step(state: dict) -> None:
    """Count one step of the running order."""
    if state["order"] is not None:
        state["order"]["used"] += 1


def _match_started(state, d):
    state["turn_order"] = list(d["turn_order"])
    state["first_player"] = d["first_player"]
    state["vp_target"] = d["vp_target"]
    state["max_rounds"] = d["max_rounds"]
    state["phase"] = "setup_discard"
    state["setup_pending"] = list(d["turn_order"])


def _decks_shuffled(state, d):
    state["draw_pile"] = list(d["resource_order"])
    state["building_deck"] = list(d["building_order"])


def _great_works_revealed(state, d):
    state["great_works"] = list(d["building_ids"])
    state["building_deck"] = [b for b in state["building_deck"] if b not in d["building_ids"]]


def _cards_into_hand(state, d):
    for color in d.get("colors", []):
        _add(state["hands"][d["player"]], color)
    state["draw_pile"] = state["draw_pile"][d["count"]:]


def _cards_drawn(state, d):
    _cards_into_hand(state, d)
    state["step"] = "turn_end"


def _card_discarded_to_forum(state, d):
    _take(state["hands"][d["player"]], d["color"])
    _add(state["forum"], d["color"])
    if d["player"] in state["setup_pending"]:
        state["setup_pending"].remove(d["player"])


def _turn_started(state, d):
    state["phase"] = "turn"
    state["current"] = d["player"]
    state["round"] = d["round"]
    state["step"] = "choose_action"
    state["order"] = None
    state["plotting"] = False
    state["bonus"] = None


def _residence_cleared(state, d):
    for color in d["colors"]:
        _add(state["forum"], color)
    state["residence"][d["player"]] = {"colors": [], "order": None}


def _new_order(state, player, order, reps, source, copied_from=None):
    state["order"] = {"player": player, "order": order, "repetitions": reps, "used": 0, "source": source,
                      "copied_from": copied_from, "revealed": None, "victims": [], "seized": False,
                      "raided": False}
    state["step"] = "order"


def _order_issued(state, d):
    player = d["player"]
    for color in d["colors"]:
        _take(state["hands"][player], color)
    state["residence"][player] = {"colors": list(d["colors"]), "order": d["order"]}
    _new_order(state, player, d["order"], d["repetitions"], "command")


def _plotted(state, d):
    state["plotting"] = True
    if d.get("order"):
        _new_order(state, d["player"], d["order"], d["repetitions"], "copy", d.get("copied_from"))
    else:
        state["step"] = "draw"


def _card_taken_from_forum(state, d):
    _take(state["forum"], d["color"])
    _add(state["stock"][d["player"]], d["color"])
    _use_step(state)


def _card_stocked_from_hand(state, d):
    _take(state["hands"][d["player"]], d["color"])
    _add(state["stock"][d["player"]], d["color"])
    _use_step(state)


def _cards_revealed(state, d):
    order = state["order"]
    order["revealed"] = list(d["colors"])
    order["victims"] = [p for p in left_of(state, d["player"]) if state["residence"][p]["colors"]]


def _pop_victim(state, player):
    victims = state["order"]["victims"]
    if player in victims:
        victims.remove(player)


def _card_given(state, d):
    _take(state["hands"][d["from"]], d["color"])
    _add(state["stock"][d["to"]], d["color"])
    _pop_victim(state, d["from"])


def _demand_unmet(state, d):
    _pop_victim(state, d["player"])


def _forum_cards_seized(state, d):
    for color in d["colors"]:
        _take(state["forum"], color)
        _add(state["stock"][d["player"]], color)
    state["order"]["seized"] = True


def _resource_raided(state, d):
    site = state["under_construction"][d["from_player"]]
    if d["building_id"] in site:
        site[d["building_id"]] = max(0, site[d["building_id"]] - 1)
    _add(state["stock"][d["player"]], d["color"])
    state["order"]["raided"] = True


def _operation_added(state, d):
    _take(state["stock"][d["player"]], d["color"])
    _add(state["operations"][d["player"]], d["color"])
    _use_step(state)


def _monopoly_taken(state, d):
    state["monopolies"][d["color"]] = d["player"]


def _building_started(state, d):
    if d["building_id"] in state["great_works"]:
        state["great_works"].remove(d["building_id"])
    _take(state["forum"], d["discarded_color"])
    _add(state["discard"], d["discarded_color"])
    state["under_construction"][d["player"]][d["building_id"]] = 0
    _use_step(state)


def _great_works_refilled(state, d):
    state["great_works"].append(d["building_id"])
    if d["building_id"] in state["building_deck"]:
        state["building_deck"].remove(d["building_id"])


def _resource_placed(state, d):
    _take(state["stock"][d["player"]], d["color"])
    state["under_construction"][d["player"]][d["building_id"]] = d["placed"]
    _use_step(state)


def _building_completed(state, d):
    state["under_construction"][d["player"]].pop(d["building_id"], None)
    state["completed"][d["player"]].append(d["building_id"])
    color = design_of(d["building_id"])["color"]
    holder = state["monopolies"][color]
    if holder is not None and state["forum"][color] > 0:
        state["bonus"] = {"player": holder, "color": color}


def _monopoly_bonus_resolved(state, d):
    if d["taken"]:
        _take(state["forum"], d["color"])
        _add(state["hands"][d["player"]], d["color"])
    state["bonus"] = None


def _order_finished(state, d):
    state["order"] = None
    state["step"] = "draw" if state["plotting"] else "turn_end"


def _end_triggered(state, d):
    state["end_triggered"] = {"reason": d["reason"], "player": d["player"]}


def _turn_ended(state, d):
    state["step"] = "between"


def _match_finished(state, d):
    state["phase"] = "finished"
    state["step"] = None
    state["finished"] = {"reason": d["reason"], "scores": d["scores"], "winners": list(d["winners"])}


_HANDLERS = {
    "match_started": _match_started,
    "decks_shuffled": _decks_shuffled,
    "great_works_revealed": _great_works_revealed,
    "cards_dealt": _cards_into_hand,
    "card_discarded_to_forum": _card_discarded_to_forum,
    "turn_started": _turn_started,
    "residence_cleared": _residence_cleared,
    "order_issued": _order_issued,
    "plotted": _plotted,
    "card_taken_from_forum": _card_taken_from_forum,
    "card_stocked_from_hand": _card_stocked_from_hand,
    "cards_revealed": _cards_revealed,
    "card_given": _card_given,
    "demand_unmet": _demand_unmet,
    "forum_cards_seized": _forum_cards_seized,
    "resource_raided": _resource_raided,
    "operation_added": _operation_added,
    "monopoly_taken": _monopoly_taken,
    "building_started": _building_started,
    "great_works_refilled": _great_works_refilled,
    "resource_placed": _resource_placed,
    "building_completed": _building_completed,
    "monopoly_bonus_resolved": _monopoly_bonus_resolved,
    "order_finished": _order_finished,
    "cards_drawn": _cards_drawn,
    "end_triggered": _end_triggered,
    "turn_ended": _turn_ended,
    "match_finished": _match_finished,
}


def evolve(state: dict, event: dict) -> dict:
    """Apply one event to `state` (mutated and returned); unknown event types leave it unchanged."""
    handler = _HANDLERS.get(event.get("type"))
    if handler is not None:
        handler(state, event.get("data", {}))
    return state
