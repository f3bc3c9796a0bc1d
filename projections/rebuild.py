"""Rebuild every read model from the event streams, with the running followers paused: drop the read models and
their checkpoints, then replay every partition log under its lease."""
from __future__ import annotations

import time

from projections.delivery import BATCH, project_entries
from projections.leases import LEASE_MS, PAUSE_KEY, Leases

PROJECTED = ("ts:idx:*", "ts:inbox:*")  # the global read models (but the user-name index: users own it)
PAUSE_MS = 30_000  # the pause lapses by itself this long after a rebuild that died; renewed while it runs


class RebuildRefused(Exception):
    """The rebuild could not take every partition over (a follower kept its lease); nothing was dropped."""


def rebuild_projections(w, say=print, wait_seconds: float = LEASE_MS / 1000 * 2) -> int:
    """Pause the followers, take every partition's lease, drop every read model (rows, indexes, inboxes,
    ratings) and checkpoint, project every partition log again; return the match rows written."""
    keys = w.store.keys
    owner = f"rebuild:{time.time_ns()}"
    leases = Leases(w.redis, keys, owner, lease_ms=PAUSE_MS)
    w.redis.set(PAUSE_KEY, owner, px=PAUSE_MS)
    try:
        _take_all(w, leases, wait_seconds, say)
        total = _drop_and_project(w, leases, say)
    finally:
        for p in range(keys.partitions):
            leases.release(p)
        w.redis.delete(PAUSE_KEY)
    say(f"rebuilt: {total} match rows; the followers resume from the new checkpoints")
    return total


def _take_all(w, leases: Leases, wait_seconds: float, say) -> None:
    """Take every partition's lease, waiting for the paused followers to give theirs up."""
    partitions = w.store.keys.partitions
    deadline, missing = time.monotonic() + wait_seconds, list(range(partitions))
    say(f"pausing the projection followers and taking {partitions} partitions over")
    while missing:
        missing = [p for p in missing if not leases.take(p)]
        if missing and time.monotonic() > deadline:
            held = ", ".join(str(p) for p in missing[:8])
            raise RebuildRefused(f"partitions {held} are still held by a projector that did not pause "
                                 f"(a worker of an older version?); nothing was dropped")
        if missing:
            time.sleep(0.2)


def _drop_and_project(w, leases: Leases, say) -> int:
    """Drop the read models, then project each partition from the start of its log."""
    keys = w.store.keys
    dropped = 0
    for pattern in PROJECTED:
        for key in w.redis.scan_iter(match=pattern, count=500):
            if key != keys.user_names():
                dropped += w.redis.delete(key)
    dropped += w.ratings.drop_all()
    for p in range(keys.partitions):
        w.redis.delete(keys.checkpoint(p))
        for key in w.redis.scan_iter(match=f"ts:{{p{p:02d}}}:rm:m:*", count=500):
            dropped += w.redis.delete(key)
    say(f"dropped {dropped} read-model keys; rebuilding {keys.partitions} partitions")
    total = 0
    for p in range(keys.partitions):
        total += _project_all(w, p)
        w.redis.pexpire(PAUSE_KEY, PAUSE_MS)
        leases.renew_many(list(range(keys.partitions)))
        if (p + 1) % 8 == 0 or p + 1 == keys.partitions:
            say(f"  partitions {p + 1}/{keys.partitions}: {total} match rows written")
    return total


def _project_all(w, p: int) -> int:
    """Project partition p's whole log (its lease is held by the rebuild)."""
    written, after = 0, "0-0"
    while True:
        entries = w.redis.xrange(w.store.keys.log(p), f"({after}", "+", count=BATCH)
        if entries:
            written += project_entries(w, p, entries)
            after = entries[-1][0]
        if len(entries) < BATCH:
            return written
