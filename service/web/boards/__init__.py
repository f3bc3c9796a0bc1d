"""Board pictures: dispatch a game's view to service/web/boards/<package>.py's SVG renderer."""
from __future__ import annotations

import functools
import importlib
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


def module_name(game_id: str, rules_version: str | None = None) -> str:
    """The renderer module of a game id (`merchant-of-venus` -> service.web.boards.merchant_of_venus), or of one of
    its rules versions (`2026.11` -> service.web.boards.merchant_of_venus_2026_11)."""
    name = f"{__name__}.{game_id.replace('-', '_')}"
    return name if rules_version is None else f"{name}_{rules_version.replace('.', '_').replace('-', '_')}"


@functools.lru_cache(maxsize=None)
def board_module(game_id: str, rules_version: str | None = None):
    """The module drawing the game's board under `rules_version`: that version's own copy where one was kept (a
    rules bump whose view changed shape keeps the old drawing beside the old rules), else the game's; None when
    the game has none."""
    if rules_version is not None:
        kept = _imported(module_name(game_id, rules_version))
        if kept is not None:
            return kept
    return _imported(module_name(game_id))


def _imported(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def renderer(game_id: str, rules_version: str | None = None):
    """The game's `render_board(view, viewer)` function (for that rules version), or None when it has none."""
    return getattr(board_module(game_id, rules_version), "render_board", None)


def place_of(game_id: str, view, command: dict, rules_version: str | None = None):
    """(place key, payload field) of the board place a command acts on, or None (see each board's place_of)."""
    find = getattr(board_module(game_id, rules_version), "place_of", None)
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
        label = f"{len(acts)} choices: " + "; ".join(a["text"] for a in acts[:6]) + ("…" if len(acts) > 6 else "")
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


def has_picture(game_id: str) -> bool:
    """True when the game's board is drawn as a picture (its renderer module exists)."""
    return renderer(game_id) is not None


def with_names(svg: str, names: dict | None) -> str:
    """Show display names instead of user ids in a drawn board (ids are unique random tokens)."""
    for user_id, name in sorted((names or {}).items(), key=lambda kv: -len(kv[0])):
        if user_id and name and user_id != name:
            svg = svg.replace(str(escape(user_id)), str(escape(name)))
    return svg


def render_board(game_id: str, view, viewer, names: dict | None = None, actions: list | None = None,
                 rules_version: str | None = None) -> Markup:
    """The board of `view` (a match under `rules_version`) as markup-safe SVG (the escaped JSON view when no renderer
    exists); the places the viewer's legal `actions` act on are clickable."""
    draw = renderer(game_id, rules_version)
    if draw is None:
        return json_board(view)
    try:
        return Markup(interactive(focus_once(with_readable_width(with_names(draw(view, viewer), names))), actions))
    except Exception:  # a drawing bug must not hide the match: show the view as text instead
        log.exception("the %s board renderer failed", game_id)
        return json_board(view)
