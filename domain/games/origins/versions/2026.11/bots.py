"""What bots need of Origins (domain/engine/contract.py, Bots): a score for search, how hidden zodiac cards and
the tile stack are re-drawn, and its search's exploration constant."""
from __future__ import annotations

import json

from domain.engine import Bots
from domain.engine.contract import shuffled

from .scoring import score_player

RESOURCE = 0.3  # stone, food and wisdom pay for the next visits and buildings
WAR = 0.15  # the war track breaks ties, orders the rounds and pays attacks
# outcomes sit close together (the citizen dice) so MCTS keeps its visits on its best candidates:
# measured over the same 100 matches against greedy, MCTS won 55 at the default 0.7 and 60 at 0.25
EXPLORATION = 0.25


def score(state: dict, p: str) -> float:
    """The final-scoring total as if the game ended now, then a little for resources and the war track."""
    me = state["players"][p]
    return score_player(me)["total"] + RESOURCE * sum(me["resources"].values()) + WAR * me["war"]


def seats(state: dict) -> list:
    """Every seat, in seating order."""
    return list(state["seats"])



def resample(state: dict, player: str, rng) -> dict:
    """Other players' zodiac cards and each temple's deck are one pool per temple; the tile stack's order."""
    s = json.loads(json.dumps(state))
    for temple in sorted(s["zodiac_decks"]):
        held = [z for pid, p in sorted(s["players"].items()) if pid != player
                for z in p["zodiac"] if z["temple"] == temple]
        pool = shuffled(s["zodiac_decks"][temple] + [z["card"] for z in held], rng)
        for z in held:
            z["card"] = pool.pop()
        s["zodiac_decks"][temple] = sorted(pool)
    s["stack"] = shuffled(s["stack"], rng)
    return s


BOTS = Bots(score=score, seats=seats, scale=8.0, resample=resample, exploration=EXPLORATION)
