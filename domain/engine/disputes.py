"""Disputes as events: open one on an event version, vote, resolve (unanimous accept reverts), expire.

A seated player disputes a game event still in the effective history; every other seated player votes
(a player who conceded neither disputes nor votes: their seat is a stand-in's). Unanimous acceptance appends `dispute_resolved {status: accepted}` and `moves_reverted` back
to just before the command that appended the disputed event (a whole command, never half of one); any rejection, or the deadline passing, rejects it. While a
dispute is open the match is paused (aggregate.check_can_play). Times are ISO-8601 UTC strings,
handed in by the caller (the domain reads no clock).
"""
from __future__ import annotations

from . import platform_events as pe
from .aggregate import new_event
from .chat import refused_in_message
from .commands import first_version
from .concede import check_not_conceded
from .errors import RuleViolation
from .timestamps import parse_time
from .text import T

ACCEPTED = "accepted"
REJECTED = "rejected"
OPEN = "open"


def voters(match, dispute: dict) -> list:
    """The seated players who vote on a dispute: everyone seated but the one who opened it and those who
    conceded."""
    return [p for p in match.players if p != dispute["by"] and p not in match.conceded]


def opening_setup(window: list) -> bool:
    """True if the last envelope of `window` (stored envelopes ending at the disputed one) belongs to the
    opening setup: a run of game events with no actor and no command right after `match_started`."""
    for env in reversed(window):
        if env.get("scope") == pe.GAME and env.get("actor") is None and env.get("cmd") is None:
            continue
        return env.get("type") == pe.MATCH_STARTED and env.get("scope") == pe.PLATFORM
    return False


def decide_open(match, player: str, version: int, reason: str, deadline: str | None,
                window: list | None = None) -> list[dict]:
    """The `dispute_opened` event for `player` disputing event `version` (its id is `d<its version>`).

    `window` holds stored envelopes ending at `version` (a few before it suffice) so the opening setup,
    which nothing could deal again, is refused."""
    if match.status == "finished":
        raise RuleViolation("platform:dispute.match-finished", T("a finished match cannot be disputed"))
    if match.status != "active":
        raise RuleViolation("platform:dispute.not-started", T("the match has not started"))
    if match.open_dispute():
        raise RuleViolation("platform:dispute.already-open", T("another dispute is open; wait for its resolution"))
    check_not_conceded(match, player)
    if not voters(match, {"by": player}):
        raise RuleViolation("platform:dispute.no-voters", T("nobody else is seated to vote on a dispute"))
    if version not in set(match.effective):
        raise RuleViolation("platform:dispute.not-a-move",
                            T("version {version} is not a game event in the effective history", version=version))
    if window and window[-1].get("version") == version and opening_setup(window):
        raise RuleViolation("platform:dispute.not-a-move", T("the opening setup cannot be disputed"))
    reason = (reason or "").replace("\r\n", "\n")  # a client's CRLF line breaks are line breaks
    if not reason.strip():
        raise RuleViolation("platform:dispute.reason", T("say why you dispute this event"))
    bad = refused_in_message(reason)
    if bad is not None:
        raise RuleViolation("platform:dispute.invisible-character",
                            T("a reason may not hold control characters or direction overrides (U+{ord:04X})",
                              ord=ord(bad)))
    dispute_id = f"d{match.version + 1}"
    return [new_event(pe.DISPUTE_OPENED, dispute=dispute_id, version=version, reason=reason.strip(), by=player,
                      deadline=deadline)]


def _dispute(match, dispute_id: str) -> dict:
    dispute = match.disputes.get(dispute_id)
    if dispute is None:
        raise RuleViolation("platform:dispute.unknown", T("no dispute {dispute_id} in this match",
                                                          dispute_id=repr(dispute_id)))
    if dispute["status"] != OPEN:
        raise RuleViolation("platform:dispute.closed", T("dispute {dispute_id} is already {status}",
                                                         dispute_id=dispute_id, status=dispute['status']))
    return dispute


def revert_to(match, from_version: int, **why) -> dict:
    """The `moves_reverted` event dropping every effective game event from `from_version` on (to_version is
    the last one dropped)."""
    reverted = [v for v in match.effective if v >= from_version]
    return new_event(pe.MOVES_REVERTED, from_version=from_version, to_version=max(reverted, default=from_version),
                     reverted=reverted, **why)


def decide_vote(match, player: str, dispute_id: str, accept: bool) -> list[dict]:
    """`dispute_voted`, plus the resolution when this vote settles it (any reject, or the last accept)."""
    dispute = _dispute(match, dispute_id)
    if player == dispute["by"]:
        raise RuleViolation("platform:dispute.own-dispute", T("you opened this dispute; the other players vote"))
    check_not_conceded(match, player)
    if player in dispute["votes"]:
        raise RuleViolation("platform:dispute.already-voted", T("you have already voted on this dispute"))
    events = [new_event(pe.DISPUTE_VOTED, dispute=dispute_id, player=player, accept=bool(accept))]
    if not accept:
        events.append(new_event(pe.DISPUTE_RESOLVED, dispute=dispute_id, status=REJECTED, cause="vote"))
        return events
    accepted = {p for p, yes in dispute["votes"].items() if yes} | {player}
    if all(p in accepted for p in voters(match, dispute)):
        events.append(new_event(pe.DISPUTE_RESOLVED, dispute=dispute_id, status=ACCEPTED, cause="vote"))
        start = first_version(match, dispute["version"])
        events.append(revert_to(match, start, cause="dispute", dispute=dispute_id, by=dispute["by"]))
    return events


def deadline_passed(vote: dict | None, now: str) -> bool:
    """True if a vote (a dispute, a rules proposal) is still open and its deadline has passed at `now`."""
    return (vote is not None and vote["status"] == OPEN and vote.get("deadline") is not None
            and parse_time(now) >= parse_time(vote["deadline"]))


def expiry_due(match, dispute_id: str, now: str) -> bool:
    """True if the dispute is still open and its deadline has passed at `now`."""
    return deadline_passed(match.disputes.get(dispute_id), now)


def decide_expire(match, dispute_id: str, now: str) -> list[dict]:
    """`dispute_resolved {status: rejected, cause: deadline}` once the deadline has passed."""
    dispute = _dispute(match, dispute_id)
    if not expiry_due(match, dispute_id, now):
        raise RuleViolation("platform:dispute.not-due", T("dispute {dispute_id} is open until {deadline}",
                                                          dispute_id=dispute_id, deadline=dispute['deadline']))
    return [new_event(pe.DISPUTE_RESOLVED, dispute=dispute_id, status=REJECTED, cause="deadline")]
