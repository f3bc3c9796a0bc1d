"""Projection jobs: checkpoints, idempotence, the reconciler for lost enqueues, and a full rebuild."""
from __future__ import annotations

import json

from service.cli import main
from tests.conftest import drain_projections
from workers.jobs import lagging_partitions, project_partition, reconcile
from tests.invites import start_http


def new_match(client, make_user, game="dice-race"):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": game, "players": [ann, bob]}, hb)
    return mid, ann, ha, bob, hb


def test_job_is_idempotent_and_checkpointed(client, make_user, wiring):
    """Running a partition's job twice writes rows once; the checkpoint reaches the log's end."""
    mid, *_ = new_match(client, make_user)
    p = wiring.store.keys.partition(mid)
    assert project_partition(p) == 1
    assert project_partition(p) == 0
    last_log_id = wiring.redis.xrevrange(wiring.store.keys.log(p), count=1)[0][0]
    assert wiring.redis.get(wiring.store.keys.checkpoint(p)) == last_log_id
    row = json.loads(wiring.redis.get(wiring.store.keys.summary(mid)))
    assert row["version"] == 4 and row["status"] == "active"


def test_reconciler_finds_partitions_whose_enqueue_was_lost(client, make_user, wiring):
    """With no job enqueued (the trigger is off), the reconciler enqueues the lagging partition."""
    mid, ann, ha, *_ = new_match(client, make_user)
    p = wiring.store.keys.partition(mid)
    assert lagging_partitions(wiring) == [p]
    assert reconcile() == [p]
    drain_projections(wiring)
    assert lagging_partitions(wiring) == []
    assert [m["id"] for m in client.get("/api/users/me/inbox", headers=ha).get_json()["matches"]] == [mid]


def test_a_stale_row_never_overwrites_a_newer_one(client, make_user, wiring):
    """Rows are keyed by version: replaying an older fold writes nothing."""
    from domain.engine import aggregate as agg
    from projections.writer import ProjectionWriter
    mid, ann, ha, *_ = new_match(client, make_user)
    client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha)
    drain_projections(wiring)
    old = agg.fold(mid, wiring.store.read_range(mid, 1, 4), wiring.games)
    writer = ProjectionWriter(wiring.redis, wiring.store.keys)
    assert writer.apply(wiring.store.keys.partition(mid), [old], "0-1") == []
    assert json.loads(wiring.redis.get(wiring.store.keys.summary(mid)))["version"] == 5


def test_rebuild_restores_every_read_model(client, make_user, wiring, monkeypatch, capsys):
    """`turnstream projections rebuild` drops the read models and rebuilds them from the streams."""
    mid, ann, ha, bob, hb = new_match(client, make_user, game="uchronia")
    legal = client.get(f"/api/matches/{mid}/legal", headers=ha).get_json()["commands"]
    assert client.post(f"/api/matches/{mid}/commands", json=legal[0], headers=ha).status_code == 201
    drain_projections(wiring)
    before = client.get(f"/api/matches?player={ann}").get_json()["matches"]
    wiring.redis.delete(wiring.store.keys.summary(mid), wiring.store.keys.inbox(bob))
    assert client.get("/api/users/me/inbox", headers=hb).get_json()["matches"] == []
    assert client.get(f"/api/matches?player={ann}").get_json()["matches"] == []
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    assert main(["projections", "rebuild"]) == 0
    out = capsys.readouterr().out
    assert "rebuilt: 1 match rows" in out and "partitions 64/64" in out
    assert [m["id"] for m in client.get("/api/users/me/inbox", headers=hb).get_json()["matches"]] == [mid]
    after = client.get(f"/api/matches?player={ann}").get_json()["matches"]
    assert [(m["id"], m["version"]) for m in after] == [(m["id"], m["version"]) for m in before]
