"""RQ jobs: bring a partition's projections up to date; find partitions whose projections lag."""
from __future__ import annotations

import logging
import os
import uuid

from redis.exceptions import RedisError

from projections.writer import ProjectionWriter

from .bot_turns import recover_stalled
from .context import wiring
from .followups import after_projection
from .leases import Leases
from .queues import PROJECTIONS, alive_key, project_job_id, queue

log = logging.getLogger("turnstream.worker")
BATCH = 500


def project_entries(w, p: int, entries: list) -> int:
    """Apply a batch of partition p's log entries (the next after its checkpoint) to every read model and move
    the checkpoint past them; return the rows written."""
    match_ids = list(dict.fromkeys(fields["m"] for _id, fields in entries))
    matches = load_foldable(w, p, match_ids)
    w.ratings.record_finished(matches)  # before the checkpoint moves: a crash here records them next time
    writer = ProjectionWriter(w.redis, w.store.keys)
    players = sorted({player for m in matches for player in m.players})
    reads = w.redis.pipeline(transaction=False)  # the stored rows and the players' webhooks: one round trip
    writer.queue_previous_reads(reads, matches)
    w.users.queue_webhook_reads(reads, players)
    replies = reads.execute()
    stored, hooks = replies[:len(matches)], replies[len(matches):]
    changes = writer.apply(p, matches, entries[-1][0], stored)
    after_projection(changes, {m.id: m for m in matches}, dict(zip(players, (bool(h) for h in hooks))))
    w.matches.snapshots.write_due(matches)
    log.debug("partition %d: %d log entries, %d matches", p, len(entries), len(matches))
    return len(changes)


def load_foldable(w, p: int, match_ids: list) -> list:
    """The batch's matches folded to their latest versions, in one pipelined read. A match this process cannot
    fold (its game is not hosted here, its data is bad) is logged and left out, so that it never holds up
    the other matches of its partition; it is tried again with its next event (or `turnstream rebuild`)."""
    try:
        return w.matches.load_many(match_ids)
    except RedisError:
        raise
    except Exception:  # find the culprit: load each match alone
        loaded = [_load_alone(w, p, match_id) for match_id in match_ids]
        return [match for match in loaded if match is not None]


def _load_alone(w, p: int, match_id: str):
    """One match folded to its latest version, or None (logged) when this process cannot fold it."""
    try:
        return w.matches.load(match_id)
    except RedisError:
        raise
    except Exception as exc:
        w.matches.cache.evict(match_id)  # a fold that failed half way must not be trusted
        log.error("partition %d: match %s cannot be folded here (%s: %s); its read models stay as they were",
                  p, match_id, type(exc).__name__, exc)
        return None


def project_partition(p: int) -> int:
    """Apply partition p's change log from its checkpoint to every read model; return rows written. It stops
    at the end of a short read: the trigger enqueues again a partition whose job was running when a command
    landed (and the reconciler finds any partition left behind), so no third round trip asks for more.
    A partition whose lease another projector holds (a worker following the logs) is left to it."""
    w = wiring()
    keys = w.store.keys
    leases = Leases(w.redis, keys, f"job:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    if not leases.take(p):
        return 0
    written = 0
    try:
        while True:
            checkpoint = w.redis.get(keys.checkpoint(p)) or "0-0"
            entries = w.redis.xrange(keys.log(p), f"({checkpoint}", "+", count=BATCH)
            if not entries:
                return written
            written += project_entries(w, p, entries)
            if len(entries) < BATCH:  # the log's end: an entry appended since has a job of its own on the way
                return written
            leases.renew(p)
    finally:
        leases.release(p)


def lagging_partitions(w) -> list:
    """Partitions whose change log has entries after their checkpoint."""
    keys = w.store.keys
    pipe = w.redis.pipeline(transaction=False)
    for p in range(keys.partitions):
        pipe.xrevrange(keys.log(p), "+", "-", count=1)
        pipe.get(keys.checkpoint(p))
    replies = pipe.execute()
    lagging = []
    for p in range(keys.partitions):
        last, ckpt = replies[2 * p], replies[2 * p + 1]
        if last and last[0][0] != ckpt:
            lagging.append(p)
    return lagging


LOST_AFTER_SECONDS = 5.0  # a "queued" job in no queue list for this long was popped by a dead worker


def orphan_reason(job, queue_conn) -> str | None:
    """Why a job can never run to its end (started by a worker process that is gone, or queued but lost
    from its queue), or None when it may still."""
    from rq.job import JobStatus

    status = job.get_status(refresh=False)
    if status == JobStatus.STARTED and not (job.worker_name and queue_conn.exists(alive_key(job.worker_name))):
        return f"its job's worker {job.worker_name} is gone"
    if status == JobStatus.QUEUED and _lost(job, queue_conn):
        return "its queued job was lost from the queue"
    return None


def _lost(job, queue_conn) -> bool:
    """True for a job marked queued that sits in no queue list for a while: a worker that died right
    after popping it (or whose dead connection a forked child kept open) took it with it."""
    from datetime import datetime, timezone

    from rq import Queue

    queue = Queue(job.origin, connection=queue_conn)
    if queue_conn.lpos(queue.key, job.id) is not None:
        return False
    enqueued = job.enqueued_at
    if enqueued is None:
        return False
    if enqueued.tzinfo is None:
        enqueued = enqueued.replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - enqueued).total_seconds() > LOST_AFTER_SECONDS


def release_abandoned(queue_conn, partitions: list) -> list:
    """Delete the projection jobs of these partitions that can no longer run: started by a worker
    process that is gone (killed mid-job), or queued but lost from their queue; so they can be enqueued
    again. Return the partitions released."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job

    released = []
    for p in partitions:
        try:
            job = Job.fetch(project_job_id(p), connection=queue_conn)
        except NoSuchJobError:
            continue
        reason = orphan_reason(job, queue_conn)
        if reason is None:
            continue
        job.delete()
        released.append(p)
        log.warning("partition %d: %s; enqueueing it again", p, reason)
    return released


def reconcile() -> list:
    """Enqueue a projection job for every lagging partition (a lost enqueue, a dead worker), and schedule
    again the bot turns whose job can no longer run; return the lagging partitions."""
    from rq import Queue

    w = wiring()
    lagging = lagging_partitions(w)
    if lagging:  # a partition some projector holds is being projected: its lag is that projector's
        holders = Leases(w.redis, w.store.keys, "reconciler").holders(lagging)
        lagging = [p for p, holder in zip(lagging, holders) if holder is None]
    for p in lagging:
        w.trigger.notify(p)
    conn = queue(PROJECTIONS).connection
    if lagging:
        release_abandoned(conn, lagging)
        w.trigger.flush(Queue(PROJECTIONS, connection=conn))
    recover_stalled(w, conn)
    return lagging
