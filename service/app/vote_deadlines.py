"""Votes that close at a deadline (disputes, rules proposals): the deadline, the RQ job that closes the vote then,
and closing it once due (idempotent: the job, a retry and the next access may all try)."""
from __future__ import annotations

import logging
from datetime import timedelta

from domain.engine.timestamps import format_time, parse_time

from service.app.errors import RuleRefused
from service.store.errors import StoreUnavailable
from service.store.queues import queue_factory

log = logging.getLogger("turnstream.votes")
DEFAULT_HOURS = 48.0  # TURNSTREAM_DISPUTE_HOURS: how long the other players have to vote
QUEUE = "default"  # the queue of turn deadlines and vote expiries


def expiry_queue(w):
    """The factory of the queue a wiring's expiry jobs go to (opened only when a vote is scheduled)."""
    return queue_factory(w.settings, QUEUE)


def deadline_after(now: str, hours: float) -> str:
    """The deadline of a vote opened at `now` (ISO-8601 UTC)."""
    return format_time(parse_time(now) + timedelta(hours=hours))


def schedule_expiry(queue_factory, hours: float, job: str, match_id: str, vote_id: str, job_id: str) -> bool:
    """Enqueue `job(match_id, vote_id)` in `hours` (RQ enqueue_in); False if there is no queue or it is unreachable
    (the vote then closes on the next access past its deadline)."""
    if queue_factory is None:
        return False
    from rq import Retry  # the queue library loads when a job is queued, not for the command line's --help

    try:
        queue_factory().enqueue_in(timedelta(hours=hours), job, match_id, vote_id, job_id=job_id, result_ttl=0,
                                   retry=Retry(max=3, interval=[10, 60, 300]))
        return True
    except StoreUnavailable as exc:
        log.warning("cannot schedule the expiry of %s/%s (it expires on the next access): %s", match_id, vote_id, exc)
        return False


def expire_when_due(matches, match_id: str, facts, decide) -> str | None:
    """Close a vote past its deadline: `facts(m)` is (its status, None when unknown; whether it is due), `decide(m)`
    its closing events, appended under the match lock when due (refused there: another process closed it first).
    The vote's status after."""
    status, due = matches.read(match_id, facts)
    if status is None or not due:
        return status
    try:
        matches.execute(match_id, None, lambda m, rng: decide(m))
    except RuleRefused:
        pass  # another process closed it first: the status read below says how
    return matches.read(match_id, facts)[0]
