"""Words the boards show from game data (colours, square kinds, phases, temples, orders, bonuses), each marked
for extraction so that the catalogue keeps them; anything else is shown as it comes."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

WORDS = {
    "yellow": _l("yellow"), "grey": _l("grey"), "red": _l("red"), "blue": _l("blue"), "brown": _l("brown"),
    "orange": _l("orange"), "purple": _l("purple"), "green": _l("green"), "farm": _l("farm"),
    "base": _l("Galactic Base"), "city": _l("city"), "port": _l("spaceport"), "nav": _l("navigation"),
    "telegate": _l("telegate"), "orbital": _l("orbital square"),
    "setup": _l("setup"), "declare": _l("declare"), "roll": _l("roll"), "move": _l("move"), "trade": _l("trade"),
    "ended": _l("ended"), "finished": _l("finished"),
    "cultural": _l("cultural"), "industrial": _l("industrial"), "hazardous": _l("hazardous"),
    "frontier": _l("frontier"),
    "sea": _l("sea"), "forest": _l("forest"), "mountain": _l("mountain"),
    "Production": _l("Production"), "Expeditions": _l("Expeditions"), "Draconias": _l("Draconias"),
    "Trade": _l("Trade"), "Construction": _l("Construction"),
    "bonus: temple +1": _l("bonus: temple +1"), "bonus: build": _l("bonus: build"), "bonus: war": _l("bonus: war"),
    "bonus: orator die": _l("bonus: orator die"), "bonus: resource": _l("bonus: resource"),
    "no bonus": _l("no bonus"),
}


def word(key) -> str:
    """A game-data word in the page's language (unknown ones as they are)."""
    return str(WORDS[key]) if key in WORDS else str(key)


def said(words_of):
    """A game module's words function (it returns an English `Text`) giving the page's language instead."""
    from service.web.game_words import say
    return lambda *args, **kwargs: say(words_of(*args, **kwargs))


def say_name(printed) -> str:
    """A printed name of the game's data (an English string or its `Text`) in the page's language."""
    from domain.engine.text import Text, name
    from service.web.game_words import say
    return say(printed if isinstance(printed, Text) else name(printed))
