"""The salted hash chain is no oracle: hashing every candidate value of a hidden field against the published
chain finds nothing (format 2), where the same attack recovers the hidden value on an unsalted chain (format 1)."""
from __future__ import annotations

import importlib
from collections import defaultdict

import pytest

from domain.engine import platform_events as pe
from domain.engine.hashing import HASHED_FIELDS, canonical_json, hash_body
from domain.games import GAME_PACKAGES
from tests.gamekit import chaos_playout

STEPS = 150
SEEDS = (1,)


def hidden_fields(game, env: dict, viewer) -> list:
    """The data fields of a game event that `viewer` does not see (all of them when it is hidden whole)."""
    seen = game.redact({"type": env["type"], "data": env["data"]}, viewer)
    if seen is None:
        return sorted(env["data"])
    return sorted(k for k in env["data"] if k not in seen["data"] or seen["data"][k] != env["data"][k])


def guesses(game, env: dict, viewer, domain: dict):
    """Every envelope body an attacker would hash for `env`: one hidden data field or one hidden draw value
    replaced by each candidate, all else as stored. Draws are shown to nobody before the match ends, so
    they are guessed once, as the spectator (viewer None)."""
    body = {k: env.get(k) for k in HASHED_FIELDS}
    if env["scope"] == pe.GAME:
        for key in hidden_fields(game, env, viewer):
            for guess in domain[(env["type"], key)]:
                yield dict(body, data=dict(env["data"], **{key: guess}))
    for i, (n, lo, hi, _) in enumerate(env.get("rng") or () if viewer is None else ()):
        for value in range(lo, min(hi, lo + 63) + 1):
            draws = [list(d) for d in env["rng"]]
            draws[i] = [n, lo, hi, value]
            yield dict(body, rng=draws)


def attack(game, envelopes: list, viewer) -> dict:
    """{event type: (candidates hashed, candidates whose hash equals the published one)}.

    The attacker is as strong as can be: it knows every field of the event except one hidden value (the
    other hidden fields and the command marker included), the previous and the published hash, and
    enumerates every value that field takes anywhere in the match (every value in range for a draw)."""
    seen = defaultdict(dict)
    for env in envelopes:
        if env["scope"] == pe.GAME:
            for key, value in env["data"].items():
                seen[(env["type"], key)].setdefault(canonical_json(value), value)
    domain = {field: list(values.values()) for field, values in seen.items()}
    found = defaultdict(lambda: [0, 0])
    for env in envelopes:
        for body in guesses(game, env, viewer, domain):
            tally = found[env["type"]]
            tally[0] += 1
            tally[1] += hash_body(env["prev"], "", canonical_json(body)) == env["hash"]
    return {t: tuple(v) for t, v in found.items()}


@pytest.mark.parametrize("game_id", list(GAME_PACKAGES))
def test_brute_forcing_hidden_fields_against_the_salted_chain_finds_nothing(game_id):
    """For each hidden event type of the game: zero matches on the salted chain, and on the legacy
    (format 1) chain of the same play the very same attack recovers every hidden value."""
    game = importlib.import_module(GAME_PACKAGES[game_id]).GAME
    players = [f"p{i}" for i in range(1, game.min_players + 1)]
    for seed in SEEDS:
        salted = chaos_playout(game, players, seed, STEPS).match.envelopes_since(1)
        legacy = chaos_playout(game, players, seed, STEPS, legacy_chain=True).match.envelopes_since(1)
        assert [e["data"] for e in salted[1:]] == [e["data"] for e in legacy[1:]], "the same play"
        on_salted, on_legacy = {}, {}
        for viewer in (players[-1], None):
            on_salted.update(attack(game, salted, viewer))
            on_legacy.update(attack(game, legacy, viewer))
        assert on_salted and on_salted.keys() == on_legacy.keys(), f"{game_id}: the playout has hidden events"
        for type_, (tried, hits) in on_salted.items():
            assert tried and hits == 0, f"{game_id}: {type_} leaked through the salted chain"
        for type_, (tried, hits) in on_legacy.items():
            assert hits > 0, f"{game_id}: the attack should work on the unsalted chain for {type_}"
