"""A history that lost its last acknowledged events (a failover to a replica that had not caught up, a restore
from an old backup) is shorter, never forked: the hash chain still verifies, and `turnstream audit` says its head
moved backwards, from a head a player kept or from the server's newest replay snapshot."""
from __future__ import annotations

import dataclasses
import random

from service.app.history import History
from service.bootstrap import build
from service.cli import main as cli_main
from service.cli.golden import play_one
from tests.conftest import drain_projections
from tests.invites import create_started


def lose_events_after(w, match_id: str, keep: int) -> None:
    """What a failover to a lagging replica leaves: the stream and its meta as they were at version `keep`."""
    keys = w.store.keys
    kept = w.store.read_range(match_id, keep, keep)[0]
    doomed = [entry_id for entry_id, _ in w.redis.xrange(keys.stream(match_id)) if int(entry_id.split("-")[1]) > keep]
    w.redis.xdel(keys.stream(match_id), *doomed)
    w.redis.hset(keys.meta(match_id), mapping={"version": keep, "head": kept["hash"]})
    w.matches.cache.evict(match_id)


def test_a_history_that_moved_backwards_is_reported(settings, redis_client, games, monkeypatch, capsys):
    """12 moves, snapshots every 5, then everything after version 6 lost: the chain verifies, the audit fails
    naming the head at version 10 past the end at 6; a player's kept head at 12 is named too."""
    w = build(dataclasses.replace(settings, snapshot_every=5), games=games)
    try:
        game = w.games["uchronia"]
        mid = create_started(w, "u_ann", game, ["u_ann", "u_bob"])
        history, rnd = History.from_wiring(w), random.Random(4)
        while w.store.version(mid) < 12:
            play_one(w.matches, history, mid, rnd)
        drain_projections(w)
        assert max(w.matches.snapshots.versions(mid)) >= 10
        last = w.store.read_range(mid, 12, 12)[0]
        assert history.audit(mid)["ok"]
        lose_events_after(w, mid, 6)
        report = history.audit(mid, [(12, last["hash"])])
        assert not report["ok"] and report["broken_at"] is None, "shorter, not forked"
        backwards = [p for p in report["problems"] if "moved backwards" in p]
        assert len(backwards) == 2 and all("ends at version 6" in p for p in backwards), report["problems"]
        monkeypatch.setenv("REDIS_URL", settings.redis_url)
        assert cli_main(["audit", mid]) == 1
        assert "moved backwards" in capsys.readouterr().out
    finally:
        w.live.stop()
        w.users.cache.close()
