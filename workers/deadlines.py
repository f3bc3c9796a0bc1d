"""Turn deadlines: an RQ job scheduled when a player's turn starts times the turn out if still waiting."""
from __future__ import annotations

import logging
from datetime import timedelta

from domain.engine import RuleViolation
from domain.engine import platform_events as pe
from domain.engine.aggregate import new_event
from domain.engine.bot_seats import STAND_IN_LEVEL
from domain.engine.timestamps import parse_time
from projections.summary import turns_started
from rq.exceptions import DuplicateJobError

from service.app.errors import AppError

from .context import wiring
from .mail import schedule_reminders
from .queues import DEFAULT, job_id, queue

log = logging.getLogger("turnstream.deadlines")

JOB = "workers.deadlines.turn_deadline"


def deadline_job_id(match_id: str, player: str, since: str) -> str:
    """The unique job id of one turn's deadline (safe to schedule twice)."""
    stamp = int(parse_time(since).timestamp() * 1000)
    return job_id("deadline", match_id, player, stamp)


def schedule(changes: list, matches: dict) -> list:
    """Schedule a deadline job for every turn that started in these changes (`matches`: the folded
    matches by id); return the job ids."""
    scheduled, reminders = [], []
    for prev, row in changes:
        turns = turns_started(prev, row) if row.get("status") == "active" else {}
        if not turns:
            continue
        hours = matches[row["id"]].turn_deadline_hours
        if not hours:
            continue
        q = queue(DEFAULT)
        for player, since in turns.items():
            job_id = deadline_job_id(row["id"], player, since)
            at = parse_time(since) + timedelta(hours=hours)
            try:
                q.enqueue_at(at, JOB, row["id"], player, since, job_id=job_id, unique=True,
                             result_ttl=3600, failure_ttl=7 * 24 * 3600)
            except DuplicateJobError:
                continue
            scheduled.append(job_id)
            reminders.append((row["id"], player, since, at))
    if reminders:  # beside each deadline, a reminder mail for the players who want one (workers/mail.py)
        try:
            schedule_reminders(reminders)
        except Exception:  # a reminder lost never costs a deadline
            log.exception("deadline reminders not scheduled")
    return scheduled


def stand_in_events(match, player: str) -> list:
    """stand_in_started when this timeout is the player's `replace_after_timeouts`-th in a row."""
    limit = match.replace_after_timeouts
    if not limit or player in match.stand_ins or match.timeouts.get(player, 0) + 1 < limit:
        return []
    return [new_event(pe.STAND_IN_STARTED, pe.PLATFORM, player=player, bot=STAND_IN_LEVEL, after_timeouts=limit)]


def turn_deadline(match_id: str, player: str, since: str) -> str:
    """The deadline of `player`'s turn that began at `since` passed: append turn_timed_out and the
    game's on_timeout events unless the turn is over; return what happened."""
    w = wiring()
    if not w.read_models.still_waiting(match_id, player, since):
        return "moved_on"

    def decide(match, rng):
        if player not in match.active_players():
            raise RuleViolation("platform:deadline.moved-on", "the player is no longer to move")
        if any(env.get("actor") == player and env["at"] > since and env["type"] not in pe.NOT_ACTIONS
               for env in match.envelopes[-500:]):
            raise RuleViolation("platform:deadline.moved-on", "the player has moved since this turn began")
        events = [new_event(pe.TURN_TIMED_OUT, pe.PLATFORM, player=player)]
        for ev in match.game.on_timeout(match.game_state, player, rng):
            events.append(new_event(ev["type"], pe.GAME, **ev["data"]))
        return events + stand_in_events(match, player)

    try:
        answer = w.matches.execute(match_id, None, decide, command_id=f"deadline:{player}:{since}")
    except AppError as exc:
        log.info("deadline of %s in %s not applied: %s", player, match_id, exc.message)
        return "moved_on"
    log.info("turn of %s in %s timed out at version %s", player, match_id, answer["version"])
    return "timed_out"
