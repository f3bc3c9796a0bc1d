"""Conceding: a seated player gives the match up (`player_conceded`, a platform event).

With one seat left in play the match ends at once (`finish_events` sees it: `match_finished` + `seed_revealed`,
as for any end): that seat wins and the conceding players are ranked last. With more, a stand-in bot plays the
conceding player's seat from then on (`stand_in_started`, for good: the player's own commands are refused), and
when the game ends its result ranks every conceding player last, whatever the stand-in scored (results.py)."""
from __future__ import annotations

from . import platform_events as pe
from .aggregate import Match, check_can_play, new_event
from .bot_seats import STAND_IN_LEVEL
from .errors import RuleViolation
from .text import T

def check_not_conceded(m: Match, player: str) -> None:
    """Raise when `player` has conceded this match (a stand-in plays their seat for good)."""
    if player in m.conceded:
        raise RuleViolation("platform:concede.conceded", T("you conceded this match: a stand-in plays your seat"))


def decide_concede(m: Match, player: str) -> list:
    """The events of `player` conceding: the concession and, while more than one other seat is in play, a
    stand-in for their seat (with one left, the match ends: finish_events)."""
    check_can_play(m, player)
    check_not_conceded(m, player)
    in_play = [p for p in m.players if p not in m.conceded and p != player]
    events = [new_event(pe.PLAYER_CONCEDED, player=player)]
    if len(in_play) > 1 and player not in m.stand_ins:
        events.append(new_event(pe.STAND_IN_STARTED, player=player, bot=STAND_IN_LEVEL, conceded=True))
    return events
