"""Projection delivery: apply a partition's change-log entries to every read model and move its checkpoint.

The partition log is the outbox (written atomically with the events). Its one reader is a projector holding
the partition's lease: a worker's follower (`projections/follower.py`) while the service runs, or `catch_up`
(rebuild, a draining worker, tests)."""
from __future__ import annotations

import logging

from redis.exceptions import RedisError

from projections.leases import Leases
from projections.projector import Projector
from projections.writer import ProjectionWriter
from service.store.keys import Keys

log = logging.getLogger("turnstream.projections")
BATCH = 500  # log entries read and projected at a time


def project_entries(projector: Projector, p: int, entries: list, followups=None) -> int:
    """Apply a batch of partition p's log entries (the next after its checkpoint) to every read model and move
    the checkpoint past them; hand the changed rows to `followups(changes, matches, webhooks)`; return the
    rows written."""
    match_ids = list(dict.fromkeys(fields["m"] for _id, fields in entries))
    return project_matches(projector, p, match_ids, entries[-1][0], followups)


def project_matches(projector: Projector, p: int, match_ids: list, checkpoint: str, followups=None) -> int:
    """project_entries for these matches of partition p, folded to their latest versions, the checkpoint set to
    `checkpoint`."""
    matches = load_foldable(projector, p, match_ids)
    # before the checkpoint moves: a crash here records them next time
    projector.ratings.record_finished(matches)
    writer = ProjectionWriter(projector.redis, projector.keys)
    players = sorted({player for m in matches for player in m.players})
    reads = projector.redis.pipeline(transaction=False)  # the stored rows and the players' webhooks: one round trip
    writer.queue_previous_reads(reads, matches)
    projector.webhooks.queue_webhook_reads(reads, players)
    replies = reads.execute()
    stored, hooks = replies[:len(matches)], replies[len(matches):]
    changes = writer.apply(p, matches, checkpoint, stored)
    if followups is not None and changes:
        followups(changes, {m.id: m for m in matches}, dict(zip(players, (bool(h) for h in hooks))))
    # an archived match (read from its record: a rebuild) keeps no replay snapshots: it folds in milliseconds
    projector.snapshots.write_due([m for m in matches if not projector.archived(m.id)])
    log.debug("partition %d: %d matches projected", p, len(matches))
    return len(changes)


def load_foldable(projector: Projector, p: int, match_ids: list) -> list:
    """The batch's matches folded to their latest versions, in one pipelined read. A match this process cannot
    fold (its game is not hosted here, its data is bad) is logged and left out, so that it never holds up
    the other matches of its partition; it is tried again with its next event (or `turnstream rebuild`)."""
    try:
        return projector.matches.load_many(match_ids)
    except RedisError:
        raise
    except Exception:  # find the culprit: load each match alone
        loaded = [_load_alone(projector, p, match_id) for match_id in match_ids]
        return [match for match in loaded if match is not None]


def _load_alone(projector: Projector, p: int, match_id: str):
    """One match folded to its latest version, or None (logged) when this process cannot fold it."""
    try:
        return projector.matches.load(match_id)
    except RedisError:
        raise
    except Exception as exc:
        projector.forget(match_id)  # a fold that failed half way must not be trusted
        log.error("partition %d: match %s cannot be folded here (%s: %s); its read models stay as they were",
                  p, match_id, type(exc).__name__, exc)
        return None


def catch_up(projector: Projector, p: int, owner: str = "catch-up", followups=None) -> int | None:
    """Project partition p from its checkpoint to the end of its log under its lease; return the rows written,
    or None when another projector (a running follower) holds the lease."""
    r, keys = projector.redis, projector.keys
    leases = Leases(r, keys, owner)
    if not leases.take(p):
        return None
    written = 0
    try:
        while True:
            checkpoint = r.get(keys.checkpoint(p)) or "0-0"
            entries = r.xrange(keys.log(p), f"({checkpoint}", "+", count=BATCH)
            if entries:
                written += project_entries(projector, p, entries, followups)
            if len(entries) < BATCH:
                return written
            leases.renew(p)
    finally:
        leases.release(p)


def lagging_partitions(redis, keys: Keys) -> list:
    """Partitions whose change log has entries after their checkpoint."""
    pipe = redis.pipeline(transaction=False)
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
