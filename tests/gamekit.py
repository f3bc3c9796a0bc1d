"""Test kit for game modules: a random legal playout driver over the pure game contract."""
from __future__ import annotations

import copy
import json
import random

from domain.engine import HmacRng


def apply_all(game, state, events):
    """Evolve `state` through `events` and return it."""
    for ev in events:
        state = game.evolve(state, ev)
    return state


def start(game, players, options=None, seed=b"kit", match_id="m1"):
    """Return (state, events, rng) after the game's setup with loaded default options."""
    options = game.options_schema.load(options or {})
    rng = HmacRng(seed, match_id)
    state = game.initial_state(list(players), dict(options))
    events = game.setup(list(players), dict(options), rng)
    return apply_all(game, state, copy.deepcopy(events)), events, rng, options


def json_roundtrip(value):
    """Serialise and parse again, so tuples or non-str keys show up as differences."""
    return json.loads(json.dumps(value))


def random_playout(game, players, seed: int, budget: int, check_every_step=False, on_step=None):
    """Play random legal commands until the game finishes; return (state, all events, commands sent).

    Asserts along the way: the active players' legal lists are never empty, every chosen command is
    accepted, decide never mutates the state, and (with check_every_step) that every listed legal
    command of the acting player is accepted."""
    chooser = random.Random(seed)
    state, events, rng, options = start(game, players, seed=str(seed).encode())
    events = list(events)
    sent = 0
    while game.result(state) is None:
        assert sent < budget, f"no result after {budget} commands"
        active = game.active_players(state)
        assert active, "nobody is active but the game has no result"
        player = chooser.choice(sorted(active))
        legal = game.legal_commands(state, player)
        assert legal, f"{player} is active but has no legal command"
        before = copy.deepcopy(state)
        if check_every_step:
            for cmd in legal:
                game.decide(state, player, copy.deepcopy(cmd), rng.__class__(rng.seed, rng.match_id, rng.counter))
            assert state == before, "decide mutated the state"
        cmd = chooser.choice(legal)
        new = game.decide(state, player, copy.deepcopy(cmd), rng)
        assert state == before, "decide mutated the state"
        assert new, f"accepted command {cmd} produced no events"
        events.extend(copy.deepcopy(new))
        state = apply_all(game, state, new)
        sent += 1
        if on_step:
            on_step(state, player, cmd, new)
    assert game.active_players(state) == []
    return state, events, sent, options
