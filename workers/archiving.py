"""Archiving in the worker: every minute the reconciler looks for finished matches last updated at least
TURNSTREAM_ARCHIVE_AFTER_HOURS ago, past the sweep's cursor, and enqueues the sweep job on the default queue. The
job archives them (service/app/archive.py) for about BUDGET_SECONDS at a time, so turn deadlines queued behind it
wait little, moves the cursor, and enqueues itself again while some remain."""
from __future__ import annotations

import logging
import time
from datetime import timedelta

from service.app.archive import archive_due, utc_now
from service.store.keys import Keys

from .context import wiring
from .queues import DEFAULT, job_id, queue

log = logging.getLogger("turnstream.archive")

JOB = "workers.archiving.sweep"
CURSOR_KEY = Keys.ARCHIVE_CURSOR  # events Redis: the index score up to which every finished match was looked at
QUEUED_KEY = Keys.ARCHIVE_QUEUED  # queue Redis: a sweep job is queued or running (expires if its worker dies)
QUEUED_SECONDS = 600
CHECK_SECONDS = 60.0
BUDGET_SECONDS = 2.0
_checked = {"at": float("-inf")}


def cursor(redis) -> float:
    """The sweep's cursor (-inf before the first sweep)."""
    raw = redis.get(CURSOR_KEY)
    return float(raw) if raw else float("-inf")


def due_count(redis, keys: Keys, hours: float) -> int:
    """Finished matches past the cursor last updated at least `hours` ago (some may be archived already)."""
    start = cursor(redis)
    low = "-inf" if start == float("-inf") else repr(start)
    high = repr((utc_now() - timedelta(hours=hours)).timestamp())
    return redis.zcount(keys.status_index("finished"), low, high)


def schedule(force: bool = False) -> bool:
    """From the reconciler (at most every CHECK_SECONDS unless `force`): enqueue the sweep job when archiving is
    on, some finished match is due and no sweep is queued or running. True when it enqueued one."""
    w = wiring()
    hours = w.settings.archive_after_hours
    now = time.monotonic()
    if hours < 0 or (not force and now - _checked["at"] < CHECK_SECONDS):
        return False
    _checked["at"] = now
    if not due_count(w.redis, w.store.keys, hours):
        return False
    q = queue(DEFAULT)
    if not q.connection.set(QUEUED_KEY, "1", nx=True, ex=QUEUED_SECONDS):
        return False
    q.enqueue(JOB, job_id=job_id("archive-sweep", time.time_ns()), result_ttl=0, failure_ttl=24 * 3600,
              job_timeout=QUEUED_SECONDS)
    return True


def sweep() -> dict:
    """The job: archive due matches from the cursor on for about BUDGET_SECONDS; move the cursor; enqueue the
    next sweep when some remain. Answers the counts."""
    w = wiring()
    hours = w.settings.archive_after_hours
    now = utc_now()
    try:
        tally, resume = archive_due(w.store, w.redis, hours, now=now, budget_seconds=BUDGET_SECONDS, start=cursor(w.redis))
        reached = resume if resume is not None else (now - timedelta(hours=hours)).timestamp()
        w.redis.set(CURSOR_KEY, repr(reached))
    finally:
        queue(DEFAULT).connection.delete(QUEUED_KEY)
    for failure in tally.failures:
        log.warning("match %s not archived: %s", failure["match"], failure.get("reason", ""))
    if tally.counts["archived"]:
        log.info("archived %d matches (%d events, %d bytes of events in %d bytes of records)",
                 tally.counts["archived"], tally.events, tally.live_bytes, tally.record_bytes)
    if resume is not None:
        schedule(force=True)
    return tally.summary()
