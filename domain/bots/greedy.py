"""The greedy bot: the legal command whose outcome, with the seat's best follow-up in the same turn,
scores best on the game's evaluation (one ply: the seat's own turn, nobody else's reply)."""
from __future__ import annotations

import json
from dataclasses import dataclass

from .evaluation import advantage
from .information import InformationSet, SimRng, canonical
from .simulate import step

FOLLOW_UPS = 1  # further commands of the same turn looked at (orders take two: issue, then resolve)


def outcome_value(game, state: dict, player: str) -> tuple:
    """Won beats unfinished beats lost; then the seat's lead over the best other seat."""
    result = game.result(state)
    finished = 0
    if result is not None:
        winners = result.get("winners") or []
        finished = 1 if player in winners else -1
    return finished, advantage(game, state, player)


def best_value(game, state: dict, player: str, dice: int, follow_ups: int) -> tuple:
    """The value of `state` for `player`, trying their best next command while it is still their turn."""
    value = outcome_value(game, state, player)
    if follow_ups <= 0 or value[0] != 0 or game.active_players(state)[:1] != [player]:
        return value
    frozen = json.dumps(state)
    best = None
    for command in canonical(game.legal_commands(state, player)):
        after = step(game, json.loads(frozen), player, command, SimRng(dice))
        if after is not None:
            candidate = best_value(game, after, player, dice, follow_ups - 1)
            best = candidate if best is None or candidate > best else best
    return best if best is not None else value


def rank(info: InformationSet, rng: SimRng, should_stop=None) -> list:
    """[(value, command)] for every legal command tried on one determinization (the same simulated dice
    for each), best first; equal values in a seeded random order. When `should_stop()` turns true the
    commands tried so far are ranked (at least one is always tried)."""
    return ranked_on_sample(info, rng, should_stop)[1]


def ranked_on_sample(info: InformationSet, rng: SimRng, should_stop=None) -> tuple:
    """(the determinization's value for the seat before any command, `rank`'s list on it)."""
    game, me = info.game, info.player
    sample = info.sample(rng)
    now = outcome_value(game, sample, me)
    sampled = json.dumps(sample)
    dice = rng.randint(0, 2 ** 31)
    scored = []
    for command in info.legal:
        if scored and should_stop is not None and should_stop():
            break
        after = step(game, json.loads(sampled), me, command, SimRng(dice))
        if after is not None:
            scored.append((best_value(game, after, me, dice, FOLLOW_UPS), rng.random(), command))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return now, [(value, command) for value, _tie, command in scored]


@dataclass(frozen=True)
class Advice:
    """The greedy bot's choice for a seat and why, on the determinization it judged by: `now` and `after` are
    (won 1 / unfinished 0 / lost -1, the seat's lead over the best other seat) before and after the command
    (None when it was the only legal one: nothing was weighed)."""

    command: dict
    now: tuple | None = None
    after: tuple | None = None


def advise(info: InformationSet, seed: int, should_stop=None) -> Advice:
    """The command `choose` sends for this seed, with the values it was chosen by."""
    rng = SimRng(seed)
    if len(info.legal) == 1:
        return Advice(info.legal[0])
    now, ranked = ranked_on_sample(info, rng, should_stop)
    if not ranked:
        return Advice(rng.choice(info.legal))
    return Advice(ranked[0][1], now, ranked[0][0])


def choose(info: InformationSet, seed: int, should_stop=None) -> dict:
    """The best command by `rank` (ties broken at random, seeded)."""
    return advise(info, seed, should_stop).command
