"""The greedy bot: the legal command whose outcome, with the seat's best follow-up in the same turn,
scores best on the game's evaluation (one ply: the seat's own turn, nobody else's reply)."""
from __future__ import annotations

import json

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
    game, me = info.game, info.player
    sampled = json.dumps(info.sample(rng))
    dice = rng.randint(0, 2 ** 31)
    scored = []
    for command in info.legal:
        if scored and should_stop is not None and should_stop():
            break
        after = step(game, json.loads(sampled), me, command, SimRng(dice))
        if after is not None:
            scored.append((best_value(game, after, me, dice, FOLLOW_UPS), rng.random(), command))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(value, command) for value, _tie, command in scored]


def choose(info: InformationSet, seed: int, should_stop=None) -> dict:
    """The best command by `rank` (ties broken at random, seeded)."""
    rng = SimRng(seed)
    if len(info.legal) == 1:
        return info.legal[0]
    ranked = rank(info, rng, should_stop)
    return ranked[0][1] if ranked else rng.choice(info.legal)
