"""A refusal shown on a page in the page's language: English pages keep the detailed message, others say it by its
code (the page's own words for a code first, then errors.PAGE_TEXT), a game's own words come translated."""
from __future__ import annotations

from flask_babel import gettext

from domain.engine.text import Text
from service.web.errors import PAGE_TEXT, ApiError
from service.web.game_words import say
from service.web.i18n import choose_language


def page_refusal(exc: ApiError, own: dict | None = None) -> str:
    """`exc`'s message for a page; `own` maps a code to words (or to a function of `exc` giving them, or None)."""
    if choose_language() == "en" or isinstance(exc.message, Text):
        return say(exc.message)
    words = (own or {}).get(exc.code)
    if callable(words):
        words = words(exc)
    words = words or PAGE_TEXT.get(exc.code)
    return str(words) if words else gettext("The request was refused.")
