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
from projections.projector import Projector
from projections.shadow import GLOBAL_PATTERN, live_of, partition_pattern, shadow
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


def rebuild_projections(projector: Projector, say=print, wait_seconds: float = LEASE_MS / 1000 * 2) -> int:
    """Pause the followers, take every partition's lease, project every partition log into shadow read models,
    switch them in; return the match rows written."""
    r, keys = projector.redis, projector.keys
    owner = f"rebuild:{time.time_ns()}"
    leases = Leases(r, keys, owner, lease_ms=PAUSE_MS)
    r.set(PAUSE_KEY, owner, px=PAUSE_MS)
    try:
        _take_all(leases, keys.partitions, wait_seconds, say)
        _drop(r, _shadow_keys(r, keys))  # what a rebuild that died left behind
        total = _project_beside(projector, leases, say)
        renamed, deleted = _switch(projector)
        say(f"switched: {renamed} read-model keys replaced, {deleted} no longer written removed")
    finally:
        for p in range(keys.partitions):
            leases.release(p)
        r.delete(PAUSE_KEY)
    say(f"rebuilt: {total} match rows; the followers resume from the new checkpoints")
    return total


def _take_all(leases: Leases, partitions: int, wait_seconds: float, say) -> None:
    """Take every partition's lease, waiting for the paused followers to give theirs up."""
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


def _project_beside(projector: Projector, leases: Leases, say) -> int:
    """Project every match of each partition (found by its meta key: the logs are trimmed) into the shadow read
    models, then each partition's log from there to its end (the commands that landed meanwhile); return the rows
    written."""
    beside = projector.shadowed()
    partitions = projector.keys.partitions
    say(f"rebuilding {partitions} partitions beside the live read models (they stay readable meanwhile)")
    total = 0
    for sweep in ("rebuilt", "caught up"):
        for p in range(partitions):
            total += _project_matches(beside, p) if sweep == "rebuilt" else _project_rest(beside, p)
            projector.redis.pexpire(PAUSE_KEY, PAUSE_MS)
            leases.renew_many(list(range(partitions)))
            if p + 1 == partitions or (p + 1) % 8 == 0:
                say(f"  partitions {sweep} {p + 1}/{partitions}: {total} match rows written")
    return total


def _project_matches(beside: Projector, p: int) -> int:
    """Project every match of partition p at its latest version, the shadow checkpoint set to the log's last entry
    as it was before the matches were listed (what comes after it is projected by _project_rest)."""
    r = beside.redis
    last = r.xrevrange(beside.keys.log(p), "+", "-", count=1)  # the log is not shadowed: the live one
    checkpoint = last[0][0] if last else "0-0"
    prefix, suffix = Keys.matches_prefix(p), ":meta"  # Keys.meta: every match has one, archived or not
    found = [key[len(prefix):-len(suffix)] for key in r.scan_iter(match=f"{prefix}*{suffix}", count=1000)]
    written = 0
    for i in range(0, len(found), BATCH):
        written += project_matches(beside, p, found[i:i + BATCH], checkpoint)
    if not found and last:
        r.set(beside.keys.checkpoint(p), checkpoint)
    return written


def _project_rest(beside: Projector, p: int) -> int:
    """Project partition p's log from its shadow checkpoint to the end (its lease is held by the rebuild)."""
    r, written = beside.redis, 0
    while True:
        after = r.get(beside.keys.checkpoint(p))
        if after is None:  # an empty log when the matches were listed
            after = "0-0"
        entries = r.xrange(beside.keys.log(p), f"({after}", "+", count=BATCH)
        if entries:
            written += project_entries(beside, p, entries)
        if len(entries) < BATCH:
            return written


def _shadow_keys(r, keys: Keys) -> list:
    """Every shadow key in the store."""
    patterns = [partition_pattern(p) for p in range(keys.partitions)]
    patterns += [GLOBAL_PATTERN, shadow(Keys.rating("*"))]
    return [key for pattern in patterns for key in r.scan_iter(match=pattern, count=1000)]


def _live_keys(r, keys: Keys) -> set:
    """Every live read-model key a rebuild replaces: rows, checkpoints, indexes, inboxes, ratings."""
    found = set()
    for pattern in LIVE_GLOBAL:
        found.update(k for k in r.scan_iter(match=pattern, count=1000) if not keys.owned_by_users(k))
    checkpoints = [keys.checkpoint(p) for p in range(keys.partitions)]
    pipe = r.pipeline(transaction=False)
    for key in checkpoints:
        pipe.exists(key)
    found.update(key for key, there in zip(checkpoints, pipe.execute()) if there)
    for p in range(keys.partitions):
        found.update(r.scan_iter(match=Keys.summaries_pattern(p), count=1000))
    rebuilding, locks = shadow(Keys.ratings_prefix()), Keys.ratings_prefix() + "lock:"
    found.update(k for k in r.scan_iter(match=Keys.rating("*"), count=1000)
                 if not k.startswith(rebuilding) and not k.startswith(locks))
    return found


def _switch(projector: Projector) -> tuple[int, int]:
    """Rename every shadow key over its live name and delete the live keys the rebuild did not write (the news
    feeds' shadows are dropped: live streams keep reading the live feed); return (renamed, deleted)."""
    r, keys = projector.redis, projector.keys
    news = {shadow(keys.changes(p)) for p in range(keys.partitions)}
    shadows = [k for k in _shadow_keys(r, keys) if k not in news]
    renames = {live_of(k): k for k in shadows}
    stale = [k for k in _live_keys(r, keys) if k not in renames]
    by_slot: dict = {}
    slot_of = getattr(r, "keyslot", None)  # a cluster: one script per slot
    for live, shadowed in renames.items():
        by_slot.setdefault(slot_of(live) if slot_of else 0, []).append(("rename", shadowed, live))
    for live in stale:
        by_slot.setdefault(slot_of(live) if slot_of else 0, []).append(("delete", live, None))
    switch = r.register_script(_SWITCH)
    for ops in by_slot.values():
        renamed = [key for op, shadowed, live in ops if op == "rename" for key in (shadowed, live)]
        switch(keys=renamed + [key for op, key, _ in ops if op == "delete"], args=[len(renamed)])
    _drop(r, list(news))
    return len(renames), len(stale)


def _drop(r, keys: list) -> None:
    """Delete these keys, a thousand at a time (one at a time on a cluster: each may be in its own slot)."""
    if hasattr(r, "keyslot"):
        for key in keys:
            r.delete(key)
        return
    for i in range(0, len(keys), 1000):
        if keys[i:i + 1000]:
            r.delete(*keys[i:i + 1000])
