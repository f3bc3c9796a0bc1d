"""A state's value for one seat, from the game's own `Bots` declaration (`game.bots`): its score ahead of the
best other seat; a game that declares none is valued by its result alone."""
from __future__ import annotations

import math

DEFAULT_SCALE = 1.0  # the advantage scale of a game without a score (its advantage is always 0)


def advantage(game, state: dict, player: str) -> float:
    """The seat's score minus the best other seat's score (0 when the game declares no score)."""
    bots = game.bots
    if bots is None:
        return 0.0
    others = [bots.score(state, p) for p in bots.seats(state) if p != player]
    return bots.score(state, player) - (max(others) if others else 0.0)


def scale(game) -> float:
    """What a clear lead is worth in the game's score units."""
    return game.bots.scale if game.bots is not None else DEFAULT_SCALE


def squashed(game, lead: float) -> float:
    """A lead mapped into (0, 1): 0.5 for level, towards 1 for a clear lead."""
    return 0.5 + 0.5 * math.tanh(lead / scale(game))


def reward(game, state: dict, player: str) -> float:
    """A value in [0, 1] for the seat: 1/0/0.5 for a won/lost/shared finished game, else a squashed
    advantage (so search can compare unfinished playouts; 0.5 for a game without a score)."""
    result = game.result(state)
    if result is not None:
        winners = result.get("winners") or []
        if player not in winners:
            return 0.0
        return 1.0 if len(winners) == 1 else 0.5
    return squashed(game, advantage(game, state, player))
