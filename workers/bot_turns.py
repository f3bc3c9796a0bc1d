"""Bot turns: when a bot (or a stand-in bot) must act, an RQ job on the bots queue decides and submits.

The job reads the match, builds the seat's information set (its view and legal commands) and sends
the bot's command through MatchService.submit with the version it decided on and a command id made
of match id and version, so a stale job is refused (409) and a repeated one answers as the first.
Every scheduled turn is also noted in a pending set until its job ends, so the reconciler can schedule
again a turn whose job died with its worker or vanished from its queue (else the match would stall).
"""
from __future__ import annotations

import hashlib
import logging
import time

from rq import Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from domain.bots import choose, information_set
from domain.engine.bot_seats import bot_level, is_bot
from service.app.errors import AppError
from service.app.matches import MatchService
from service.store.keys import Keys

from .context import wiring
from .orphans import orphan_reason
from .queues import BOTS, job_id, queue

log = logging.getLogger("turnstream.bots")
JOB = "workers.bot_turns.play_bot_turn"
CHAINED = 20  # commands one job sends while its seat stays to move (an order and its steps, a whole move)
PENDING_KEY = Keys.BOTS_PENDING  # in the queue Redis: "match|seat|version" -> when its turn was scheduled
RECOVERIES_KEY = Keys.BOTS_RECOVERED  # how often a pending turn was scheduled again
STALL_SECONDS = 10.0  # beyond the thinking budget: a pending turn older than this is looked at
MAX_RECOVERIES = 3  # a turn whose job keeps failing is given up (logged), not retried forever


def bot_turn_job_id(match_id: str, player: str, version: int) -> str:
    """The unique job id of one bot turn (scheduling it twice enqueues it once)."""
    return job_id("bot", match_id, version, player)


def bots_to_move(match) -> list:
    """(seat, level, is a stand-in) for every seat a bot must play now."""
    out = []
    for player in match.active_players():
        if is_bot(player):
            out.append((player, bot_level(player), False))
        elif player in match.stand_ins:
            out.append((player, match.stand_ins[player], True))
    return out


def schedule(changes: list, matches: dict) -> list:
    """Enqueue a bot turn for every bot seat that must act in these changed matches; return the job ids."""

    enqueued = []
    for _prev, row in changes:
        match = matches[row["id"]]
        for player, _level, _stand_in in bots_to_move(match):
            jid = bot_turn_job_id(match.id, player, match.version)
            bots = queue(BOTS)
            try:
                bots.enqueue(JOB, match.id, player, match.version, job_id=jid, unique=True,
                             retry=Retry(max=2, interval=[1, 2]), result_ttl=600, failure_ttl=24 * 3600)
            except DuplicateJobError:
                continue
            finally:
                bots.connection.zadd(PENDING_KEY, {pending_member(match.id, player, match.version): time.time()},
                                     nx=True)
            enqueued.append(jid)
    return enqueued


def pending_member(match_id: str, player: str, version: int) -> str:
    """The pending-set member of one bot turn."""
    return f"{match_id}|{player}|{version}"


def _job_can_still_run(job, queue_conn) -> bool:
    """True while a bot turn's job is waiting, retrying later, or running on a live worker."""


    waiting = (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.SCHEDULED, JobStatus.DEFERRED)
    return job.get_status(refresh=False) in waiting and orphan_reason(job, queue_conn) is None


def recover_stalled(matches: MatchService, bot_ms: float, queue_conn, now: float | None = None) -> list:
    """Schedule again every pending bot turn whose job can no longer run (its worker died, it was lost
    from its queue, it failed) while the bot must still act at that version; forget turns that are gone.
    Return the members scheduled again."""

    now = time.time() if now is None else now
    cutoff = now - (bot_ms / 1000.0 + STALL_SECONDS)
    recovered = []
    for member in queue_conn.zrangebyscore(PENDING_KEY, "-inf", cutoff, start=0, num=200):
        member = member.decode() if isinstance(member, bytes) else member
        match_id, player, version = member.rsplit("|", 2)
        version = int(version)
        try:
            job = Job.fetch(bot_turn_job_id(match_id, player, version), connection=queue_conn)
        except NoSuchJobError:
            job = None
        if job is not None and _job_can_still_run(job, queue_conn):
            continue
        still_to_move = matches.read(match_id, lambda m: m.version == version
                                       and player in [seat for seat, _l, _s in bots_to_move(m)])
        queue_conn.zrem(PENDING_KEY, member)
        if job is not None:
            job.delete()
        if not still_to_move:
            queue_conn.hdel(RECOVERIES_KEY, member)
            continue
        if queue_conn.hincrby(RECOVERIES_KEY, member, 1) > MAX_RECOVERIES:
            log.error("bot turn %s failed %d times; giving it up", member, MAX_RECOVERIES)
            continue
        log.warning("bot turn %s: its job can no longer run; scheduling it again", member)
        matches.read(match_id, lambda m: schedule([(None, {"id": m.id})], {m.id: m}))
        recovered.append(member)
    return recovered


def decide_turn(matches: MatchService, bot_ms: float, match_id: str, player: str, version: int):
    """(command, level, is a stand-in) the bot of `player` sends at `version`, or None when the turn is gone."""

    def information(match):
        seat = {p: (level, stand_in) for p, level, stand_in in bots_to_move(match)}
        if match.version != version or player not in seat:
            return None
        return information_set(match.game, match.game_state, player), seat[player]

    found = matches.read(match_id, information)
    if found is None:
        return None
    info, (level, stand_in) = found
    deadline = time.monotonic() + bot_ms / 1000.0
    seed = int.from_bytes(hashlib.sha256(f"{match_id}:{version}:{player}".encode()).digest()[:8], "big")
    command = choose(level, info, seed, should_stop=lambda: time.monotonic() >= deadline)
    return command, level, stand_in


def warm_up() -> None:
    """Build the worker's wiring and load the games before the first bot turn arrives."""
    wiring()


def play_bot_turn(match_id: str, player: str, version: int) -> str:
    """Decide the bot's command at `version` and submit it, and the next ones while the seat stays to
    move (up to CHAINED). Return what happened."""
    w = wiring()
    sent, member = 0, pending_member(match_id, player, version)
    while sent < CHAINED:
        decided = decide_turn(w.matches, w.settings.bot_ms, match_id, player, version)
        if decided is None:
            break
        command, level, stand_in = decided
        try:
            answer = w.matches.submit(player, match_id, command["type"], command["payload"],
                                      command_id=f"bot:{match_id}:{version}", expected_version=version,
                                      stand_in=stand_in)
        except AppError as exc:
            log.info("%s bot for %s in %s at %d not applied: %s", level, player, match_id, version, exc.message)
            break
        log.info("%s bot for %s in %s sent %s (version %d)", level, player, match_id, command["type"],
                 answer["version"])
        version, sent = answer["version"], sent + 1
    queue(BOTS).connection.zrem(PENDING_KEY, member)  # not on an exception: RQ retries, then the reconciler
    return f"played {sent}" if sent else "moved_on"
