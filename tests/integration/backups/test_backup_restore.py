"""Operator backup and restore: export --all -> a fresh Redis -> import gives every match's state, audit and
legal commands back identical, players sign in with their old tokens and play on; bad files are refused."""
from __future__ import annotations

import json
import random

import pytest

from service import create_app
from service.app.backup import export_all, import_files
from service.cli import main
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis
from service.bootstrap import build
from tests.conftest import drain_projections
from tests.invites import start_http


def play(client, match_id, tokens, steps, seed):
    """Random legal commands by whoever is to move."""
    chooser = random.Random(seed)
    for _ in range(steps):
        summary = client.get(f"/api/matches/{match_id}").get_json()
        if summary["status"] != "active" or not summary["active_players"]:
            return
        auth = tokens[summary["active_players"][0]]
        legal = client.get(f"/api/matches/{match_id}/legal", headers=auth).get_json()
        cmd = dict(chooser.choice(legal["commands"]), expected_version=legal["version"])
        assert client.post(f"/api/matches/{match_id}/commands", json=cmd, headers=auth).status_code == 201


def seen(client, match_ids, tokens) -> dict:
    """Everything a player or spectator can read of each match: summary, views, legal commands, audit, events."""
    out = {}
    for mid in match_ids:
        out[mid] = {"summary": client.get(f"/api/matches/{mid}").get_json(),
                    "audit": client.get(f"/api/matches/{mid}/audit").get_json(),
                    "spectator": client.get(f"/api/matches/{mid}/state").get_json(),
                    "events": client.get(f"/api/matches/{mid}/events?after=0").get_json()}
        for uid, auth in tokens.items():
            out[mid][uid] = (client.get(f"/api/matches/{mid}/state", headers=auth).get_json(),
                             client.get(f"/api/matches/{mid}/legal", headers=auth).get_json())
    return out


def listed(client) -> dict:
    """The match lists by status (from the projections), as sets of ids."""
    return {s: {m["id"] for m in client.get(f"/api/matches?status={s}").get_json()["matches"]}
            for s in ("open", "active", "finished")}


@pytest.fixture
def fresh_wiring(tmp_path, games):
    """Wiring on a second, empty Redis server."""
    from workers import context
    server = EmbeddedRedis(tmp_path / "fresh", appendfsync="no").start()
    w = build(Settings(redis_url=server.url, rate_limit_per_minute=100000), games=games)
    yield w
    context.use(None)
    server.stop()


def populate(client, make_user):
    """Three users; a long Uchronia match, a finished dice race, an open match; returns (tokens, match ids)."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    make_user("cyd")
    tokens = {ann: ha, bob: hb}
    assert client.put("/api/users/me/webhook", json={"url": "https://example.com/hook"}, headers=ha).status_code == 200
    long_match = start_http(client, ha, {"game": "uchronia", "players": [ann, bob]}, hb)
    play(client, long_match, tokens, 30, seed=1)
    race = start_http(client, hb, {"game": "dice-race", "players": [ann, bob], "options": {"target": 3}}, ha)
    play(client, race, tokens, 60, seed=2)
    opened = client.post("/api/matches", json={"game": "uchronia", "seats": 3}, headers=hb).get_json()["id"]
    return tokens, [long_match, race, opened]


def test_round_trip_into_a_fresh_redis(client, wiring, make_user, fresh_wiring, tmp_path):
    """Identical reads after the restore, the same tokens work, play goes on, and a second import refuses."""
    tokens, ids = populate(client, make_user)
    drain_projections(wiring)
    before, lists = seen(client, ids, tokens), listed(client)
    assert lists["finished"] == {ids[1]} and before[ids[1]]["summary"]["status"] == "finished"
    manifest = export_all(wiring, tmp_path / "backup", say=lambda _m: None)
    assert manifest["matches"] == 3 and manifest["users"] == 3
    doc = json.loads((tmp_path / "backup" / "matches" / f"{ids[0]}.json").read_text())
    assert doc["kind"].startswith("turnstream-operator-backup") and doc["secret_seed"] and doc["seed"] is None
    users_text = (tmp_path / "backup" / "users.json").read_text()
    assert all(auth["Authorization"].split()[1] not in users_text for auth in tokens.values())

    counts = import_files(fresh_wiring, [tmp_path / "backup"], say=lambda _m: None)
    assert counts["refused"] == [] and counts["matches"] == 3 and counts["users"] == 3
    restored = create_app(wiring=fresh_wiring).test_client()
    assert seen(restored, ids, tokens) == before
    assert listed(restored) == lists
    assert restored.get("/api/users?name=cy").get_json()["users"][0]["name"] == "cyd"
    me = restored.get("/api/users/me", headers=tokens[next(iter(tokens))]).get_json()
    assert me["name"] == "ann"
    assert fresh_wiring.users.get(me["id"])["webhook"] == "https://example.com/hook"
    version = before[ids[0]]["summary"]["version"]
    play(restored, ids[0], tokens, 3, seed=3)
    assert restored.get(f"/api/matches/{ids[0]}").get_json()["version"] > version
    assert restored.get(f"/api/matches/{ids[0]}/audit").get_json()["ok"]

    again = import_files(fresh_wiring, [tmp_path / "backup"], say=lambda _m: None)
    assert again["matches"] == 0 and len(again["refused"]) == 6  # 3 users and 3 matches already there


def test_a_tampered_or_public_export_is_refused(client, wiring, make_user, fresh_wiring, tmp_path, capsys):
    """A changed event breaks the chain and nothing is written; a player's export (no seed) is no backup."""
    tokens, ids = populate(client, make_user)
    export_all(wiring, tmp_path / "backup", say=lambda _m: None)
    path = tmp_path / "backup" / "matches" / f"{ids[0]}.json"
    doc = json.loads(path.read_text())
    doc["events"][-1]["actor"] = "someone-else"
    path.write_text(json.dumps(doc))
    public = tmp_path / "public.json"
    assert main_with(wiring, ["export", ids[0], "-o", str(public)]) == 0
    counts = import_files(fresh_wiring, [path, public], say=lambda _m: None)
    assert counts["matches"] == 0 and len(counts["refused"]) == 2
    assert "chain does not verify" in counts["refused"][0] and "only an operator backup" in counts["refused"][1]
    assert fresh_wiring.store.version(ids[0]) == 0


def main_with(w, argv) -> int:
    """Run the CLI against the wiring's Redis."""
    import os
    old = os.environ.get("REDIS_URL")
    os.environ["REDIS_URL"] = w.settings.redis_url
    try:
        return main(argv)
    finally:
        if old is None:
            os.environ.pop("REDIS_URL", None)
        else:
            os.environ["REDIS_URL"] = old
