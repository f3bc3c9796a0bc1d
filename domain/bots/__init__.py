"""Pure bots that play from one seat's information set: random, greedy (one ply) and MCTS (determinized)."""
from __future__ import annotations

from . import greedy, mcts, random_bot
from .information import InformationSet, information_set

LEVELS = {"random": random_bot.choose, "greedy": greedy.choose, "mcts": mcts.choose}
NAMES = {"random": "Random bot", "greedy": "Greedy bot", "mcts": "MCTS bot"}


def choose(level: str, info: InformationSet, seed: int, should_stop=None, iterations: int | None = None) -> dict:
    """The command the bot of `level` sends from `info`; `seed` makes it reproducible, `should_stop()`
    ends its thinking (MCTS searches until then; greedy stops trying commands), `iterations` caps MCTS."""
    if level == "mcts":
        return mcts.choose(info, seed, should_stop=should_stop, iterations=iterations)
    if level == "greedy":
        return greedy.choose(info, seed, should_stop=should_stop)
    return random_bot.choose(info, seed)


__all__ = ["LEVELS", "NAMES", "InformationSet", "choose", "information_set"]
