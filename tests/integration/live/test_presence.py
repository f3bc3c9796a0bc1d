"""Presence marks of live streams: open, refreshed, closed; a refresh racing a close never revives the stream."""
from __future__ import annotations

import time

from service.store.presence import Presence, member, now_ms


def test_a_stream_counts_from_open_to_close_and_a_late_refresh_does_not_revive_it(redis_client):
    p = Presence(redis_client)
    all_mine, one_match = ("ann", member(1)), ("ann", member(2, "m_b"))
    before = now_ms()
    p.mark([all_mine, one_match])
    assert p.saw("ann", "m_a", before) and p.saw("ann", "m_b", before)
    assert not p.saw("bob", "m_a", before)
    p.closed([all_mine])
    p.mark([all_mine], refresh=True)  # the hub's refresh had read the stream before it closed
    time.sleep(0.005)
    later = now_ms()
    assert not p.saw("ann", "m_a", later), "closed: a move after it is not seen"
    assert p.saw("ann", "m_a", before), "it was open when the earlier move happened"
    assert p.saw("ann", "m_b", later) and not p.saw("ann", "m_c", later), "one match's stream sees only that match"
