"""Consent to a seat: an invited player accepts or declines; a decline cancels the match.

A match that seats other users is `invited` until every invited player has accepted (the service then
appends `match_started` and the setup in the same append); one decline appends `invitation_declined`
and `match_cancelled`, and the match never starts.
"""
from __future__ import annotations

from . import platform_events as pe
from .aggregate import new_event
from .errors import RuleViolation
from .text import T

NOT_PENDING = "platform:invitation.not-pending"


def accepted(match, player: str) -> bool:
    """True when `player` is seated and owes no consent (accepted, the creator, or a seat needing none)."""
    return player in match.players and player not in match.invited


def decide_accept(match, player: str) -> list[dict]:
    """`invitation_accepted` for an invited player of an `invited` match."""
    if match.status == "cancelled":
        raise RuleViolation("platform:match.cancelled", T("the match was cancelled"))
    if match.status != "invited" or player not in match.invited:
        raise RuleViolation(NOT_PENDING, T("no invitation of yours is waiting in this match"))
    return [new_event(pe.INVITATION_ACCEPTED, player=player)]


def decide_decline(match, player: str) -> list[dict]:
    """`invitation_declined` and `match_cancelled`: a seated player (the creator withdrawing included)
    refuses a match that has not started."""
    if match.status == "cancelled":
        raise RuleViolation("platform:match.cancelled", T("the match was cancelled"))
    if match.status != "invited":
        raise RuleViolation(NOT_PENDING, T("this match is not waiting for consent; it can no longer be declined"))
    return [new_event(pe.INVITATION_DECLINED, player=player),
            new_event(pe.MATCH_CANCELLED, reason="declined", by=player)]
