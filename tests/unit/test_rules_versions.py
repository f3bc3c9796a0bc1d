"""Rules versions: released versions are frozen (the lock file), a bump makes the next version, and each match
is judged by the version it was created under, whatever the current one is."""
from __future__ import annotations

import importlib
import json
from datetime import date
from pathlib import Path

import pytest

from domain.engine import HmacRng
from domain.engine import aggregate as agg
from domain.engine.versions import INDEX, UnknownRulesVersion, version_digest
from domain.games import GAME_PACKAGES, load_games
from service.cli.rules import LOCK, bump, next_version, read_lock
from tests.rules_copies import copy_game, edit_json, import_fresh


def folder_of(game_id: str) -> Path:
    """The folder of a real game package."""
    return Path(importlib.import_module(GAME_PACKAGES[game_id]).__file__).parent


@pytest.mark.parametrize("game_id", sorted(GAME_PACKAGES))
def test_every_released_version_is_frozen_as_locked(game_id):
    """A released version's folder (data and frozen modules) has the digest the lock file recorded: editing it
    in place fails here. Only the newest version may be a draft (not locked yet)."""
    lock = read_lock(LOCK)[game_id]
    versions = json.loads((folder_of(game_id) / "versions" / INDEX).read_text())["versions"]
    for version in versions:
        if version in lock:
            assert version_digest(folder_of(game_id) / "versions" / version) == lock[version], \
                f"{game_id} {version} was edited after its release: make a new version (turnstream rules bump)"
    assert all(v in lock for v in versions[:-1]), "every version but the newest is released and locked"
    assert versions[0] == "2026.11", "the matches stored before rules versions are version 2026.11"


def test_the_lock_test_would_fail_on_an_edited_release(tmp_path):
    """Editing a released version's data changes its digest."""
    folder = copy_game(tmp_path)
    data = folder / "versions" / "2026.11" / "uchronia.json"
    before = version_digest(data.parent)
    edit_json(data, starting_hand=5)
    assert version_digest(data.parent) != before


def test_the_next_version_is_this_month_or_a_counter():
    """Versions sort as they were made."""
    assert next_version("2026.11", date(2026, 12, 1)) == "2026.12"
    assert next_version("2026.12", date(2026, 12, 9)) == "2026.12-2"
    assert next_version("2026.12-2", date(2026, 12, 20)) == "2026.12-3"
    assert next_version("2026.12-3", date(2027, 1, 2)) == "2027.01"


def dealt(game, version=None) -> int:
    """How many cards the setup of a 2-player Uchronia match deals each player under `version`."""
    rules = game.at(version)
    events = rules.setup(["ann", "bob"], rules.options_schema.load({}), HmacRng(b"s" * 32, "m_1", 0))
    return next(e["data"]["count"] for e in events if e["type"] == "cards_dealt" and e["data"]["player"] == "ann")


def test_a_bump_freezes_the_current_version_and_matches_keep_theirs(tmp_path):
    """The designer's way: bump, edit the new version's data, restart. New matches get the new rules; a match
    created under the old version is folded and decided under it; the old version's data is untouched."""
    folder, lock = copy_game(tmp_path), tmp_path / "rules.lock.json"
    frozen, new, files = bump("uchronia", folder, lock, date(2026, 12, 1))
    assert (frozen, new) == ("2026.11", "2026.12")
    assert json.loads(lock.read_text())["uchronia"]["2026.11"] == version_digest(folder / "versions" / "2026.11")
    assert str(folder / "versions" / "2026.12" / "uchronia.json") in files
    edit_json(folder / "versions" / "2026.12" / "uchronia.json", starting_hand=5)
    game = import_fresh(tmp_path)
    assert (game.rules_version, game.rules_versions) == ("2026.12", ("2026.11", "2026.12"))
    assert dealt(game) == 5 and dealt(game, "2026.11") == 6
    assert game.at("2026.11").rules_digest == json.loads(lock.read_text())["uchronia"]["2026.11"]
    created = agg.decide_create(game, "m_1", "ann", {}, "c" * 64, players=["ann", "bob"])
    assert created[0]["data"]["rules_version"] == "2026.12"
    old = dict(created[0], data=dict(created[0]["data"], rules_version="2026.11"))
    envelope = {"version": 1, "scope": "platform", "actor": "ann", **old}
    assert agg.fold("m_1", [envelope], {game.id: game}).game.rules_version == "2026.11"
    with pytest.raises(UnknownRulesVersion):
        game.at("2031.01")


def test_the_real_games_declare_their_versions():
    """Every game says its current version and the versions it can judge, oldest first."""
    for game in load_games().values():
        assert game.rules_versions[-1] == game.rules_version and game.rules_digest
        assert game.at(game.rules_version) is game


def test_a_snapshot_keeps_the_rules_version_its_match_is_judged_by(tmp_path):
    """A replay snapshot of a match on an older version loads back under that version, not the current one;
    a snapshot naming a version this process lacks is ignored (the events are folded instead)."""
    from projections.snapshots import from_json, to_json
    folder = copy_game(tmp_path)
    bump("uchronia", folder, tmp_path / "rules.lock.json", date(2026, 12, 1))
    game = import_fresh(tmp_path)
    created = agg.decide_create(game.at("2026.11"), "m_1", "ann", {}, "c" * 64, players=["ann", "bob"])
    envelope = {"version": 1, "scope": "platform", "actor": "ann", **created[0]}
    match = agg.fold("m_1", [envelope], {game.id: game})
    doc = to_json(match)
    assert doc["rules_version"] == "2026.11"
    assert from_json(doc, {game.id: game}).game.rules_version == "2026.11"
    assert from_json(dict(doc, rules_version="2031.01"), {game.id: game}) is None
