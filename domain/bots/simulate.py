"""Playing commands on a determinized state with the game's own decide and evolve."""
from __future__ import annotations

from domain.engine import RuleViolation


def step(game, state: dict, player: str, command: dict, rng) -> dict | None:
    """The state after `player` sends `command` (evolved in place), or None if the rules refuse it."""
    try:
        events = game.decide(state, player, command, rng)
    except RuleViolation:
        return None
    for ev in events:
        state = game.evolve(state, ev)
    return state


def to_move(game, state: dict) -> str | None:
    """The seat a simulation moves for next (the first active one), or None when nobody can act."""
    active = game.active_players(state)
    return active[0] if active else None
