"""The take-back policy: which command a player may take back, and the `moves_reverted` event that does it.

A command is the run of consecutive game events one `execute` appended: same actor, same `cmd` marker
(every command's events carry a marker of their own, the client's command id or a generated one), same
timestamp. A player may take back their own last effective command while the match is running,
no dispute is open, nobody else has acted since, and it revealed no randomness and no hidden
information. Every refusal cites one `platform:undo.*` rule, but a player who conceded: their seat is the
stand-in's (`platform:concede.conceded`), whose moves they may not take back.
"""
from __future__ import annotations

import json

from . import platform_events as pe
from .aggregate import game_event, new_event
from .commands import game_run_start, same_command
from .concede import check_not_conceded
from .errors import RuleViolation
from .rng import Rng
from .text import T

FINISHED = "platform:undo.match-finished"
NOT_STARTED = "platform:undo.not-started"
DISPUTE_OPEN = "platform:undo.dispute-open"
NO_COMMAND = "platform:undo.no-command"
OTHERS_ACTED = "platform:undo.others-acted"
RANDOMNESS = "platform:undo.randomness"
HIDDEN = "platform:undo.hidden-information"


def last_command(envelopes: list, effective: set, player: str) -> tuple[list, list]:
    """(the envelopes of `player`'s last effective command, the envelopes after it); ([], []) if none."""
    for i in range(len(envelopes) - 1, -1, -1):
        env = envelopes[i]
        if env["scope"] == pe.GAME and env["actor"] == player and env["version"] in effective:
            start = game_run_start(envelopes, i)
            end = i + 1
            while end < len(envelopes) and same_command(envelopes[end], env):
                end += 1
            return envelopes[start:end], envelopes[end:]
    return [], []


def reveals_hidden(game, players: list, env: dict) -> bool:
    """True if a game event reveals hidden information: a revealing type, or redacted for some viewer."""
    if env["scope"] != pe.GAME:
        return False
    if env["type"] in getattr(game, "revealing_events", frozenset()):
        return True
    event = game_event(game, env)  # in the payload shape the match's rules read
    for viewer in list(players) + [None]:
        seen = game.redact(event, viewer)
        if seen is None or seen.get("type") != event["type"] or seen.get("data") != event["data"]:
            return True
    return False


def takeback_range(match, player: str) -> list:
    """The envelopes `player` may take back now (their last command), or raise the rule that forbids it."""
    if match.status == "finished":
        raise RuleViolation(FINISHED, T("the match has finished; a finished match cannot be taken back"))
    if match.status != "active":
        raise RuleViolation(NOT_STARTED, T("the match has not started; there is nothing to take back"))
    check_not_conceded(match, player)
    if match.open_dispute():
        raise RuleViolation(DISPUTE_OPEN, T("a dispute is open; take-backs wait until it is resolved"))
    effective = set(match.effective)
    command, after = last_command(match.envelopes, effective, player)
    if match.base and (not command or command[0] is match.envelopes[0]):
        command, after = last_command(match.envelopes_since(1), effective, player)
    if not command:
        raise RuleViolation(NO_COMMAND, T("you have no move left to take back"))
    if any(env.get("actor") != player and env["type"] not in pe.NOT_ACTIONS for env in after):
        raise RuleViolation(OTHERS_ACTED, T("someone else has acted since your last move"))
    if any(env.get("rng") for env in command):
        raise RuleViolation(RANDOMNESS, T("your last move revealed a random outcome; only a dispute can revert it"))
    if any(reveals_hidden(match.game, match.players, env) for env in command):
        raise RuleViolation(HIDDEN, T("your last move revealed hidden information; only a dispute can revert it"))
    return command


def may_take_back(match, player: str) -> bool:
    """Whether `player` may take their last command back now (the policy above, without its refusal)."""
    try:
        takeback_range(match, player)
    except RuleViolation:
        return False
    return True


class _Drew(Exception):
    """A command asked for a random draw."""


class _NoDraws(Rng):
    """Randomness that stops a command at its first draw (whether a command draws does not depend on values)."""

    def _next(self, lo: int, hi: int) -> int:
        raise _Drew()


def could_take_back(match, player: str, command: dict) -> bool:
    """Whether `command`, sent by `player` now, could be taken back right after (until anyone else acts): it would
    draw no randomness, reveal nothing hidden and not end the match. Decided on a copy; nothing is sent."""
    game = match.game
    try:
        events = game.decide(match.game_state, player, command, _NoDraws())
    except (_Drew, RuleViolation):
        return False
    if any(reveals_hidden(game, match.players, {"scope": pe.GAME, **e}) for e in events):
        return False
    state = json.loads(json.dumps(match.game_state))
    for e in events:
        state = game.evolve(state, e)
    return game.result(state) is None


def decide_takeback(match, player: str) -> list[dict]:
    """The `moves_reverted` event taking back `player`'s last command (or raise a platform:undo rule)."""
    command = takeback_range(match, player)
    reverted = [env["version"] for env in command if env["scope"] == pe.GAME]
    return [new_event(pe.MOVES_REVERTED, from_version=reverted[0], to_version=reverted[-1], reverted=reverted,
                      cause="takeback", by=player)]
