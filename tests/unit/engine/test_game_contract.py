"""Every game module against the contract (the contract kit), and the platform invariant in chaos playouts."""
from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.contract_kit import check_game
from domain.engine.liveness import stuck_reason
from domain.games import GAME_PACKAGES
from tests.gamekit import chaos_playout

BUDGETS = {"uchronia": 400, "merchant-of-venus": 3000, "ti4-exploration": 3000, "origins": 3000}
CHAOS_STEPS = 200


def _game(game_id):
    return importlib.import_module(GAME_PACKAGES[game_id]).GAME


@pytest.fixture(params=list(GAME_PACKAGES), ids=list(GAME_PACKAGES))
def game(request):
    """Each registered game module."""
    return _game(request.param)


def test_the_contract_kit_passes(game):
    """domain/engine/contract_kit.py on the game: playouts at 2 and max players finish, one seed gives one
    history, states/events/views survive JSON, refolding equals live, every listed command is accepted and
    decide never mutates, mutated commands are refused with a rule id, views hide what redaction hides,
    timeouts leave the game playable."""
    report = check_game(game, seeds=(1,), budget=BUDGETS[game.id])
    assert report.ok, report.text()


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31))
def test_chaos_playouts_always_leave_someone_to_act(seed):
    """platform:match.someone-may-act, after every command of random play mixed with take-backs,
    disputes on any event (accepted and rejected) and timeouts, in every game."""
    def check(sim):
        assert stuck_reason(sim.match) is None, (stuck_reason(sim.match), sim.match.envelopes[-6:])

    for game_id in GAME_PACKAGES:
        game = _game(game_id)
        seats = game.min_players if seed % 2 else game.max_players
        chaos_playout(game, [f"p{i}" for i in range(1, seats + 1)], seed, CHAOS_STEPS, check)
