"""Game-agnostic engine: the game contract, the match aggregate, rule violations, auditable randomness."""
from .contract import ALL, Bots, Game, Table, command, event
from .errors import RuleViolation
from .rng import HmacRng, ReplayRng, Rng, ScriptedRng

__all__ = ["ALL", "Bots", "Game", "Table", "RuleViolation", "Rng", "HmacRng", "ReplayRng", "ScriptedRng", "command", "event"]
