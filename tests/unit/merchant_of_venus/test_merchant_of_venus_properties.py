"""Property tests: random legal playouts finish, replay equals live, hidden information never leaks."""
from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import ALL
from domain.games.merchant_of_venus import GAME
from tests.gamekit import apply_all, random_playout

BUDGET = 3000  # the platform budget; the spec measures ~253 commands for 2 players, twice that for 4
HIDDEN = "HIDDEN"
PLAYOUTS = {"seed": st.integers(0, 10**6), "n": st.integers(2, 4)}


def _players(n):
    """Seat ids p1..pn."""
    return [f"p{i}" for i in range(1, n + 1)]


def _scrub(state, viewer):
    """The state with everything `viewer` may not know replaced by a dummy value."""
    s = copy.deepcopy(state)
    for sid in s["placement"]:
        if sid not in s["revealed"]:
            s["placement"][sid] = HIDDEN
    s["set_aside"] = HIDDEN
    for pid, p in s["pl"].items():
        if pid != viewer:
            p["observed"] = {k: HIDDEN for k in p["observed"]}
    return s


def _check_hidden(state, new_events):
    for viewer in state["players"] + [None]:
        assert GAME.view(state, viewer) == GAME.view(_scrub(state, viewer), viewer)
        for ev in new_events:
            red = GAME.redact(copy.deepcopy(ev), viewer)
            if ev["type"] == "cards_dealt":
                assert red["data"] == {}
            if ev["type"] == "culture_observed" and ev["data"]["player"] != viewer:
                assert "culture" not in red["data"]
            json.dumps(red)


@settings(max_examples=12, deadline=None)
@given(**PLAYOUTS)
def test_random_playouts_finish_within_budget_and_replay(seed, n):
    """Random legal play ends within the budget; folding the events equals the live state at every step."""
    players = _players(n)
    replay = {"state": None}

    def on_step(state, player, cmd, new):
        if replay["state"] is None:
            replay["state"] = copy.deepcopy(state)
            return
        replay["state"] = apply_all(GAME, replay["state"], copy.deepcopy(new))
        assert replay["state"] == state

    state, events, sent, options = random_playout(GAME, players, seed, BUDGET, on_step=on_step)
    assert sent < BUDGET and GAME.result(state)["winners"]
    refolded = apply_all(GAME, GAME.initial_state(players, dict(options)), copy.deepcopy(events))
    assert refolded == state


@settings(max_examples=8, deadline=None)
@given(**PLAYOUTS)
def test_hidden_information_never_leaks(seed, n):
    """No view or redacted event shows face-down cards or another player's observations."""
    players = _players(n)
    seen = {"setup": False}

    def on_step(state, player, cmd, new):
        _check_hidden(state, new)
        seen["setup"] = True

    state, events, _, _ = random_playout(GAME, players, seed, BUDGET, on_step=on_step)
    assert seen["setup"]
    full = GAME.view(state, ALL)
    assert set(full["placement"]) == set(state["placement"]) and full["set_aside"] == state["set_aside"]
    for ev in events[:3]:
        for viewer in players + [None]:
            red = GAME.redact(copy.deepcopy(ev), viewer)
            assert "placement" not in red["data"] and "set_aside" not in red["data"]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_evolve_and_describe_never_raise_on_produced_events(seed):
    """Every produced event evolves and describes, also when redacted for a spectator."""
    state, events, _, options = random_playout(GAME, ["a", "b"], seed, BUDGET)
    fresh = GAME.initial_state(["a", "b"], dict(options))
    for ev in copy.deepcopy(events):
        fresh = GAME.evolve(fresh, ev)
        assert isinstance(GAME.describe(GAME.redact(copy.deepcopy(ev), None), str), str)
    assert fresh == state
