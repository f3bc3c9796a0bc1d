"""Golden matches (tests/fixtures/golden/<game>/<version>/*.json, written by `turnstream rules golden`): every
stored match of every game at every rules version replays for ever as it was played: its audit verifies, the
pinned rules re-derive every event (recheck), and the final state and result are the recorded ones."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.engine import aggregate as agg
from domain.engine.recheck import recheck
from domain.games import load_games
from service.app.audit import audit_export
from service.cli.golden import state_digest
from service.cli.rules import LOCK, read_lock

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "golden"
FILES = sorted(GOLDEN.glob("*/*/*.json"))
GAMES = load_games()


def test_there_are_golden_matches():
    """The fixtures are where the tests look."""
    assert FILES, f"no golden matches under {GOLDEN}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: "/".join(p.parts[-3:]))
def test_a_golden_match_replays_identically(path):
    """Audit verified (chain, commitment, every draw, the setup), recheck identical, same final state and result."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    game_id, version = path.parts[-3], path.parts[-2]
    created = doc["events"][0]["data"]
    assert (created["game"], created.get("rules_version")) == (game_id, version), "filed under its game and version"
    report = audit_export(doc, GAMES)
    assert report["ok"] and report["randomness"]["verified"], report["problems"]
    assert recheck(doc["match"], doc["events"], GAMES) == {"status": "identical", "version": None,
                                                             "rules": version, "reason": None}
    match = agg.fold(doc["match"], doc["events"], GAMES)
    assert match.finished and match.game.rules_version == version
    assert state_digest(match.game_state) == doc["golden"]["final_state_sha256"]
    assert json.loads(json.dumps(match.game.result(match.game_state))) == doc["golden"]["result"] == match.result


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_rules_version_of_every_game_has_golden_matches(game_id):
    """A released rules version has its own golden matches (`turnstream rules golden <game>` writes them and releases
    it); only the current version may be a draft without them, while it is being written after a bump."""
    released = read_lock(LOCK).get(game_id, {})
    for version in GAMES[game_id].rules_versions:
        if version == GAMES[game_id].rules_version and version not in released:
            continue  # a draft: nobody plays it yet
        found = sorted((GOLDEN / game_id / version).glob("*.json"))
        assert found, (f"{game_id} {version} has no golden match: run "
                       f"`turnstream rules golden {game_id} --version {version}`")
