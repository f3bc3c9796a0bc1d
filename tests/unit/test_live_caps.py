"""The live streams' bookkeeping without Redis: caps per user, per anonymous address and per process, a
stream whose client stopped reading being ended instead of queueing without bound, and the browser
stream's cursor (resumable, and never a version twice on one connection)."""
from __future__ import annotations

import pytest

from service.web.api.stream import RESUME_SLACK_MS, UserWriter, parse_cursor
from service.app.live import MAX_QUEUED, StreamCaps, StreamsFull, Subscriber


def test_caps_count_users_and_anonymous_addresses_apart_and_release():
    caps = StreamCaps(per_process=5, per_user=2, per_address=1)
    ann = [Subscriber("ann", "10.0.0.1"), Subscriber("ann", "10.0.0.1")]
    for sub in ann:
        caps.admit(sub)
    with pytest.raises(StreamsFull) as full:
        caps.admit(Subscriber("ann", "10.0.0.2"))
    assert full.value.which == "user"
    caps.admit(Subscriber(None, "10.0.0.1"))  # anonymous from ann's address: counted per address
    with pytest.raises(StreamsFull) as full:
        caps.admit(Subscriber(None, "10.0.0.1"))
    assert full.value.which == "address"
    caps.admit(Subscriber("bob", "10.0.0.1"))
    caps.admit(Subscriber(None, "10.0.0.9"))
    with pytest.raises(StreamsFull) as full:
        caps.admit(Subscriber("eve", "10.0.0.3"))
    assert full.value.which == "process" and caps.total == 5
    caps.release(ann[0])
    caps.admit(Subscriber("ann", "10.0.0.1"))
    assert caps.users["ann"] == 2 and caps.total == 5


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
