"""Projection delivery: checkpoints, idempotence, and a full rebuild (with a follower running)."""
from __future__ import annotations

import json

from service.cli import main
from tests.conftest import drain_projections
from projections.delivery import catch_up, lagging_partitions
from tests.invites import start_http


def new_match(client, make_user, game="dice-race"):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": game, "players": [ann, bob]}, hb)
    return mid, ann, ha, bob, hb


def test_catch_up_is_idempotent_and_checkpointed(client, make_user, wiring):
    """Catching a partition up twice writes rows once; the checkpoint reaches the log's end."""
    mid, *_ = new_match(client, make_user)
    p = wiring.store.keys.partition(mid)
    assert lagging_partitions(wiring.redis, wiring.store.keys) == [p]
    assert catch_up(wiring.projector, p) == 1
    assert catch_up(wiring.projector, p) == 0
    assert lagging_partitions(wiring.redis, wiring.store.keys) == []
    last_log_id = wiring.redis.xrevrange(wiring.store.keys.log(p), count=1)[0][0]
    assert wiring.redis.get(wiring.store.keys.checkpoint(p)) == last_log_id
    row = json.loads(wiring.redis.get(wiring.store.keys.summary(mid)))
    assert row["version"] == 4 and row["status"] == "active"


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
    assert "rebuilt: 1 match rows" in out and "partitions rebuilt 64/64" in out
    assert [m["id"] for m in client.get("/api/users/me/inbox", headers=hb).get_json()["matches"]] == [mid]
    after = client.get(f"/api/matches?player={ann}").get_json()["matches"]
    assert [(m["id"], m["version"]) for m in after] == [(m["id"], m["version"]) for m in before]


def test_rebuild_takes_the_partitions_over_from_a_running_follower_and_gives_them_back(client, make_user, wiring):
    """With a worker's follower holding every partition, a rebuild pauses it, rebuilds every row (none left
    empty), and the follower then projects the next command again; a projector that never pauses makes the
    rebuild refuse before it drops anything."""
    import threading

    import pytest

    from projections.follower import start_follower
    from projections.leases import Leases
    from projections.rebuild import RebuildRefused, rebuild_projections
    from tests.waiting import wait_for
    mid, ann, ha, *_ = new_match(client, make_user)
    stop = threading.Event()
    thread = start_follower(wiring.projector, "running-worker", stop,
                            gather_seconds=wiring.settings.follow_gather_ms / 1000)
    try:
        wait_for(lambda: lagging_partitions(wiring.redis, wiring.store.keys) == [], 10,
                 "the follower to project the new match")
        assert rebuild_projections(wiring.projector, say=lambda line: None) == 1
        assert json.loads(wiring.redis.get(wiring.store.keys.summary(mid)))["version"] == 4
        assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
        wait_for(lambda: json.loads(wiring.redis.get(wiring.store.keys.summary(mid)))["version"] == 5, 15,
                 "the follower to resume after the rebuild")
    finally:
        stop.set()
        thread.join(5)
    stuck = Leases(wiring.redis, wiring.store.keys, "an-old-worker")
    assert stuck.take(3)
    with pytest.raises(RebuildRefused):
        rebuild_projections(wiring.projector, say=lambda line: None, wait_seconds=0.5)
    assert wiring.redis.get(wiring.store.keys.summary(mid)) is not None, "nothing was dropped"
    stuck.release(3)


def test_rebuild_builds_beside_the_live_read_models_and_switches(client, make_user, wiring):
    """While a rebuild runs, the live rows, lists and inboxes stay readable and never empty; the switch replaces
    them, removes a row whose match no longer exists and the keys a rebuild that died left, and leaves no
    shadow key behind."""
    import threading

    from projections import rebuild
    from projections.shadow import shadow
    from tests.waiting import wait_for
    mid, ann, ha, bob, hb = new_match(client, make_user)
    drain_projections(wiring)
    keys = wiring.store.keys
    ghost = keys.summary("m_ghost")  # a row left by a match that is gone: the rebuild does not write it again
    wiring.redis.set(ghost, json.dumps({"id": "m_ghost", "version": 1}))
    leftover = shadow(keys.inbox("someone"))  # a rebuild killed before its switch left this
    wiring.redis.zadd(leftover, {"m_x": 1})
    seen, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            seen.append((wiring.redis.get(keys.summary(mid)) is not None,
                         wiring.redis.zscore(keys.player_index(ann), mid) is not None))

    original = rebuild._switch

    def slow_switch(w):
        wait_for(lambda: len(seen) > 50, 10, "the watcher to read the live read models during the rebuild")
        assert wiring.redis.get(keys.summary(mid)) is not None, "the live row stays while the shadow is built"
        assert wiring.redis.get(shadow(keys.summary(mid))) is not None, "the shadow row is built beside it"
        played = client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha)
        assert played.status_code == 201, "commands land while a rebuild runs"
        return original(w)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        rebuild._switch = slow_switch
        assert rebuild.rebuild_projections(wiring.projector, say=lambda line: None) == 1
    finally:
        rebuild._switch = original
        stop.set()
        watcher.join(5)
    assert seen and all(row and listed for row, listed in seen), "a reader found a read model missing"
    assert wiring.redis.get(ghost) is None
    assert json.loads(wiring.redis.get(keys.summary(mid)))["version"] == 4
    drain_projections(wiring)  # the command that landed before the switch is projected after it
    assert json.loads(wiring.redis.get(keys.summary(mid)))["version"] == 5
    assert [m["id"] for m in client.get(f"/api/matches?player={ann}").get_json()["matches"]] == [mid]
    assert not list(wiring.redis.scan_iter(match="*rebuild*")), "no shadow key is left after the switch"


def test_trimmed_logs_keep_what_is_not_projected_and_a_rebuild_still_finds_every_match(client, make_user, wiring):
    """Trimming removes only log entries before their partition's checkpoint and older than the kept hours; a
    rebuild after it lists every match as before (found by their meta keys); a live stream asked to resume from
    before the kept hours is told to reload."""
    import time

    from projections import rebuild
    from projections.log_trim import trim_logs
    from service.app.live import Subscriber
    made = [new_match(client, make_user) for _ in range(3)]
    for mid, ann, ha, *_ in made:
        assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    drain_projections(wiring)
    keys = wiring.store.keys
    now = int(time.time() * 1000)
    lists = {ann: client.get(f"/api/matches?player={ann}").get_json()["matches"] for _m, ann, *_ in made}
    assert trim_logs(wiring.redis, wiring.store.keys, 1.0, now_ms=now, exact=True) == 0, \
        "nothing older than the kept hour"
    late = made[0][0]
    p = keys.partition(late)
    wiring.redis.set(keys.checkpoint(p), "0-1")  # as if partition p's projector were behind
    before = sum(wiring.redis.xlen(keys.log(q)) for q in range(keys.partitions))
    removed = trim_logs(wiring.redis, wiring.store.keys, 0.0, now_ms=now + 3_600_000, exact=True)
    left = {q: wiring.redis.xlen(keys.log(q)) for q in range(keys.partitions) if wiring.redis.xlen(keys.log(q))}
    assert removed > 0 and sum(left.values()) == before - removed
    assert wiring.redis.xlen(keys.log(p)) >= 2, "entries after the checkpoint are kept"
    assert all(n == 1 or q == p for q, n in left.items()), "elsewhere only each checkpoint's own entry is kept"
    drain_projections(wiring)  # partition p catches up from its checkpoint: its entries were kept
    gone = made[1][0]
    wiring.redis.xtrim(keys.log(keys.partition(gone)), maxlen=0)  # no entry of this match left in any log
    assert rebuild.rebuild_projections(wiring.projector, say=lambda line: None) == 3
    assert {ann: client.get(f"/api/matches?player={ann}").get_json()["matches"] for _m, ann, *_ in made} == lists
    sub = Subscriber(made[0][1], "127.0.0.1", matches=[late])
    hub = wiring.live
    assert hub.replay_since(sub, now - 60_000) is not None
    assert hub.replay_since(sub, now - int(wiring.settings.log_keep_hours * 3_600_000) - 60_000) is None
