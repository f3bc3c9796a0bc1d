"""A game's page wording: the tables of its package's words module (domain/games/<pkg>/words.py, described in
docs/adding-a-game.md), reached through the game's declaration (`game.table.words`) of the match's rules version."""
from __future__ import annotations


def table(game, name: str, default):
    """The game's wording table `name`, or `default` when the game declares no words or not that table."""
    words = game.table.words if game is not None and game.table is not None else None
    return getattr(words, name, default)
