"""The live hub's feed of the partition logs and change feeds (service/store/log_feed.py), on a real Redis and
on fakeredis, read as on a plain Redis (XREAD BLOCK) and as on a cluster (a polled pipeline)."""
from __future__ import annotations

import fakeredis
import pytest

from service.store.keys import Keys
from service.store.log_feed import RedisLogFeed


@pytest.fixture(params=[("redis", False), ("redis", True), ("fakeredis", False), ("fakeredis", True)],
                ids=["redis", "redis-polled", "fakeredis", "fakeredis-polled"])
def feed(request):
    """A feed over 4 partitions with a short block."""
    backend, cluster = request.param
    client = request.getfixturevalue("redis_client") if backend == "redis" else fakeredis.FakeRedis(
        decode_responses=True)
    return RedisLogFeed(client, Keys(4), cluster=cluster, block_ms=50, batch=10)


def test_new_entries_after_the_latest_positions(feed):
    """latest() names every log and change feed; read() gives what was appended after it, per key, in order."""
    keys = feed.keys
    start = feed.latest()
    assert set(start) == {keys.log(p) for p in range(4)} | {keys.changes(p) for p in range(4)}
    assert set(start.values()) == {"0-0"} and feed.read(start) == []
    first = feed.r.xadd(keys.log(1), {"m": "a", "v": "1"})
    feed.r.xadd(keys.log(1), {"m": "a", "v": "2"})
    feed.r.xadd(keys.changes(2), {"m": "b"})
    found = dict(feed.read(start))
    assert [f["v"] for _id, f in found[keys.log(1)]] == ["1", "2"]
    assert [f["m"] for _id, f in found[keys.changes(2)]] == ["b"]
    assert feed.is_changes(keys.changes(2)) and not feed.is_changes(keys.log(2))
    later = dict(feed.read({**start, keys.log(1): first}))
    assert feed.latest()[keys.log(1)] != first and [f["v"] for _id, f in later[keys.log(1)]] == ["2"]


def test_entries_since_a_time_and_the_limit(feed):
    """since() gives every log's entries from a time on (no change feed), None when a log holds `limit` or more."""
    keys = feed.keys
    for v in range(3):
        feed.r.xadd(keys.log(0), {"m": "a", "v": str(v + 1)})
    feed.r.xadd(keys.log(3), {"m": "c", "v": "1"})
    feed.r.xadd(keys.changes(3), {"m": "c"})
    assert sorted((f["m"], f["v"]) for _id, f in feed.since(0, 10)) == [("a", "1"), ("a", "2"), ("a", "3"), ("c", "1")]
    assert feed.since(0, 3) is None and feed.since(10 ** 13, 3) == []


def test_played_by_reads_the_match_index(feed):
    """played_by: whether the user's match index lists each match."""
    feed.r.zadd(feed.keys.player_index("u_1"), {"m1": 5.0, "m3": 0.0})
    assert feed.played_by("u_1", ["m1", "m2", "m3"]) == [True, False, True]
