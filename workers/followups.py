"""What follows a projection batch: schedule turn deadlines, bot turns, webhooks and mails for the changed rows."""
from __future__ import annotations

import logging
from functools import partial

from redis.exceptions import RedisError

from . import bot_turns, deadlines, mail, notifications

log = logging.getLogger("turnstream.worker")


def after_projection(changes: list, matches: dict, webhooks: dict | None = None) -> None:
    """Hand the projection's [(previous row, row)] changes, with the folded matches by id, to the
    deadline, bot-turn and notification jobs (`webhooks`: {player: has a webhook}, when already read)."""
    if not changes:
        return

    for follow_up in (deadlines.schedule, bot_turns.schedule, partial(notifications.notify, webhooks=webhooks),
                      mail.notify):
        try:
            follow_up(changes, matches)
        except RedisError as exc:
            log.warning("%s: Redis unavailable (%s)", _name(follow_up), exc)
        except Exception:  # one follow-up's bug must not stop the projections or the other follow-up
            log.exception("%s failed", _name(follow_up))


def _name(follow_up) -> str:
    """The module of a follow-up (through a partial)."""
    return getattr(follow_up, "func", follow_up).__module__
