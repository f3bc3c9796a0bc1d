"""DirectCalls: a hot command on connections kept apart from the client's pool answers as the client does, never
reads another command's reply, and rides out a lost connection and a failover as the client's own retry does."""
from __future__ import annotations

import fakeredis
import pytest
import redis

from service.config import Settings
from service.server.redis_group import RedisGroup
from service.store.connections import DirectCalls, direct_calls, make_redis
from tests.waiting import wait_for

SCRIPT = "redis.call('SET', KEYS[1], ARGV[1]); return {'ok', ARGV[1]}"


def test_answers_as_the_client(redis_client):
    """A script's reply, a reply error and a missing script read as from the client; the connection serves on."""
    calls = direct_calls(redis_client)
    sha = redis_client.script_load(SCRIPT)
    assert calls("EVALSHA", sha, 1, "k", "v1") == redis_client.execute_command("EVALSHA", sha, 1, "k", "v1")
    with pytest.raises(redis.exceptions.NoScriptError):
        calls("EVALSHA", "0" * 40, 0)
    with pytest.raises(redis.exceptions.ResponseError):
        calls("INCR", "k")
    assert calls("GET", "k") == "v1" and len(calls.idle) == 1


def test_a_reply_left_unread_is_never_read_by_the_next_command(redis_client, monkeypatch):
    """A caller stopped between send and reply (a timeout of its own) leaves a reply on the socket: that connection
    is closed, so the next command reads its own reply."""
    calls = direct_calls(redis_client)
    redis_client.set("a", "1")
    redis_client.set("b", "2")
    conn = redis_client.connection_pool.make_connection()
    calls.idle.append(conn)

    class Stopped(BaseException):
        """What gevent.Timeout is: not an Exception."""

    monkeypatch.setattr(conn, "read_response", lambda *a, **k: (_ for _ in ()).throw(Stopped()))
    with pytest.raises(Stopped):
        calls("GET", "a")
    monkeypatch.undo()
    assert calls("GET", "b") == "2"


def test_a_lost_connection_is_retried_through_the_client(redis_client):
    """A connection the server closed is dropped and the command sent again through the client (its retries)."""
    calls = direct_calls(redis_client)
    calls("SET", "k", "1")
    own = calls("CLIENT", "ID")
    redis_client.execute_command("CLIENT", "KILL", "ID", own)
    assert calls("GET", "k") == "1"
    assert calls("CLIENT", "ID") != own


def test_only_plain_clients(redis_url):
    """A fakeredis client, a single-connection client and a cluster's take their own path."""
    assert direct_calls(fakeredis.FakeRedis()) is None
    assert direct_calls(redis.Redis.from_url(redis_url, single_connection_client=True)) is None
    assert isinstance(direct_calls(redis.Redis.from_url(redis_url)), DirectCalls)


def test_follows_a_failover(tmp_path):
    """Through sentinels, a command after SENTINEL FAILOVER reaches the new primary and the pool counts the
    change (the count voids a WAIT's confirmation: service/store/replication.py)."""
    group = RedisGroup(tmp_path, link=False, down_after_ms=1000).start()
    try:
        settings = Settings(redis_url="redis://127.0.0.1:1/0",
                            redis_sentinels=tuple(("127.0.0.1", s.port) for s in group.sentinels))
        client = make_redis(settings)
        calls = direct_calls(client)
        def at_primary() -> bool:
            return calls("CONFIG", "GET", "port")[1] == str(group.primary_port())
        assert calls("SET", "before", "1") == "OK" and at_primary()
        first = group.primary_port()
        redis.Redis(port=group.sentinels[0].port).execute_command("SENTINEL", "FAILOVER", group.master)
        wait_for(lambda: group.primary_port() not in (None, first), 30, "the sentinels to name a new primary")

        def written() -> bool:  # the old primary takes writes until the sentinels demote it, as for any client
            try:
                return calls("SET", "after", "1") == "OK" and at_primary()
            except redis.RedisError:  # the old primary, now a replica, refuses; the connection asks the sentinels
                return False
        wait_for(written, 30, "a write through the new primary", interval=0.2)
        assert redis.Redis(port=group.primary_port(), decode_responses=True).get("after") == "1"
        assert calls("GET", "before") == "1" and client.connection_pool.failovers == 1
    finally:
        group.stop()
