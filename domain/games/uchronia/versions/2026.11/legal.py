"""Enumerates every concrete command a player may send now (complete and sound)."""
from __future__ import annotations

from domain.engine.contract import command

from .data import COLOR_ORDER, COLORS, ORDER_COLOR, ORDERS
from .state import has_effect
from .steps import decision, eligible_gifts, raid_targets, step_options


def _choose_action(state: dict, player: str) -> list[dict]:
    """issue_order singles and jokers, then plot (null first, then each copyable Residence)."""
    hand = state["hands"][player]
    out = [command("issue_order", order=COLOR_ORDER[c], colors=[c]) for c in COLORS if hand[c] >= 1]
    out += [command("issue_order", order=o, colors=[c, c]) for c in COLORS if hand[c] >= 2 for o in ORDERS]
    out.append(command("plot", copy_from=None))
    free = has_effect(state, player, "free_copy")
    for other in state["turn_order"]:
        residence = state["residence"][other]
        if other == player or not residence["colors"]:
            continue
        if free or state["operations"][player][ORDER_COLOR[residence["order"]]] >= 1:
            out.append(command("plot", copy_from=other))
    return out


def legal_commands(state: dict, player: str) -> list[dict]:
    """Every command `player` may send in the current state; [] when not active."""
    kind, active = decision(state)
    if player not in active:
        return []
    if kind == "setup_discard":
        return [command("discard_to_forum", color=c) for c in COLORS if state["hands"][player][c] >= 1]
    if kind == "choose_action":
        return _choose_action(state, player)
    if kind == "monopoly_bonus":
        return [command("monopoly_bonus", take=True), command("monopoly_bonus", take=False)]
    if kind == "give_card":
        return [command("give_card", color=c) for c in eligible_gifts(state, player)]
    if kind == "raid":
        return [command("raid", building_id=t["building_id"]) for t in raid_targets(state, player)] + \
            [command("end_order")]
    out = step_options(state, player)
    if kind == "order_step" and state["order"]["used"] >= 1:
        out.append(command("end_order"))
    return out
