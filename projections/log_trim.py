"""Trimming the partition logs: an entry is needed only until every projection has passed it (its checkpoint) and
for the live streams' resume window; older ones are removed (XTRIM MINID ~, whole nodes at a time). A rebuild finds
every match from its meta key, not from the logs (projections/rebuild.py)."""
from __future__ import annotations

import logging
import time

from projections.leases import PAUSE_KEY
from service.store.keys import Keys

log = logging.getLogger("turnstream.projections")


def trim_logs(redis, keys: Keys, keep_hours: float, now_ms: int | None = None, exact: bool = False) -> int:
    """Remove partition-log entries both before their partition's checkpoint and older than `keep_hours`; return
    how many went (whole stream nodes only unless `exact`). Nothing while a rebuild runs (its switch moves the
    checkpoints)."""
    if keep_hours < 0 or redis.exists(PAUSE_KEY):
        return 0
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    kept_from = now_ms - int(keep_hours * 3_600_000)
    pipe = redis.pipeline(transaction=False)
    for p in range(keys.partitions):
        pipe.get(keys.checkpoint(p))
    checkpoints = pipe.execute()
    pipe = redis.pipeline(transaction=False)
    for p, checkpoint in enumerate(checkpoints):
        if checkpoint:  # entries up to the checkpoint are projected; the checkpoint's own one is kept
            pipe.xtrim(keys.log(p), minid=min(_ms(checkpoint), kept_from), approximate=not exact)
    removed = sum(pipe.execute()) if any(checkpoints) else 0
    if removed:
        log.info("partition logs: %d projected entries older than %g h removed", removed, keep_hours)
    return removed


def _ms(entry_id: str) -> int:
    """The milliseconds part of a stream entry id."""
    return int(entry_id.split("-", 1)[0])
