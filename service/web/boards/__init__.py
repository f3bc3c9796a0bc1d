"""Board pictures: a match's view drawn by its game's board (`game.at(rules_version).table.board`, the game's
drawing in its own package, domain/games/<pkg>/drawing.py), made clickable for the viewer's legal commands, with
display names for ids; the view as JSON for a game without one. The table kit (domain/table/) speaks the page's
language once the app calls speak_page_language."""
from __future__ import annotations

import json
import logging
import re

from html import unescape as html_unescape

import flask_babel
from markupsafe import Markup, escape

from domain.table import speech
from domain.table.svgkit import with_readable_width
from service.web.game_words import say

log = logging.getLogger("turnstream.boards")


def page_language() -> str:
    """The language Flask-Babel chose for this page ("en" outside a request)."""
    try:
        locale = flask_babel.get_locale()
    except RuntimeError:
        locale = None
    return locale.language if locale is not None else "en"


def speak_page_language() -> None:
    """Let the table kit and the games' drawings speak the page's language (domain/table/speech.py)."""
    speech.install(say=say, language=page_language, gettext=flask_babel.gettext, pgettext=flask_babel.pgettext)


def board_of(game):
    """The module drawing a game's board, from its declaration (`GAME.table.board`), or None when it has none.

    `game` is the game at the match's rules version (`match.game`, `GAME.at(version)`): an older version is a
    frozen copy of the whole package, so its table is the drawing of its own view."""
    table = getattr(game, "table", None)
    return getattr(table, "board", None)


def renderer(game):
    """The game's `render_board(view, viewer)` function, or None when it has none."""
    return getattr(board_of(game), "render_board", None)


def place_of(game, view, command: dict):
    """(place key, payload field) of the board place a command acts on, or None (see each board's place_of)."""
    find = getattr(board_of(game), "place_of", None)
    if find is None:
        return None
    try:
        return find(view if isinstance(view, dict) else {}, command)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


_PLACE = re.compile(r'data-place="([^"]*)"')


def interactive(svg: str, actions: list) -> str:
    """Make each drawn place a legal command acts on clickable and focusable.

    A place with one command carries that command's exact `data-command` JSON and its words as the
    aria-label; a place several commands share carries `data-choice` (the page then offers the matching
    buttons instead of guessing)."""
    by_place: dict = {}
    for act in actions or []:
        if act.get("place"):
            by_place.setdefault(act["place"], []).append(act)

    def mark(match):
        key = html_unescape(match.group(1))
        acts = by_place.get(key)
        if not acts:
            return match.group(0)
        common = f'{match.group(0)} tabindex="0" role="button" class="place-live"'
        if len(acts) == 1:
            return (f'{common} data-command="{escape(acts[0]["json"])}" '
                    f'aria-label="{escape(acts[0]["text"])}"')
        label = flask_babel.ngettext("%(num)d choice", "%(num)d choices", len(acts)) + ": " + \
            "; ".join(a["text"] for a in acts[:6]) + ("…" if len(acts) > 6 else "")
        return f'{common} data-choice="{escape(key)}" aria-label="{escape(label)}" aria-haspopup="true"'
    return _PLACE.sub(mark, svg)


_TERM = re.compile(r'<abbr class="term" tabindex="0" data-term="([^"]*)"')


def focus_once(markup: str) -> str:
    """Each term is a Tab stop once (its first occurrence); repeats still explain themselves on hover and tap."""
    seen: set = set()

    def once(match):
        if match.group(1) in seen:
            return f'<abbr class="term" data-term="{match.group(1)}"'
        seen.add(match.group(1))
        return match.group(0)
    return _TERM.sub(once, markup)


def json_board(view) -> Markup:
    """The readable fallback: the view as escaped, indented JSON."""
    text = json.dumps(view, indent=2, sort_keys=True, ensure_ascii=False)
    return Markup('<pre class="board-json">') + escape(text) + Markup("</pre>")


def has_picture(game) -> bool:
    """True when the game's board is drawn as a picture (its table declares a board with a renderer)."""
    return renderer(game) is not None


def with_names(svg: str, names: dict | None) -> str:
    """Show display names instead of user ids in a drawn board (ids are unique random tokens)."""
    for user_id, name in sorted((names or {}).items(), key=lambda kv: -len(kv[0])):
        if user_id and name and user_id != name:
            svg = svg.replace(str(escape(user_id)), str(escape(name)))
    return svg


def render_board(game, view, viewer, names: dict | None = None, actions: list | None = None) -> Markup:
    """The board of `view` (of a match of `game`, the game at its rules version) as markup-safe SVG (the escaped JSON
    view when the game draws none); the places the viewer's legal `actions` act on are clickable."""
    draw = renderer(game)
    if draw is None:
        return json_board(view)
    try:
        return Markup(interactive(focus_once(with_readable_width(with_names(draw(view, viewer), names))), actions))
    except Exception:  # a drawing bug must not hide the match: show the view as text instead
        log.exception("the %s board renderer failed", game.id)
        return json_board(view)
