"""Passing, the end of a round, the next round's order and orator refills, and the game's end."""
from __future__ import annotations

from domain.engine import event

from .common import next_player, random_colour, roll_die, rotated
from .scoring import score_player, winners


def first_player(state: dict) -> str:
    """Highest war position; ties keep the previous round's order (round.first-player)."""
    order = state["order"]
    best = max(state["players"][pid]["war"] for pid in order)
    return next(pid for pid in order if state["players"][pid]["war"] == best)


def game_over(state: dict) -> bool:
    """end.trigger: all district-card gold taken, or the last round played."""
    return sum(c["gold"] for c in state["district_cards"]) == 0 or state["round"] >= state["max_rounds"]


def next_round_event(state: dict, rng) -> dict:
    """round_started for the next round, refilling empty orator slots (round.orator-refill)."""
    refills = []
    counter = state["next_die"]
    for i, die in enumerate(state["orator_row"]):
        if die is None:
            refills.append({"slot": i + 1, "die": roll_die(rng, f"d{counter}", random_colour(rng))})
            counter += 1
    return event("round_started", round=state["round"] + 1,
                 order=rotated(state["seats"], first_player(state)), orator_refills=refills)


def game_ended_event(state: dict) -> dict:
    """game_ended with every score, the winners and every player's zodiac cards."""
    scores = {pid: score_player(state["players"][pid]) for pid in state["seats"]}
    return event("game_ended", scores=scores, winners=winners(state, scores),
                 zodiac={pid: [z["card"] for z in state["players"][pid]["zodiac"]] for pid in state["seats"]})


def pass_events(state: dict, pid: str, rng) -> list:
    """player_passed, then turn_ended, or round_ended followed by round_started or game_ended."""
    events = [event("player_passed", player=pid)]
    nxt = next_player(state, also_passed=pid)
    if nxt is not None:
        return events + [event("turn_ended", player=pid, next=nxt)]
    events.append(event("round_ended", round=state["round"]))
    events.append(game_ended_event(state) if game_over(state) else next_round_event(state, rng))
    return events
