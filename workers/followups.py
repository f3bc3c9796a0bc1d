"""What follows a projection batch: schedule turn deadlines, bot turns and notifications for the changed rows."""
from __future__ import annotations

import logging

from redis.exceptions import RedisError

log = logging.getLogger("turnstream.worker")


def after_projection(changes: list, matches: dict) -> None:
    """Hand the projection's [(previous row, row)] changes, with the folded matches by id, to the
    deadline, bot-turn and notification jobs."""
    if not changes:
        return
    from . import bot_turns, deadlines, notifications
    for follow_up in (deadlines.schedule, bot_turns.schedule, notifications.notify):
        try:
            follow_up(changes, matches)
        except RedisError as exc:
            log.warning("%s: Redis unavailable (%s)", follow_up.__module__, exc)
        except Exception:  # one follow-up's bug must not stop the projections or the other follow-up
            log.exception("%s failed", follow_up.__module__)
