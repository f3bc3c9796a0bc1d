"""REDIS_SENTINELS: the service's connections (events, live streams, RQ queues) find the primary through real
sentinels and follow a failover by themselves; the link that stands for a host's network relays and cuts."""
from __future__ import annotations

import socket

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.config import Settings
from service.server.redis_group import Link, RedisGroup
from service.store.connections import check_topology, make_queue_redis, make_redis, make_stream_redis, redis_problem
from tests.waiting import wait_for


@pytest.fixture(scope="module")
def group(tmp_path_factory):
    """A primary, two replicas and three sentinels (no link: the failover here is asked for, not caused)."""
    started = RedisGroup(tmp_path_factory.mktemp("group"), link=False, down_after_ms=1000).start()
    yield started
    started.stop()


def sentinel_settings(group: RedisGroup) -> Settings:
    """Settings naming the group's sentinels (REDIS_URL's host is not used, its database is)."""
    return Settings(redis_url="redis://127.0.0.1:1/0", redis_sentinels=tuple(("127.0.0.1", s.port)
                                                                             for s in group.sentinels))


def test_every_connection_follows_a_failover(group, caplog):
    """Writes through each connection reach the primary; after SENTINEL FAILOVER they reach the new one, and the
    events pool counts and logs the change it followed."""
    settings = sentinel_settings(group)
    check_topology(settings, queues=True)  # REDIS_URL's host is never asked
    events, streams, queues = make_redis(settings), make_stream_redis(settings, 1.0), make_queue_redis(settings)
    for client in (events, streams, queues):
        client.set("before", "1")
    first = group.primary_port()
    assert events.connection_pool.failovers == 0
    redis.Redis(port=group.sentinels[0].port).execute_command("SENTINEL", "FAILOVER", group.master)
    wait_for(lambda: group.primary_port() not in (None, first), 30, "the sentinels to name a new primary")

    def written(client) -> bool:
        try:
            return bool(client.set("after", "1"))
        except redis.RedisError:  # the old primary, now a replica, refuses; the pool asks the sentinels again
            return False
    for client in (events, streams, queues):
        wait_for(lambda: written(client), 30, "a write through the new primary", interval=0.2)
    assert events.get("before") == "1"
    assert events.connection_pool.failovers == 1
    assert any("Redis failover followed" in r.getMessage() for r in caplog.records)


def test_unreachable_sentinels_are_said_in_one_line():
    """An outage through sentinels names them and the master asked for."""
    settings = Settings(redis_sentinels=(("127.0.0.1", 1),), redis_sentinel_master="games")
    with pytest.raises(redis.ConnectionError) as caught:
        make_redis(settings).ping()
    line = redis_problem(caught.value, settings)
    assert "'games'" in line and "127.0.0.1:1" in line and "\n" not in line


def test_a_cut_link_resets_its_connections_and_refuses_new_ones(group):
    """Through the link a client talks to the primary; once cut, the connection is reset and a new one refused."""
    link = Link(group.primary.port).start()
    client = redis.Redis(port=link.port, socket_timeout=2, retry=Retry(NoBackoff(), 0))
    assert client.ping()
    link.cut()
    with pytest.raises(redis.ConnectionError):
        client.ping()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", link.port), timeout=1).recv(1)
