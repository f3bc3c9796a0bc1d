"""AtomicWrites: the commands a MULTI would queue, run in order by one script call."""
from __future__ import annotations

import threading

import pytest
from redis.exceptions import ResponseError

from projections.atomic_writes import AtomicWrites


def test_queued_commands_run_in_order_in_one_call(redis_client, monkeypatch):
    writes = AtomicWrites(redis_client)
    writes.set("a", "first value, with spaces")
    writes.set("a", "é ünïcode \0 and a nul")  # the later write wins: order is kept
    writes.zadd("z", {"m1": 1.5, "m2": 1e16})
    writes.zrem("z", "m1")
    writes.xadd("s", {"m": "x", "v": 3}, maxlen=10, approximate=True)
    calls, here = [], threading.get_ident()
    real = redis_client.execute_command  # this client's calls from this thread only: a script another thread of
    monkeypatch.setattr(redis_client, "execute_command",  # the process runs meanwhile is no call of this test's
                        lambda *a, **k: (threading.get_ident() == here and calls.append(a[0])) or real(*a, **k))
    assert writes.execute() == 5
    monkeypatch.undo()
    assert calls in (["EVALSHA"], ["EVALSHA", "EVAL"], ["EVALSHA", "SCRIPT LOAD", "EVALSHA"])
    assert redis_client.get("a") == "é ünïcode \0 and a nul"
    assert redis_client.zrange("z", 0, -1, withscores=True) == [("m2", 1e16)]
    assert redis_client.xrange("s")[0][1] == {"m": "x", "v": "3"}
    assert writes.execute() == 0  # emptied: nothing runs twice


def test_a_failing_command_raises(redis_client):
    redis_client.set("plain", "v")
    writes = AtomicWrites(redis_client)
    writes.zadd("plain", {"m": 1})  # WRONGTYPE
    with pytest.raises(ResponseError):
        writes.execute()
