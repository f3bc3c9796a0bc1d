"""The MCTS bot: information-set Monte Carlo tree search over determinizations of the seat's view.

The root's candidates are the greedy bot's best few commands (its ranking seeds each with one
virtual visit, so with no time to search the MCTS bot plays as the greedy one). Each iteration draws
a state consistent with the view, walks the tree choosing, for whoever moves, the command with the
best UCB among those legal in that determinization (counting availability, as single-observer ISMCTS
does), adds one node, plays an epsilon-greedy playout for a bounded depth with the game's own
decide/evolve (whoever moves sends the command whose immediate outcome scores best for them on the
game's evaluation, or a random one with probability EPSILON), and scores the end with that evaluation.
"""
from __future__ import annotations

import json
import math

from . import greedy
from .evaluation import reward, squashed
from .information import InformationSet, SimRng, canonical, command_key
from .simulate import step, to_move

EXPLORATION = 0.7  # the UCB constant of a game whose Bots declare none
ROLLOUT_DEPTH = 6
CANDIDATES = 4  # the greedy ranking's best commands the root searches among
DEFAULT_ITERATIONS = 200  # without a stop condition (tests, benchmarks pass their own)
EPSILON = 0.2  # how often a playout sends a random command instead of the one-ply best


class Node:
    """One command in the tree: who sent it, how often it was tried, available and how it paid off."""

    __slots__ = ("command", "actor", "children", "visits", "available", "total")

    def __init__(self, command=None, actor=None):
        self.command, self.actor = command, actor
        self.children: dict = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0

    def ucb(self, exploration: float = EXPLORATION) -> float:
        """Mean reward plus the exploration bonus."""
        return self.total / self.visits + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def exploration_for(game) -> float:
    """The UCB exploration constant of a game's search (its Bots' own, else the default)."""
    own = game.bots.exploration if game.bots is not None else None
    return EXPLORATION if own is None else own


def _iterate(info: InformationSet, root: Node, rng: SimRng, depth: int) -> None:
    """One determinization: select, expand, roll out, back up."""
    game = info.game
    exploration = exploration_for(game)
    state = info.sample(rng)
    node, path = root, []
    while game.result(state) is None:
        actor = info.player if node is root else to_move(game, state)
        if actor is None:
            break
        legal = [c.command for c in root.children.values()] if node is root \
            else canonical(game.legal_commands(state, actor))
        if not legal:
            break
        keys = [command_key(c) for c in legal]
        untried = [c for c, k in zip(legal, keys) if k not in node.children]
        for k in keys:
            if k in node.children:
                node.children[k].available += 1
        if untried:
            command = rng.choice(untried)
            child = node.children[command_key(command)] = Node(command, actor)
            child.available += 1
        else:
            child = max((node.children[k] for k in keys), key=lambda n: n.ucb(exploration))
        state = step(game, state, actor, child.command, rng)
        path.append(child)
        node = child
        if state is None or untried:
            break
    for _ in range(depth):
        if state is None or game.result(state) is not None:
            break
        actor = to_move(game, state)
        legal = game.legal_commands(state, actor) if actor else []
        if not legal:
            break
        if len(legal) > 1 and rng.random() >= EPSILON:
            command = playout_choice(game, state, actor, canonical(legal), rng)
        else:
            command = rng.choice(legal)
        state = step(game, state, actor, command, rng)
    rewards = {}
    for n in path:
        if n.actor not in rewards:
            rewards[n.actor] = reward(game, state, n.actor) if state is not None else 0.5
        n.visits += 1
        n.total += rewards[n.actor]


def playout_choice(game, state: dict, actor: str, legal: list, rng: SimRng) -> dict:
    """The command whose immediate outcome (same simulated dice for each) scores best for `actor`."""
    frozen = json.dumps(state)
    dice = rng.randint(0, 2 ** 31)
    best, best_value = legal[0], None
    for command in legal:
        after = step(game, json.loads(frozen), actor, command, SimRng(dice))
        if after is not None:
            value = greedy.outcome_value(game, after, actor)
            if best_value is None or value > best_value:
                best, best_value = command, value
    return best


def choose(info: InformationSet, seed: int, should_stop=None, iterations: int | None = None,
           depth: int = ROLLOUT_DEPTH) -> dict:
    """Search until `iterations` are done or `should_stop()` says so; send the most visited root command."""
    if len(info.legal) == 1:
        return info.legal[0]
    rng = SimRng(seed)
    root = Node()
    for value, command in greedy.rank(info, rng, should_stop)[:CANDIDATES]:
        child = root.children[command_key(command)] = Node(command, info.player)
        child.visits, child.available = 1, 1  # one virtual visit worth the greedy evaluation
        child.total = 1.0 if value[0] > 0 else 0.0 if value[0] < 0 else squashed(info.game, value[1])
    limit = iterations if iterations is not None else (None if should_stop else DEFAULT_ITERATIONS)
    done = 0
    while limit is None or done < limit:
        if should_stop is not None and should_stop():  # no time: the greedy ranking's best stands
            break
        _iterate(info, root, rng, depth)
        done += 1
    if not root.children:
        return rng.choice(info.legal)
    best = max(root.children.values(), key=lambda n: (n.visits, n.total))
    return best.command
