"""Automatic progress: the events that follow by themselves until someone must decide."""
from __future__ import annotations

from domain.engine.contract import event

from .data import DATA
from .evolve import evolve
from .state import count, has_effect, scores, vp, winners
from .steps import DRACONIAS, decision, eligible_gifts, raid_targets, step_options


def start_turn(state: dict, player: str, round_no: int) -> list[dict]:
    """turn_started, then residence_cleared if the Residence holds cards (turn.clear-residence)."""
    out = [event("turn_started", player=player, round=round_no)]
    colors = state["residence"][player]["colors"]
    if colors:
        out.append(event("residence_cleared", player=player, colors=list(colors)))
    return out


def _vp_reacher(state: dict) -> str | None:
    """The player who reached the VP target (current player first), or None (end.vp-target)."""
    order = state["turn_order"]
    current = state["current"]
    candidates = ([current] if current in order else []) + [p for p in order if p != current]
    for p in candidates:
        if vp(state, p) >= state["vp_target"]:
            return p
    return None


def _order_auto(state: dict) -> list[dict]:
    """Automatic events of the running order, or [] when its player or a victim must decide."""
    order = state["order"]
    player = order["player"]
    reps = order["repetitions"]
    finished = event("order_finished", player=player, order=order["order"], unused=0)
    if order["order"] == DRACONIAS:
        if order["revealed"] is None:
            if count(state["hands"][player]) == 0:
                finished["data"]["unused"] = reps
                return [finished]
            return []
        if order["victims"]:
            victim = order["victims"][0]
            gifts = eligible_gifts(state, victim)
            if not gifts:
                return [event("demand_unmet", player=victim)]
            if len(gifts) == 1:
                return [event("card_given", **{"from": victim, "to": player, "color": gifts[0]})]
            return []
        if not order["seized"]:
            forum = dict(state["forum"])
            seized = []
            for color in order["revealed"]:
                if forum[color] > 0:
                    forum[color] -= 1
                    seized.append(color)
            return [event("forum_cards_seized", player=player, colors=seized)]
        if not order["raided"] and raid_targets(state, player):
            return []
        finished["data"]["unused"] = max(0, reps - len(order["revealed"]))
        return [finished]
    if order["used"] >= reps:
        return [finished]
    if order["used"] == 0 and not step_options(state, player):
        finished["data"]["unused"] = reps
        return [finished]
    return []


def _draw(state: dict) -> list[dict]:
    """The Plot draw (plot.draw) and, if the pile runs out, the end trigger (end.draw-pile)."""
    player = state["current"]
    held = count(state["hands"][player])
    wanted = DATA["plot_refill_to"] - held if held < DATA["plot_refill_to"] else 1
    if has_effect(state, player, "extra_draw"):
        wanted += 1
    colors = state["draw_pile"][:wanted]
    out = [event("cards_drawn", player=player, count=len(colors), colors=list(colors))]
    if len(state["draw_pile"]) <= wanted and state["end_triggered"] is None:
        out.append(event("end_triggered", reason="draw_pile_empty", player=player))
    return out


def _next_turn(state: dict) -> list[dict]:
    """The next player's turn, or match_finished after the last turn of a final round (end.*)."""
    order = state["turn_order"]
    i = order.index(state["current"])
    if i < len(order) - 1:
        return start_turn(state, order[i + 1], state["round"])
    reason = None
    if state["end_triggered"] is not None:
        reason = state["end_triggered"]["reason"]
    elif state["round"] >= state["max_rounds"]:
        reason = "max_rounds"
    if reason is None:
        return start_turn(state, order[0], state["round"] + 1)
    table = scores(state)
    return [event("match_finished", reason=reason, scores=table, winners=winners(table, order))]


def auto_events(state: dict) -> list[dict]:
    """The next batch of automatic events, or [] when the match waits for a decision or is over."""
    phase = state["phase"]
    if phase == "finished":
        return []
    if phase == "setup_discard":
        if state["setup_pending"]:
            return []
        return start_turn(state, state["first_player"], 1)
    if phase != "turn":
        return []
    if state["end_triggered"] is None:
        reacher = _vp_reacher(state)
        if reacher is not None:
            return [event("end_triggered", reason="vp_target", player=reacher)]
    kind, _ = decision(state)
    if kind not in ("auto", "order_step", "reveal"):
        return []
    step = state["step"]
    if step == "order":
        return _order_auto(state)
    if step == "draw":
        return _draw(state)
    if step == "turn_end":
        return [event("turn_ended", player=state["current"])]
    if step == "between":
        return _next_turn(state)
    return []


def settle(state: dict) -> list[dict]:
    """Apply automatic events to `state` (a scratch copy, mutated) until a decision is due; return them."""
    out: list[dict] = []
    batch = auto_events(state)
    while batch:
        for ev in batch:
            evolve(state, ev)
            out.append(ev)
        batch = auto_events(state)
    return out


