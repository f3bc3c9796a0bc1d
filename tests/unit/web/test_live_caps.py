"""The live streams' bookkeeping without Redis: caps per user, per address (every stream) and per process, a
stream whose client stopped reading being ended instead of queueing without bound, and the browser
stream's cursor (resumable, and never a version twice on one connection)."""
from __future__ import annotations

import pytest

from service.web.api.stream import RESUME_SLACK_MS, UserWriter, parse_cursor
from service.app.live import MAX_QUEUED, StreamCaps, StreamsFull, Subscriber


def test_caps_count_every_stream_per_address_and_signed_in_ones_per_user_and_release():
    caps = StreamCaps(per_process=6, per_user=2, per_address=3)
    ann = [Subscriber("ann", "10.0.0.1"), Subscriber("ann", "10.0.0.2")]
    for sub in ann:
        caps.admit(sub)
    with pytest.raises(StreamsFull) as full:
        caps.admit(Subscriber("ann", "10.0.0.3"))
    assert full.value.which == "user", "a user's streams count together, from any address"
    caps.admit(Subscriber(None, "10.0.0.1"))
    caps.admit(Subscriber("bob", "10.0.0.1"))  # 10.0.0.1 now holds ann's, an anonymous one and bob's
    for who in (None, "cyd"):
        with pytest.raises(StreamsFull) as full:
            caps.admit(Subscriber(who, "10.0.0.1"))
        assert full.value.which == "address", "every stream of an address counts, signed in or not"
    caps.admit(Subscriber(None, "10.0.0.9"))
    caps.admit(Subscriber("eve", "10.0.0.4"))
    with pytest.raises(StreamsFull) as full:
        caps.admit(Subscriber("fay", "10.0.0.5"))
    assert full.value.which == "process" and caps.total == 6
    caps.release(ann[0])
    assert caps.users["ann"] == 1 and caps.addresses["10.0.0.1"] == 2 and caps.total == 5
    caps.admit(Subscriber("cyd", "10.0.0.1"))
    assert caps.addresses["10.0.0.1"] == 3 and caps.total == 6


def test_many_accounts_from_one_address_hold_no_more_than_the_address_cap():
    """The probe: 63 accounts from one address each opening as many streams as their own cap allows held
    3,815 streams; every stream of the address counts now."""
    caps = StreamCaps(per_process=5000, per_user=32, per_address=64)
    held = 0
    for n in range(63):
        for _ in range(32):
            try:
                caps.admit(Subscriber(f"u_{n:012x}", "203.0.113.7"))
                held += 1
            except StreamsFull as full:
                assert full.which == "address"
    assert held == 64 == caps.addresses["203.0.113.7"]


def test_a_stream_that_stops_reading_is_ended_not_grown():
    sub = Subscriber("ann", "10.0.0.1")
    for i in range(MAX_QUEUED + 5):
        sub.push(("event", "m_1", i, "{}", 0))
    assert sub.closed and len(sub.queue) == MAX_QUEUED
    assert len(sub.take(0)) == MAX_QUEUED and sub.take(0) == []


def test_the_cursor_lists_recent_matches_and_no_version_is_sent_twice_after_it_forgot_one():
    writer = UserWriter(1_000)
    assert writer.message(("event", "m_a", 5, "{}", 1_000)).startswith("event: match\nid: 1000.m_a:5\n")
    later = 1_000 + RESUME_SLACK_MS + 1
    writer.message(("event", "m_b", 1, "{}", later))
    assert parse_cursor(writer.cursor()) == (later, {"m_b": 1}), "m_a is older than the slack: left out"
    assert writer.message(("event", "m_a", 5, "{}", 1_000)) is None, "still never twice on this connection"
    assert writer.message(("event", "m_a", 6, "{}", later)) is not None
    assert parse_cursor(writer.cursor()) == (later, {"m_a": 6, "m_b": 1})
