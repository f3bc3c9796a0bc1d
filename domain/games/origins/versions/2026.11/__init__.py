"""Origins: First Builders (game id `origins`): exports the game module object GAME."""
from .game import GAME

__all__ = ["GAME"]
