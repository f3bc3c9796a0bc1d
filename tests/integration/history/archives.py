"""Archived-match test helpers: a cold wiring on the same Redis (a process that cached nothing), a test client of a
wiring, and a short match played to its end."""
from __future__ import annotations

import random

from service.app.history import History
from service.cli.golden import SHORT_OPTIONS, play_one
from tests.conftest import drain_projections
from tests.invites import create_started


def cold(w, snapshots: bool = True):
    """A fresh wiring on the same Redis: a process that has cached nothing. Without `snapshots` it folds every
    match from its first event, as it does an archived match (a match loaded from a snapshot holds only the events
    after it, and its page's log shows only those: compared with an archived match's, whose snapshots are gone,
    it would differ by that alone)."""
    from service.bootstrap import build
    made = build(w.settings, games=w.games)
    if not snapshots:
        made.matches.snapshots = None
    COLD.append(made)
    return made


COLD: list = []


def client_of(w):
    from service import create_app
    return create_app(wiring=w).test_client()


def finished_match(w, game_id: str, people: list, seed: str) -> str:
    """A short match of `game_id` played to its end by random legal moves (take-backs and timeouts mixed in), a
    chat message after the end, projected."""
    game = w.games[game_id]
    seats = people[:max(game.min_players, 2)]
    mid = create_started(w, seats[0], game, seats, SHORT_OPTIONS[game_id])
    rnd, history = random.Random(seed), History.from_wiring(w)
    for _ in range(5000):
        if w.matches.load(mid).finished:
            break
        play_one(w.matches, history, mid, rnd)
    assert w.matches.load(mid).finished
    w.matches.execute(mid, seats[1], lambda m, rng: __import__("domain.engine.chat", fromlist=["x"]).decide_chat(
        m, seats[1], "gg ✓"))
    drain_projections(w)
    return mid
