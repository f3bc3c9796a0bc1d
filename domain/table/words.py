"""A game drawing's words in the page's language (domain/table/speech.py): its own table of words from game data
(colours, square kinds, phases), the game's `Text` functions and the printed names of its data."""
from __future__ import annotations

from domain.engine.text import Text, name
from domain.table import speech


def word(words: dict, key) -> str:
    """A game-data word of a drawing's `words` table in the page's language (unknown ones as they are)."""
    return str(words[key]) if key in words else str(key)


def said(words_of):
    """A game module's words function (it returns an English `Text`) giving the page's language instead."""
    return lambda *args, **kwargs: speech.say(words_of(*args, **kwargs))


def say_name(printed) -> str:
    """A printed name of the game's data (an English string or its `Text`) in the page's language."""
    return speech.say(printed if isinstance(printed, Text) else name(printed))
