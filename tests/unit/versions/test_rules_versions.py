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
from service.cli.rules import LOCK, bump, lock_problems, next_version, read_lock, release
from tests.rules_copies import BUMP_DAY, BUMPED, CURRENT, copy_game, edit_json, import_fresh


def folder_of(game_id: str) -> Path:
    """The folder of a real game package."""
    return Path(importlib.import_module(GAME_PACKAGES[game_id]).__file__).parent


@pytest.mark.parametrize("game_id", sorted(GAME_PACKAGES))
def test_every_released_version_is_frozen_as_locked(game_id):
    """A released version (a frozen copy, or the current version once matches are played under it) has the digest the
    lock recorded over its code, data, texts, board and bot knowledge: any edit of it fails here, saying what to do."""
    assert lock_problems(game_id, folder_of(game_id), read_lock(LOCK)) == []
    versions = json.loads((folder_of(game_id) / "versions" / INDEX).read_text())["versions"]
    assert versions[0] == "2026.11" or game_id not in ORIGINAL_GAMES, "matches stored before versions are 2026.11"


ORIGINAL_GAMES = {"uchronia", "merchant-of-venus", "ti4-exploration", "origins"}


def test_the_lock_test_fails_on_any_edit_of_a_frozen_copy(tmp_path):
    """After a bump, editing a frozen copy's code (not only its data) is caught with the advice."""
    folder, lock_path = copy_game(tmp_path), tmp_path / "rules.lock.json"
    bump("uchronia", folder, lock_path, BUMP_DAY)
    assert lock_problems("uchronia", folder, read_lock(lock_path)) == []
    scoring = folder / "versions" / CURRENT / "state.py"
    scoring.write_text(scoring.read_text() + "\n# an innocent-looking edit\n")
    problems = lock_problems("uchronia", folder, read_lock(lock_path))
    assert len(problems) == 1 and "was edited" in problems[0] and "git checkout" in problems[0]


def test_a_released_current_version_edited_in_place_fails_with_the_way_out(tmp_path):
    """Matches are played under the current version (its golden matches): an edit in place fails the lock test and
    the bump alike, each saying to bump first; after bump and the same edit, everything passes (the issue's path)."""
    folder, lock_path = copy_game(tmp_path), tmp_path / "rules.lock.json"
    release("uchronia", CURRENT, folder, lock_path)
    state = folder / "state.py"
    original = state.read_text()
    state.write_text(original + "\n# a logic edit\n")
    problems = lock_problems("uchronia", folder, read_lock(lock_path))
    assert len(problems) == 1 and "rules bump uchronia" in problems[0] and "git stash" in problems[0]
    with pytest.raises(ValueError, match="edited after its release"):
        bump("uchronia", folder, lock_path, BUMP_DAY)
    assert not (folder / "versions" / CURRENT).exists(), "a refused bump freezes nothing"
    state.write_text(original)
    bump("uchronia", folder, lock_path, BUMP_DAY)
    state.write_text(original + "\n# a logic edit\n")
    assert lock_problems("uchronia", folder, read_lock(lock_path)) == []
    game = import_fresh(tmp_path)
    assert game.rules_version == BUMPED and game.at(CURRENT).rules_digest == read_lock(lock_path)["uchronia"][CURRENT]


def test_editing_the_current_version_after_a_bump_passes_the_lock_test(tmp_path):
    """The designer's way: bump, then edit the package itself: the frozen copy is untouched, so the lock holds."""
    folder, lock_path = copy_game(tmp_path), tmp_path / "rules.lock.json"
    bump("uchronia", folder, lock_path, BUMP_DAY)
    (folder / "state.py").write_text((folder / "state.py").read_text() + "\n# the new rules\n")
    edit_json(folder / "uchronia.json", starting_hand=5)
    assert lock_problems("uchronia", folder, read_lock(lock_path)) == []


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
    frozen, new, files = bump("uchronia", folder, lock, BUMP_DAY)
    assert (frozen, new) == (CURRENT, BUMPED)
    assert json.loads(lock.read_text())["uchronia"][CURRENT] == version_digest(files)
    assert files == folder / "versions" / CURRENT and (files / "uchronia.json").is_file()
    assert (files / "game.py").is_file() and not (files / "versions").exists(), "the whole package is frozen"
    edit_json(folder / "uchronia.json", starting_hand=5)
    game = import_fresh(tmp_path)
    assert (game.rules_version, game.rules_versions) == (BUMPED, (CURRENT, BUMPED))
    assert dealt(game) == 5 and dealt(game, CURRENT) == 6
    assert game.at(CURRENT).rules_digest == json.loads(lock.read_text())["uchronia"][CURRENT]
    created = agg.decide_create(game, "m_1", "ann", {}, "c" * 64, players=["ann", "bob"])
    assert created[0]["data"]["rules_version"] == BUMPED
    old = dict(created[0], data=dict(created[0]["data"], rules_version=CURRENT))
    envelope = {"version": 1, "scope": "platform", "actor": "ann", **old}
    assert agg.fold("m_1", [envelope], {game.id: game}).game.rules_version == CURRENT
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
    bump("uchronia", folder, tmp_path / "rules.lock.json", BUMP_DAY)
    game = import_fresh(tmp_path)
    created = agg.decide_create(game.at(CURRENT), "m_1", "ann", {}, "c" * 64, players=["ann", "bob"])
    envelope = {"version": 1, "scope": "platform", "actor": "ann", **created[0]}
    match = agg.fold("m_1", [envelope], {game.id: game})
    doc = to_json(match)
    assert doc["rules_version"] == CURRENT
    assert from_json(doc, {game.id: game}).game.rules_version == CURRENT
    assert from_json(dict(doc, rules_version="2031.01"), {game.id: game}) is None
