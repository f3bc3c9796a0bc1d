"""The games' own words in the page's language: a `Text` from the game modules (domain/engine/text.py) rendered
through each game's own catalogue (its package's text/words.<lang>.po), then the platform's `games` gettext
catalogue (service/web/translations/<lang>/LC_MESSAGES/games.po), and the printed names
of the games' data and their titles (each installed game's text/names.<lang>.json in its package, every rules version
of it); player names and plain strings are shown as they are."""
from __future__ import annotations

import gettext
import io
import json
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import has_request_context

from domain.engine.text import NAME, Text, fill, name_key
from domain.games import load_games
from service.web.http import hosted_games as of_app
from service.web.i18n import choose_language

HERE = Path(__file__).resolve().parent
TRANSLATIONS = HERE / "translations"
DOMAIN = "games"


def hosted_games() -> tuple:
    """The games this app hosts (its wiring's, in a request; else every installed game)."""
    if has_request_context():
        games = of_app()
        if games is not None:
            return tuple(games.values())
    return tuple(load_games().values())


def catalogue(lang: str) -> gettext.NullTranslations:
    """The words of `lang` for the games this app hosts (see `catalogue_of`)."""
    return catalogue_of(lang, hosted_games())


@cache
def catalogue_of(lang: str, games: tuple) -> gettext.NullTranslations:
    """The words of `lang`: each game's own (its package's text/words.<lang>.po, every rules version, the current
    first), then the platform's `games` catalogue (English, or a language without one, says the templates as
    written)."""
    platform = gettext.translation(DOMAIN, str(TRANSLATIONS), languages=[lang], fallback=True)
    chain = [own for game in games for version in reversed(game.rules_versions)
             if (own := own_words(game.at(version), lang)) is not None]
    if not chain:
        return platform
    for own in chain[1:] + [platform]:
        chain[0].add_fallback(own)  # appended at the end of the chain
    return chain[0]


def own_words(game, lang: str) -> gettext.GNUTranslations | None:
    """A game's own catalogue in `lang`, read from its package's text/words.<lang>.po (None: it has none)."""
    path = Path(game.table.folder) / "text" / f"words.{lang}.po" if game.table is not None else None
    if path is None or not path.is_file():
        return None
    compiled = io.BytesIO()
    with path.open("rb") as source:
        write_mo(compiled, read_po(source, locale=lang))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def names_file(game, lang: str) -> Path | None:
    """A game's printed names in `lang` (its package's text/names.<lang>.json), None for a game without a table."""
    return Path(game.table.folder) / "text" / f"names.{lang}.json" if game.table is not None else None


def names(lang: str) -> dict:
    """{English printed name: its name in `lang`} for the hosted games (see `names_of`)."""
    return names_of(lang, hosted_games())


@cache
def names_of(lang: str, games: tuple) -> dict:
    """{English printed name: its name in `lang`} for the games' data (cards, buildings, cultures) and titles; a
    game's older rules versions first, so its current names win."""
    found: dict = {}
    for game in games:
        for version in game.rules_versions:
            path = names_file(game.at(version), lang)
            if path is not None and path.is_file():
                found.update(json.loads(path.read_text(encoding="utf-8")))
    return found


def render(value, lang: str) -> str:
    """`value` in `lang`: a Text translated with its params, anything else as it is (a player's name)."""
    if not isinstance(value, Text) or lang == "en":
        return str(value)
    if value.parts is not None:
        return render(value.sep, lang).join(render(p, lang) for p in value.parts)
    if value.context == NAME:
        return names(lang).get(name_key(value), str(value))
    if value.template is None:
        return str(value)
    cat = catalogue(lang)
    if value.plural is not None:
        template = cat.ngettext(value.template, value.plural, value.n if isinstance(value.n, int) else 5)
    elif value.context is not None:  # a template kept apart by its context (domain/engine/text.py, TC)
        template = cat.pgettext(value.context, value.template)
    else:
        template = cat.gettext(value.template)
    params = {k: render(v, lang) if isinstance(v, Text) else v for k, v in value.params.items()}
    try:
        return fill(template, params)
    except (ValueError, IndexError, KeyError, AttributeError):  # a broken translation shows the English
        return str(value)


def say(value) -> str:
    """`value` in this page's language (outside a request: English)."""
    if not has_request_context():
        return str(value)
    return render(value, choose_language())
