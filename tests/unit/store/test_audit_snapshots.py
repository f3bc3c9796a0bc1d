"""Replay snapshots, pure: Match <-> JSON round trip, effective versions as runs."""
from __future__ import annotations

import json

from domain.engine import aggregate as agg
from projections.snapshots import from_json, from_ranges, to_json, to_ranges
from domain.games.dice_race import GAME as RACE
from tests.unit.engine.race_sim import Sim


def test_runs_round_trip():
    """Sorted versions compress to runs and expand back."""
    versions = [3, 4, 5, 7, 9, 10]
    assert to_ranges(versions) == [[3, 5], [7, 7], [9, 10]]
    assert from_ranges(to_ranges(versions)) == versions
    assert to_ranges([]) == []


def test_a_snapshot_continues_like_the_full_fold():
    """Fold k events, snapshot, fold the rest from the snapshot: same state as folding everything."""
    sim = Sim()
    sim.play("ann", "note", text="a")
    sim.play("ann", "roll")
    sim.play("bob", "draw")
    envs = sim.match.envelopes
    head = agg.fold("m1", envs[:5], sim.games)
    doc = json.loads(json.dumps(to_json(head)))
    loaded = from_json(doc, sim.games, history=lambda a, b: envs[a - 1:b])
    agg.fold("m1", envs[5:], sim.games, into=loaded)
    full = agg.fold("m1", envs, sim.games)
    for name in ("status", "players", "version", "head", "draws", "game_state", "effective", "disputes"):
        assert getattr(loaded, name) == getattr(full, name), name
    assert loaded.view("bob") == full.view("bob")


def test_unknown_game_or_format_is_ignored():
    """A snapshot of a game no longer hosted, or of another format, loads as None (the caller folds fully)."""
    doc = to_json(Sim().match)
    assert from_json(doc, {}) is None
    assert from_json(dict(doc, format=99), {RACE.id: RACE}) is None
