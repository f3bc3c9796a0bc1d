"""Bots are named in the page's language ("Жадный бот"), not by the English names stored for their seats."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from domain.bots import NAMES as STORED
from domain.engine.bot_seats import bot_level, is_bot

SHOWN = {"random": _l("Random bot"), "greedy": _l("Greedy bot"), "mcts": _l("MCTS bot")}


def said_names(names: dict) -> dict:
    """{user id: name} with each bot whose name is still its level's stored one named in the page's language."""
    return {uid: (str(SHOWN[level]) if is_bot(uid) and (level := bot_level(uid)) in SHOWN
                  and name == STORED.get(level) else name) for uid, name in names.items()}
