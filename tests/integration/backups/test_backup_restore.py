"""Operator backup and restore: export --all -> a fresh Redis -> import gives every match's state, audit and
legal commands back identical, players sign in with their old tokens and play on; bad files are refused."""
from __future__ import annotations

import json

from service import create_app
from service.app.backup import export_all, import_files
from tests.conftest import drain_projections
from tests.integration.backups.populating import listed, main_with, play, populate, seen


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


