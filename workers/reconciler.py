"""The reconciler a worker runs every few seconds: bot turns whose job can no longer run are scheduled again, and
(every minute) the archiving sweep is enqueued when finished matches are due (workers/archiving.py)."""
from __future__ import annotations

import logging

from redis.exceptions import RedisError

from .archiving import schedule as schedule_archiving
from .bot_turns import recover_stalled
from .context import wiring
from .queues import BOTS, queue

log = logging.getLogger("turnstream.worker")


def reconcile() -> list:
    """Schedule again the bot turns whose job was lost (a dead worker); return the turns rescheduled. Then enqueue
    the archiving sweep if it is due (its failure never stops the bot turns' recovery)."""
    recovered = recover_stalled(wiring(), queue(BOTS).connection)
    try:
        schedule_archiving()
    except RedisError as exc:
        log.warning("archiving: Redis unavailable (%s); will retry", exc)
    except Exception:
        log.exception("archiving sweep not scheduled")
    return recovered
