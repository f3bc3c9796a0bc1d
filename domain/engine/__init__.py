"""Game-agnostic engine: the game contract, the match aggregate, rule violations, auditable randomness."""
from .contract import ALL, Game, command, event
from .errors import RuleViolation
from .rng import HmacRng, ReplayRng, Rng, ScriptedRng

__all__ = ["ALL", "Game", "RuleViolation", "Rng", "HmacRng", "ReplayRng", "ScriptedRng", "command", "event"]
