"""Property tests: random legal playouts finish, replay equals live, hidden zodiac cards never leak."""
from __future__ import annotations

import copy
import json
import random

from hypothesis import given as hgiven, settings, strategies as st

from domain.engine import ALL, HmacRng
from domain.games.origins import GAME
from domain.games.origins.data import ZODIAC
from tests.gamekit import json_roundtrip, random_playout, start

BUDGET = 3000  # the platform's command budget for origins; playouts need about 100-200 commands


def _zodiac_ids_in(value) -> set:
    text = json.dumps(value)
    return {card for card in ZODIAC if f'"{card}"' in text}


def _own_cards(state, pid) -> set:
    return {z["card"] for z in state["players"][pid]["zodiac"]}


@settings(max_examples=12, deadline=None)
@hgiven(seed=st.integers(0, 10_000), n=st.integers(2, 4))
def test_random_playouts_finish_and_refold_at_every_step(seed, n):
    """Playouts for 2..4 players end within the budget; folding the events equals the live state each step."""
    players = [f"p{i}" for i in range(1, n + 1)]
    shadow = {}

    def check(state, player, cmd, new):
        if "state" not in shadow:
            first, opening, _, options = start(GAME, players, seed=str(seed).encode())
            shadow["state"] = first
        for ev in new:
            shadow["state"] = GAME.evolve(shadow["state"], json_roundtrip(copy.deepcopy(ev)))
        assert shadow["state"] == state

    state, events, sent, _ = random_playout(GAME, players, seed, BUDGET, on_step=check)
    assert sent < BUDGET and GAME.result(state)["winners"]
    assert set(GAME.result(state)["scores"]) == set(players)


@settings(max_examples=10, deadline=None)
@hgiven(seed=st.integers(0, 10_000), n=st.integers(2, 4))
def test_zodiac_cards_never_leak(seed, n):
    """Nobody but the holder (and ALL) sees a zodiac card id in a view or a redacted event before the end."""
    players = [f"p{i}" for i in range(1, n + 1)]

    def check(state, player, cmd, new):
        if state["status"] == "finished":
            return
        for viewer in players + [None]:
            allowed = _own_cards(state, viewer) if viewer else set()
            assert _zodiac_ids_in(GAME.view(state, viewer)) <= allowed
            for ev in new:
                red = GAME.redact(copy.deepcopy(ev), viewer)
                seen = _zodiac_ids_in(red)
                assert seen <= allowed
                if ev["type"] == "zodiac_card_taken" and viewer != ev["data"]["player"]:
                    assert red["data"]["card"] is None
        everything = GAME.view(state, ALL)
        assert all(_own_cards(state, p) <= _zodiac_ids_in(everything) for p in players)
        assert "stack" in everything and "stack" not in GAME.view(state, players[0])

    random_playout(GAME, players, seed, BUDGET, on_step=check)


@settings(max_examples=8, deadline=None)
@hgiven(seed=st.integers(0, 10_000))
def test_timeouts_mixed_into_play_are_neutral_and_finish(seed):
    """Deadlines passing at random moments give valid events (visit forfeit, pass) and the game still ends."""
    chooser = random.Random(seed)
    players = ["p1", "p2", "p3"]
    state, events, rng, _ = start(GAME, players, seed=str(seed).encode())
    steps = 0
    while GAME.result(state) is None:
        steps += 1
        assert steps < BUDGET
        (player,) = GAME.active_players(state)
        if chooser.random() < 0.15:
            new = GAME.on_timeout(state, player, rng)
        else:
            new = GAME.decide(state, player, chooser.choice(GAME.legal_commands(state, player)), rng)
        assert new
        for ev in new:
            assert isinstance(GAME.describe(ev, str), str)
            state = GAME.evolve(state, ev)
    assert GAME.active_players(state) == [] and GAME.legal_commands(state, "p1") == []
    assert GAME.on_timeout(state, "p1", HmacRng(b"x", "y")) == []


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 7), st.sampled_from(
    ["archon", "d8", "d9", "d6", "fields", "forum", "workshop", "sea", "mountain", "C2", "B2", "F9", "A1",
     "dc1", "advance", "attack", "stone", "academy-1", "quarry-1", "x"]), st.lists(st.integers(0, 2), max_size=2))


@settings(max_examples=15, deadline=None)
@hgiven(steps=st.integers(0, 40), ctype=st.sampled_from(sorted(GAME.command_schemas)),
        payload=st.dictionaries(st.sampled_from(["worker", "site", "temple", "slot", "tile", "as_farm", "cell",
                                                 "to_die", "to_war", "stone", "food", "wisdom", "choice",
                                                 "resource", "anchor", "die", "card"]), _VALUES, max_size=4))
def test_odd_commands_are_accepted_or_cite_a_rule(steps, ctype, payload):
    """Whatever the payload, decide either returns events that evolve cleanly or raises RuleViolation."""
    from domain.engine import RuleViolation
    chooser = random.Random(steps)
    state, _, rng, _ = start(GAME, ["p1", "p2"])
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        (player,) = GAME.active_players(state)
        for ev in GAME.decide(state, player, chooser.choice(GAME.legal_commands(state, player)), rng):
            state = GAME.evolve(state, ev)
    for player in ("p1", "p2"):
        before = copy.deepcopy(state)
        try:
            events = GAME.decide(state, player, {"type": ctype, "payload": payload}, rng)
        except RuleViolation as exc:
            assert exc.rule_id and exc.message
            continue
        finally:
            assert state == before
        scratch = copy.deepcopy(state)
        for ev in events:
            scratch = GAME.evolve(scratch, ev)
