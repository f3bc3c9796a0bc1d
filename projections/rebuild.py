"""Rebuild every read model from the event streams beside the live ones, then switch.

The running followers are paused and every partition's lease taken, so the live read models stay as they were
(readable, only late) while every partition log is projected again into shadow keys (`projections/shadow.py`).
The switch renames each shadow key over its live name and deletes the live keys the rebuild did not write: one
script on one Redis (readers see the old read models, then the new), one per hash slot on a cluster. The
followers resume from the new checkpoints. Nothing live is dropped before its replacement is complete."""
from __future__ import annotations

import time

from projections.delivery import BATCH, project_entries, project_matches
from projections.leases import LEASE_MS, PAUSE_KEY, Leases
from projections.ratings import TAG, Ratings
from projections.shadow import GLOBAL_PATTERN, ShadowKeys, live_of, partition_pattern, shadow
from service.store.keys import Keys

LIVE_GLOBAL = Keys.GLOBAL_READ_MODEL_PATTERNS  # the global read models (but the users' own: Keys.owned_by_users)
# one slot's switch, atomic: KEYS = shadow, live, shadow, live, ... (ARGV[1] of them), then the live keys to delete
_SWITCH = """
local n = tonumber(ARGV[1])
for i = 1, n, 2 do redis.call('RENAME', KEYS[i], KEYS[i + 1]) end
for i = n + 1, #KEYS do redis.call('DEL', KEYS[i]) end
return #KEYS
"""
PAUSE_MS = 30_000  # the pause lapses by itself this long after a rebuild that died; renewed while it runs


class RebuildRefused(Exception):
    """The rebuild could not take every partition over (a follower kept its lease); nothing was changed."""


def rebuild_projections(w, say=print, wait_seconds: float = LEASE_MS / 1000 * 2) -> int:
    """Pause the followers, take every partition's lease, project every partition log into shadow read models,
    switch them in; return the match rows written."""
    keys = w.store.keys
    owner = f"rebuild:{time.time_ns()}"
    leases = Leases(w.redis, keys, owner, lease_ms=PAUSE_MS)
    w.redis.set(PAUSE_KEY, owner, px=PAUSE_MS)
    try:
        _take_all(w, leases, wait_seconds, say)
        _drop(w, _shadow_keys(w))  # what a rebuild that died left behind
        total = _project_beside(w, leases, say)
        renamed, deleted = _switch(w)
        say(f"switched: {renamed} read-model keys replaced, {deleted} no longer written removed")
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
                                 f"(a worker of an older version?); nothing was changed")
        if missing:
            time.sleep(0.2)


def _project_beside(w, leases: Leases, say) -> int:
    """Project every match of each partition (found by its meta key: the logs are trimmed) into the shadow read
    models, then each partition's log from there to its end (the commands that landed meanwhile); return the rows
    written."""
    keys, ratings = ShadowKeys(w.store.keys), Ratings(w.redis, shadowed=True)
    partitions = keys.partitions
    say(f"rebuilding {partitions} partitions beside the live read models (they stay readable meanwhile)")
    total = 0
    for sweep in ("rebuilt", "caught up"):
        for p in range(partitions):
            total += _project_matches(w, p, keys, ratings) if sweep == "rebuilt" else _project_rest(w, p, keys, ratings)
            w.redis.pexpire(PAUSE_KEY, PAUSE_MS)
            leases.renew_many(list(range(partitions)))
            if p + 1 == partitions or (p + 1) % 8 == 0:
                say(f"  partitions {sweep} {p + 1}/{partitions}: {total} match rows written")
    return total


def _project_matches(w, p: int, keys, ratings) -> int:
    """Project every match of partition p at its latest version, the shadow checkpoint set to the log's last entry
    as it was before the matches were listed (what comes after it is projected by _project_rest)."""
    last = w.redis.xrevrange(w.store.keys.log(p), "+", "-", count=1)
    checkpoint = last[0][0] if last else "0-0"
    prefix, suffix = Keys.matches_prefix(p), ":meta"  # Keys.meta: every match has one, archived or not
    found = [key[len(prefix):-len(suffix)] for key in w.redis.scan_iter(match=f"{prefix}*{suffix}", count=1000)]
    written = 0
    for i in range(0, len(found), BATCH):
        written += project_matches(w, p, found[i:i + BATCH], checkpoint, keys=keys, ratings=ratings)
    if not found and last:
        w.redis.set(keys.checkpoint(p), checkpoint)
    return written


def _project_rest(w, p: int, keys, ratings) -> int:
    """Project partition p's log from its shadow checkpoint to the end (its lease is held by the rebuild)."""
    written = 0
    while True:
        after = w.redis.get(keys.checkpoint(p))
        if after is None:  # an empty log when the matches were listed
            after = "0-0"
        entries = w.redis.xrange(w.store.keys.log(p), f"({after}", "+", count=BATCH)
        if entries:
            written += project_entries(w, p, entries, keys=keys, ratings=ratings)
        if len(entries) < BATCH:
            return written


def _shadow_keys(w) -> list:
    """Every shadow key in the store."""
    patterns = [partition_pattern(p) for p in range(w.store.keys.partitions)]
    patterns += [GLOBAL_PATTERN, shadow(Keys.rating("*"))]
    return [key for pattern in patterns for key in w.redis.scan_iter(match=pattern, count=1000)]


def _live_keys(w) -> set:
    """Every live read-model key a rebuild replaces: rows, checkpoints, indexes, inboxes, ratings."""
    keys, found = w.store.keys, set()
    for pattern in LIVE_GLOBAL:
        found.update(k for k in w.redis.scan_iter(match=pattern, count=1000) if not keys.owned_by_users(k))
    checkpoints = [keys.checkpoint(p) for p in range(keys.partitions)]
    pipe = w.redis.pipeline(transaction=False)
    for key in checkpoints:
        pipe.exists(key)
    found.update(key for key, there in zip(checkpoints, pipe.execute()) if there)
    for p in range(keys.partitions):
        found.update(w.redis.scan_iter(match=Keys.summaries_pattern(p), count=1000))
    rebuilding, locks = shadow(Keys.ratings_prefix()), Keys.ratings_prefix() + "lock:"
    found.update(k for k in w.redis.scan_iter(match=Keys.rating("*"), count=1000)
                 if not k.startswith(rebuilding) and not k.startswith(locks))
    return found


def _switch(w) -> tuple[int, int]:
    """Rename every shadow key over its live name and delete the live keys the rebuild did not write (the news
    feeds' shadows are dropped: live streams keep reading the live feed); return (renamed, deleted)."""
    news = {shadow(w.store.keys.changes(p)) for p in range(w.store.keys.partitions)}
    shadows = [k for k in _shadow_keys(w) if k not in news]
    renames = {live_of(k): k for k in shadows}
    stale = [k for k in _live_keys(w) if k not in renames]
    by_slot: dict = {}
    slot_of = getattr(w.redis, "keyslot", None)  # a cluster: one script per slot
    for live, shadowed in renames.items():
        by_slot.setdefault(slot_of(live) if slot_of else 0, []).append(("rename", shadowed, live))
    for live in stale:
        by_slot.setdefault(slot_of(live) if slot_of else 0, []).append(("delete", live, None))
    switch = w.redis.register_script(_SWITCH)
    for ops in by_slot.values():
        renamed = [key for op, shadowed, live in ops if op == "rename" for key in (shadowed, live)]
        switch(keys=renamed + [key for op, key, _ in ops if op == "delete"], args=[len(renamed)])
    _drop(w, list(news))
    return len(renames), len(stale)


def _drop(w, keys: list) -> None:
    """Delete these keys, a thousand at a time (one at a time on a cluster: each may be in its own slot)."""
    if hasattr(w.redis, "keyslot"):
        for key in keys:
            w.redis.delete(key)
        return
    for i in range(0, len(keys), 1000):
        if keys[i:i + 1000]:
            w.redis.delete(*keys[i:i + 1000])
