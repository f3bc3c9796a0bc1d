"""Property tests: random legal playouts finish in budget, refold equals live, and nothing hidden leaks."""
from __future__ import annotations

import copy
import json

from hypothesis import given as hyp_given, settings, strategies as st_

from domain.engine import ALL
from domain.games.uchronia import GAME
from tests.gamekit import apply_all, random_playout, start

BUDGET = 400  # spec §2


def _viewers(state):
    return list(state["turn_order"]) + [None]


def _perturbed(state, viewer):
    """A copy where every hand hidden from `viewer` and both deck orders are changed (sizes kept)."""
    other = copy.deepcopy(state)
    other["draw_pile"] = list(reversed(other["draw_pile"]))
    other["building_deck"] = list(reversed(other["building_deck"]))
    pending = GAME.view(state, None)["pending"] or {}
    protected = set(pending.get("players", [])) if pending.get("step") == "give_card" else set()
    for p, hand in other["hands"].items():
        if p == viewer or p in protected:
            continue
        total = sum(hand.values())
        other["hands"][p] = {c: 0 for c in hand} | {"brown": total}
    return other


def _check_hidden(state, new_events):
    """No view or redacted event carries what its viewer may not see."""
    for viewer in _viewers(state):
        v = GAME.view(state, viewer)
        assert json.loads(json.dumps(v)) == v
        assert "draw_pile" not in v and "building_deck" not in v
        for p, tableau in v["players"].items():
            assert (tableau["hand"] is not None) == (p == viewer)
        assert GAME.view(_perturbed(state, viewer), viewer) == v, "a hidden hand or deck order leaked"
        for ev in new_events:
            red = GAME.redact(copy.deepcopy(ev), viewer)
            data = red["data"]
            assert "resource_order" not in data and "building_order" not in data
            if red["type"] in ("cards_dealt", "cards_drawn") and data["player"] != viewer:
                assert "colors" not in data
            assert isinstance(GAME.describe(red, str), str)


@settings(max_examples=12, deadline=None)
@hyp_given(n=st_.integers(2, 5), seed=st_.integers(0, 10_000))
def test_random_playouts_finish_refold_and_hide(n, seed):
    """Random legal playouts finish within 400 commands; the refold equals the live state at every step;
    views and redactions never show another player's hand or a deck order."""
    players = [f"p{i}" for i in range(1, n + 1)]
    log = []

    def on_step(state, player, cmd, new):
        log.extend(copy.deepcopy(new))
        _check_hidden(state, new)

    state, events, sent, options = random_playout(GAME, players, seed, BUDGET, on_step=on_step)
    assert sent <= BUDGET and GAME.result(state) is not None
    setup_count = len(events) - len(log)
    base = apply_all(GAME, GAME.initial_state(players, dict(options)), copy.deepcopy(events[:setup_count]))
    for ev in events[setup_count:]:
        base = GAME.evolve(base, copy.deepcopy(ev))
    assert base == state
    assert GAME.view(state, ALL)["players"][players[0]]["hand"] is not None


@settings(max_examples=8, deadline=None)
@hyp_given(n=st_.integers(2, 5), seed=st_.integers(0, 10_000))
def test_refold_equals_live_at_every_step(n, seed):
    """Folding initial_state + all events so far equals the live state after every command."""
    players = [f"p{i}" for i in range(1, n + 1)]
    _, setup_events, _, options = start(GAME, players, seed=str(seed).encode())
    so_far = list(copy.deepcopy(setup_events))

    def on_step(state, player, cmd, new):
        so_far.extend(copy.deepcopy(new))
        if len(so_far) % 7 == 0 or GAME.result(state) is not None:
            refold = apply_all(GAME, GAME.initial_state(players, dict(options)), copy.deepcopy(so_far))
            assert refold == state

    random_playout(GAME, players, seed, BUDGET, on_step=on_step)


def test_setup_redaction_per_viewer():
    """Deck orders are hidden from everyone but ALL; dealt colours only from their owner's eyes."""
    state, events, _, _ = start(GAME, ["ann", "bob"])
    shuffled = next(e for e in events if e["type"] == "decks_shuffled")
    for viewer in ("ann", "bob", None):
        assert GAME.redact(copy.deepcopy(shuffled), viewer)["data"] == {"resource_count": 80, "building_count": 20}
    assert GAME.redact(copy.deepcopy(shuffled), ALL) == shuffled
    dealt = next(e for e in events if e["type"] == "cards_dealt")
    owner = dealt["data"]["player"]
    other = "bob" if owner == "ann" else "ann"
    assert GAME.redact(copy.deepcopy(dealt), owner)["data"]["colors"] == dealt["data"]["colors"]
    assert "colors" not in GAME.redact(copy.deepcopy(dealt), other)["data"]
    assert "colors" not in GAME.redact(copy.deepcopy(dealt), None)["data"]
    assert GAME.view(state, ALL)["draw_pile"] == state["draw_pile"]
    assert GAME.view(state, other)["players"][owner]["hand"] is None
    assert GAME.view(state, other)["players"][owner]["hand_size"] == 6
    assert GAME.view(state, owner)["players"][owner]["hand"] == state["hands"][owner]
