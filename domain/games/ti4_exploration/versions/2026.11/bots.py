"""What bots need of the TI4 exploration skirmish (domain/engine/contract.py, Bots): a score for search and how
the hidden deck orders are re-drawn."""
from __future__ import annotations

import json

from domain.engine import Bots
from domain.engine.contract import shuffled

from .board import score as live_score


def score(state: dict, p: str) -> float:
    """The live VP total, then a little for trade goods, commodities and command tokens (what pays for
    the next turns), less for having passed while others still play."""
    me = state["players"][p]
    return (live_score(state, p)["total"] + 0.1 * (me["trade_goods"] + me["commodities"])
            + 0.1 * me["command_tokens"] - 0.3 * bool(me["passed"]))


def seats(state: dict) -> list:
    """Every seat, in turn order."""
    return list(state["order"])



def resample(state: dict, player: str, rng) -> dict:
    """Only the orders of the draw piles and the relic deck are hidden."""
    s = json.loads(json.dumps(state))
    for deck in s.get("decks", {}).values():
        deck["draw"] = shuffled(deck["draw"], rng)
    s["relic_deck"] = shuffled(s.get("relic_deck", []), rng)
    return s


BOTS = Bots(score=score, seats=seats, scale=3.0, resample=resample)
