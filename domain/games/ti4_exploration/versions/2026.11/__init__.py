"""ti4-exploration: Twilight Imperium 4 exploration skirmish (rule 73); exports GAME."""
from .game import GAME

__all__ = ["GAME"]
