"""Rematch: a seated player of a finished match asks for the same game, seats and options again."""
from __future__ import annotations

import hashlib

from . import platform_events as pe
from .aggregate import new_event
from .errors import RuleViolation
from .text import T


def rematch_id(match_id: str) -> str:
    """The id the rematch of `match_id` gets: derived from it, so asking twice names one new match."""
    return "m_" + hashlib.sha256(f"rematch:{match_id}".encode()).hexdigest()[:16]


def decide_rematch(match, player: str) -> list[dict]:
    """`rematch_created {match}` on the finished match (once: the first ask names the new match)."""
    if player not in match.players:
        raise RuleViolation("platform:rematch.not-seated", T("only the players of a match may ask for its rematch"))
    if match.status != "finished":
        raise RuleViolation("platform:rematch.not-finished", T("a rematch follows a finished match"))
    if match.rematch is not None:
        raise RuleViolation("platform:rematch.exists", T("this match's rematch is {rematch}", rematch=match.rematch))
    return [new_event(pe.REMATCH_CREATED, match=rematch_id(match.id), by=player)]
