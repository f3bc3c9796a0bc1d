"""Per-game evaluation of a (determinized) state for one seat: its score ahead of the best other seat."""
from __future__ import annotations

import math

from domain.games.merchant_of_venus import data as mov_data
from domain.games.merchant_of_venus.state import net_worth
from domain.games.origins.scoring import score_player
from domain.games.ti4_exploration.board import score as ti4_score
from domain.games.uchronia.data import design_of as uchronia_design
from domain.games.uchronia.state import count as uchronia_count
from domain.games.uchronia.state import vp as uchronia_vp


def uchronia_progress(state: dict, p: str) -> float:
    """What the seat's buildings are worth before they score: a started one, each resource placed, each
    card in stock that one still needs, and (once completed) the tiebreak and the raised operation limit."""
    value = 0.5 * len(state["completed"][p])
    needed: dict = {}
    for bid, placed in state["under_construction"][p].items():
        design = uchronia_design(bid)
        value += 0.3 + 0.7 * placed
        needed[design["color"]] = needed.get(design["color"], 0) + design["cost"] - placed
    value += 0.3 * sum(min(n, state["stock"][p].get(color, 0)) for color, n in needed.items())
    return value


def uchronia_score(state: dict, p: str) -> float:
    """VP, then a little for cards in stock and operations (what buildings and orders are made of), then
    the progress of the seat's buildings (without it neither bot ever builds and most games end level)."""
    return (uchronia_vp(state, p) + 0.2 * uchronia_count(state["stock"][p])
            + 0.3 * uchronia_count(state["operations"][p]) + uchronia_progress(state, p))


def merchant_of_venus_score(state: dict, p: str) -> float:
    """Net worth plus the purchase cost of the cargo carried (so buying to sell later is no loss)."""
    cargo = 0
    for item in state["pl"][p]["cargo"]:
        kind, _, culture = item.partition(":")
        if culture in mov_data.CULTURES and kind in ("good", "factory"):
            cargo += mov_data.CULTURES[culture]["goods" if kind == "good" else "factory"]["cost"]
    return net_worth(state, p) + cargo


def ti4_exploration_score(state: dict, p: str) -> float:
    """The live VP total, then a little for trade goods, commodities and command tokens (what pays for
    the next turns), less for having passed while others still play."""
    me = state["players"][p]
    return (ti4_score(state, p)["total"] + 0.1 * (me["trade_goods"] + me["commodities"])
            + 0.1 * me["command_tokens"] - 0.3 * bool(me["passed"]))


ORIGINS_RESOURCE = 0.3  # stone, food and wisdom pay for the next visits and buildings
ORIGINS_WAR = 0.15  # the war track breaks ties, orders the rounds and pays attacks


def origins_score(state: dict, p: str) -> float:
    """The final-scoring total as if the game ended now, then a little for resources and the war track."""
    me = state["players"][p]
    return (score_player(me)["total"] + ORIGINS_RESOURCE * sum(me["resources"].values())
            + ORIGINS_WAR * me["war"])


SCORES = {
    "uchronia": (uchronia_score, lambda s: list(s["turn_order"]), 3.0),
    "merchant-of-venus": (merchant_of_venus_score, lambda s: list(s["players"]), 300.0),
    "ti4-exploration": (ti4_exploration_score, lambda s: list(s["order"]), 3.0),
    "origins": (origins_score, lambda s: list(s["seats"]), 8.0),
}


def advantage(game_id: str, state: dict, player: str) -> float:
    """The seat's score minus the best other seat's score."""
    score, seats, _scale = SCORES[game_id]
    others = [score(state, p) for p in seats(state) if p != player]
    return score(state, player) - (max(others) if others else 0.0)


def reward(game, state: dict, player: str) -> float:
    """A value in [0, 1] for the seat: 1/0/0.5 for a won/lost/shared finished game, else a squashed
    advantage (so search can compare unfinished playouts)."""
    result = game.result(state)
    if result is not None:
        winners = result.get("winners") or []
        if player not in winners:
            return 0.0
        return 1.0 if len(winners) == 1 else 0.5
    scale = SCORES[game.id][2]
    return 0.5 + 0.5 * math.tanh(advantage(game.id, state, player) / scale)
