"""A dice race folded in memory through the platform aggregate, for the engine's take-back, dispute and audit tests."""
from __future__ import annotations

from domain.games.dice_race import GAME as RACE
from tests.gamekit import MatchSim


class Sim(MatchSim):
    """A dice race folded in memory, sealed the way MatchService seals."""

    def __init__(self, players=("ann", "bob"), options=None, seats=None, seed=b"s" * 32, match_id="m1"):
        super().__init__(RACE, players, options or {"target": 10}, seats, seed, match_id)
