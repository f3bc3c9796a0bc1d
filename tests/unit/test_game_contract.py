"""Every game module against the contract: playouts finish, replay equals live, legal is sound, JSON-safe."""
from __future__ import annotations

import copy
import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import ALL
from domain.engine.liveness import stuck_reason
from domain.games import GAME_PACKAGES
from tests.gamekit import apply_all, chaos_playout, json_roundtrip, random_playout, start

BUDGETS = {"uchronia": 400, "merchant-of-venus": 3000, "ti4-exploration": 3000, "origins": 3000}
CHAOS_STEPS = 200


def _game(game_id):
    return importlib.import_module(GAME_PACKAGES[game_id]).GAME


@pytest.fixture(params=list(GAME_PACKAGES), ids=list(GAME_PACKAGES))
def game(request):
    """Each registered game module."""
    return _game(request.param)


def _player_counts(game):
    return sorted({game.min_players, game.max_players})


def test_declaration_is_complete(game):
    """The declaration carries facts, schemas and every contract function."""
    assert game.id in GAME_PACKAGES and game.title
    assert 1 <= game.min_players <= game.max_players
    assert game.command_schemas, "a game has commands"
    for member in ("initial_state", "setup", "decide", "evolve", "view", "redact", "legal_commands",
                   "active_players", "result", "on_timeout", "describe", "describe_command"):
        assert callable(getattr(game, member)), member


def test_random_playouts_finish_and_replay_equals_live(game):
    """2 and max players: random legal play reaches a result; refolding the events gives the same state."""
    for n in _player_counts(game):
        players = [f"p{i}" for i in range(1, n + 1)]
        for seed in (1, 2):
            state, events, sent, options = random_playout(game, players, seed, BUDGETS[game.id])
            result = game.result(state)
            assert set(result["winners"]) <= set(players) and result["winners"]
            replayed = apply_all(game, game.initial_state(players, dict(options)), copy.deepcopy(events))
            assert replayed == state
            assert json_roundtrip(state) == state
            for ev in events:
                assert json_roundtrip(ev) == ev
                assert isinstance(game.describe(ev, str), str)
            assert json_roundtrip(game.view(state, ALL)) == game.view(state, ALL)


def test_every_listed_command_is_accepted(game):
    """At every step of a playout, each command legal_commands lists is accepted by decide."""
    players = [f"p{i}" for i in range(1, game.min_players + 1)]
    random_playout(game, players, 7, BUDGETS[game.id], check_every_step=True)


def test_legal_commands_pass_their_schemas(game):
    """Every listed command's payload loads through its command schema unchanged."""
    players = [f"p{i}" for i in range(1, game.min_players + 1)]

    def check(state, player, cmd, new):
        for p in game.active_players(state):
            for c in game.legal_commands(state, p):
                assert c["type"] in game.command_schemas
                assert game.command_schemas[c["type"]].load(c["payload"]) == c["payload"]

    random_playout(game, players, 11, BUDGETS[game.id], on_step=check)


def test_views_are_json_and_spectator_sees_no_more_than_players(game):
    """Views serialise, and nobody active is left without a view."""
    players = [f"p{i}" for i in range(1, game.min_players + 1)]
    state, events, rng, options = start(game, players)
    for viewer in players + [None, ALL]:
        v = game.view(state, viewer)
        assert json_roundtrip(v) == v
    for ev in events:
        for viewer in players + [None]:
            red = game.redact(copy.deepcopy(ev), viewer)
            assert red is None or json_roundtrip(red) == red


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
