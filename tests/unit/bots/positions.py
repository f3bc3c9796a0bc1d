"""Positions of every game for the bot tests: a few (state, player to move) points of a seeded random playout."""
from __future__ import annotations

import json
import random

from domain.games import load_games
from tests.gamekit import apply_all, start

POSITIONS = 4  # positions per game, spread over one random playout


GAMES = load_games()


def positions(game, players=("a", "b", "c"), seed=3):
    """(state, player to move) at a few points of a seeded random playout, mid-game first."""
    chooser = random.Random(seed)
    state, _events, rng, _options = start(game, list(players)[:game.max_players], seed=b"bots")
    states = []
    while game.result(state) is None and len(states) < 400:
        player = sorted(game.active_players(state))[0]
        states.append((json.loads(json.dumps(state)), player))
        state = apply_all(game, state, game.decide(state, player, chooser.choice(game.legal_commands(state, player)), rng))
    step = max(1, len(states) // (POSITIONS + 1))
    return [states[i] for i in range(step, len(states), step)][:POSITIONS]
