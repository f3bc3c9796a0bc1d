"""What bots need of Uchronia (domain/engine/contract.py, Bots): a score for search and how hidden cards are re-drawn."""
from __future__ import annotations

import json

from domain.engine import Bots
from domain.engine.contract import shuffled

from .data import design_of
from .state import count, vp


def progress(state: dict, p: str) -> float:
    """What the seat's buildings are worth before they score: a started one, each resource placed, each
    card in stock that one still needs, and (once completed) the tiebreak and the raised operation limit."""
    value = 0.5 * len(state["completed"][p])
    needed: dict = {}
    for bid, placed in state["under_construction"][p].items():
        design = design_of(bid)
        value += 0.3 + 0.7 * placed
        needed[design["color"]] = needed.get(design["color"], 0) + design["cost"] - placed
    value += 0.3 * sum(min(n, state["stock"][p].get(color, 0)) for color, n in needed.items())
    return value


def score(state: dict, p: str) -> float:
    """VP, then a little for cards in stock and operations (what buildings and orders are made of), then
    the progress of the seat's buildings (without it neither bot ever builds and most games end level)."""
    return (vp(state, p) + 0.2 * count(state["stock"][p])
            + 0.3 * count(state["operations"][p]) + progress(state, p))


def seats(state: dict) -> list:
    """Every seat, in turn order."""
    return list(state["turn_order"])



def resample(state: dict, player: str, rng) -> dict:
    """Other players' hands and the draw pile are one pool of unseen cards; the building deck's order."""
    s = json.loads(json.dumps(state))
    others = [p for p in s["turn_order"] if p != player]
    unseen = list(s["draw_pile"])
    for p in others:
        unseen += [color for color, n in sorted(s["hands"][p].items()) for _ in range(n)]
    pool = shuffled(unseen, rng)
    for p in others:
        size = sum(s["hands"][p].values())
        hand = {color: 0 for color in s["hands"][p]}
        for color in pool[:size]:
            hand[color] += 1
        s["hands"][p], pool = hand, pool[size:]
    s["draw_pile"] = pool
    s["building_deck"] = shuffled(s["building_deck"], rng)
    return s


BOTS = Bots(score=score, seats=seats, scale=3.0, resample=resample)
