"""Old code, new matches: a server without a match's rules version (a rollback, or an older host in a mixed deploy)
refuses every read and command of that match with 409 rules_version_unavailable naming the version, never a 500;
the match is untouched and the newer server still serves it."""
from __future__ import annotations


import pytest

from service.bootstrap import build
from service.cli.rules import bump
from tests.invites import create_started
from tests.rules_copies import BUMP_DAY, BUMPED, copy_game, import_fresh


@pytest.fixture
def newer_match(settings, redis_client, games, tmp_path):
    """A Uchronia match created by a newer deploy (rules of a bump the installed code lacks); (wiring, id)."""
    folder = copy_game(tmp_path)
    bump("uchronia", folder, tmp_path / "rules.lock.json", BUMP_DAY)
    newer = build(settings, games=dict(games, uchronia=import_fresh(tmp_path)))
    made = [newer.users.create(name) for name in ("ann", "bob")]
    users = [u["id"] for u in made]
    mid = create_started(newer, users[0], newer.games["uchronia"], users)
    assert newer.matches.load(mid).game.rules_version == BUMPED
    yield newer, mid, made
    newer.live.stop()
    newer.users.cache.close()


def test_older_code_refuses_a_newer_match_with_409(newer_match, client, wiring):
    """Summary, state, legal, log, page and a command: 409 with the version named; nothing appended."""
    newer, mid, (ann, _bob) = newer_match
    headers = {"Authorization": f"Bearer {ann['token']}"}
    length = newer.store.version(mid)
    for path in (f"/api/matches/{mid}", f"/api/matches/{mid}/state", f"/api/matches/{mid}/legal"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 409, (path, answer.status_code, answer.get_data(as_text=True)[:200])
        error = answer.get_json()["error"]
        assert error["code"] == "rules_version_unavailable" and BUMPED in error["message"], error
    page = client.get(f"/matches/{mid}")
    assert page.status_code == 409 and "Traceback" not in page.get_data(as_text=True)
    client.set_cookie("lang", "ru")
    russian = client.get(f"/matches/{mid}")
    assert russian.status_code == 409 and "по более новым правилам" in russian.get_data(as_text=True)
    command = client.post(f"/api/matches/{mid}/commands", headers=headers,
                          json={"type": "discard_to_forum", "payload": {"color": "red"}})
    assert command.status_code == 409 and command.get_json()["error"]["code"] == "rules_version_unavailable"
    assert newer.store.version(mid) == length, "nothing was appended"
    assert newer.matches.load(mid).game.rules_version == BUMPED, "the newer deploy still serves it"
