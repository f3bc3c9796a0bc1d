"""Presence marks of live streams: open, refreshed, closed; a refresh racing a close never revives the stream.
The same contract on Redis, fakeredis and the in-memory twin."""
from __future__ import annotations

import fakeredis
import pytest

from service.store.presence import InMemoryPresence, Presence, member, now_ms
from tests.waiting import wait_for


@pytest.fixture(params=["redis", "fakeredis", "memory"])
def presence(request):
    """Each implementation of the presence port."""
    if request.param == "memory":
        return InMemoryPresence()
    if request.param == "fakeredis":
        return Presence(fakeredis.FakeRedis())
    return Presence(request.getfixturevalue("redis_client"))


def test_a_stream_counts_from_open_to_close_and_a_late_refresh_does_not_revive_it(presence):
    all_mine, one_match = ("ann", member(1)), ("ann", member(2, "m_b"))
    before = now_ms()
    presence.mark([all_mine, one_match])
    assert presence.saw("ann", "m_a", before) and presence.saw("ann", "m_b", before)
    assert not presence.saw("bob", "m_a", before)
    presence.closed([all_mine])
    presence.mark([all_mine], refresh=True)  # the hub's refresh had read the stream before it closed
    start = now_ms()
    later = wait_for(lambda: now_ms() > start and now_ms(), timeout=1)  # a moment strictly after the close
    assert not presence.saw("ann", "m_a", later), "closed: a move after it is not seen"
    assert presence.saw("ann", "m_a", before), "it was open when the earlier move happened"
    assert presence.saw("ann", "m_b", later) and not presence.saw("ann", "m_c", later), "one match's stream sees only that match"


def test_a_refresh_never_opens_a_stream_that_was_not_marked(presence):
    presence.mark([("cy", member(3))], refresh=True)
    assert not presence.saw("cy", "m_a", now_ms() - 1000)
