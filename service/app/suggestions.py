"""Learning by playing: in a match against bots, the move the greedy bot would make for the caller, and the values
(won or lost, the caller's lead) it chose it by; the web layer says them in words."""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from domain.bots import information_set
from domain.bots.greedy import Advice, advise
from domain.engine import RuleViolation
from domain.engine.aggregate import check_can_play
from domain.engine.bot_seats import is_bot
from domain.engine.concede import check_not_conceded

from service.app.errors import Conflict, NotSeated, SuggestionsOff, refused

# a bound on the search, not a budget: the greedy bot of the four games needs 150 ms at most, so a version's
# suggestion is the same move however often it is asked (a time-cut search would depend on the machine's load)
THINK_MS = 1000.0


@dataclass(frozen=True)
class Suggestion:
    """The greedy bot's advice to `player` at `version`, with the game, the seats and a copy of the state it was
    given in (for the command's words)."""

    game: Any
    state: dict
    players: tuple
    player: str
    version: int
    advice: Advice


def seed_of(match_id: str, version: int, player: str) -> int:
    """The seed a bot of this seat would choose with at this version (workers/bot_turns.py), so the suggestion
    is the move the greedy bot would send."""
    return int.from_bytes(hashlib.sha256(f"{match_id}:{version}:{player}".encode()).digest()[:8], "big")


def check_may_ask(match, player: str) -> None:
    """Raise unless `player` may be suggested a move now: seated, every other seat a bot, the match being played
    and the player to move."""
    if player not in match.players:
        raise NotSeated("you are not seated in this match")
    if any(not is_bot(p) for p in match.players if p != player):
        raise SuggestionsOff("suggestions are given only in a match where every other seat is a bot")
    try:
        check_can_play(match, player)
        check_not_conceded(match, player)
    except RuleViolation as exc:
        raise refused(exc, match.game_id) from None
    if player not in match.active_players():
        raise Conflict("it is not your move: there is nothing to suggest", "not_your_move")


def suggest(matches, player: str, match_id: str, think_ms: float = THINK_MS) -> Suggestion:
    """The greedy bot's choice for `player` from their information set (seeded as the bot's own turn would be)."""
    def advice_now(match):
        check_may_ask(match, player)
        state = json.loads(json.dumps(match.game_state))  # a later command changes the cached fold in place
        info = information_set(match.game, state, player)
        deadline = time.monotonic() + think_ms / 1000.0
        chosen = advise(info, seed_of(match.id, match.version, player), lambda: time.monotonic() >= deadline)
        return Suggestion(match.game, state, tuple(match.players), player, match.version, chosen)

    return matches.read(match_id, advice_now)
