"""The reconciler a worker runs every few seconds: bot turns whose job can no longer run are scheduled again,
(every minute) the archiving sweep is enqueued when finished matches are due (workers/archiving.py), and (every
five minutes) the projected partition-log entries past TURNSTREAM_LOG_KEEP_HOURS are trimmed."""
from __future__ import annotations

import logging
import time

from redis.exceptions import RedisError

from projections.log_trim import trim_logs

from .archiving import schedule as schedule_archiving
from .bot_turns import recover_stalled
from .context import wiring
from .queues import BOTS, queue

log = logging.getLogger("turnstream.worker")
TRIM_SECONDS = 300.0
_trimmed = {"at": float("-inf")}


def reconcile() -> list:
    """Schedule again the bot turns whose job was lost (a dead worker); return the turns rescheduled. Then enqueue
    the archiving sweep if it is due (its failure never stops the bot turns' recovery)."""
    w = wiring()
    recovered = recover_stalled(w.matches, w.settings.bot_ms, queue(BOTS).connection)
    try:
        schedule_archiving()
    except RedisError as exc:
        log.warning("archiving: Redis unavailable (%s); will retry", exc)
    except Exception:
        log.exception("archiving sweep not scheduled")
    try:
        trim_due()
    except RedisError as exc:
        log.warning("partition logs: Redis unavailable (%s); will retry", exc)
    return recovered


def trim_due() -> int:
    """Trim the partition logs if TRIM_SECONDS have passed since this process last did; the entries removed."""
    now = time.monotonic()
    if now - _trimmed["at"] < TRIM_SECONDS:
        return 0
    _trimmed["at"] = now
    w = wiring()
    return trim_logs(w.redis, w.store.keys, w.settings.log_keep_hours)
