"""The "How to play" page of each game (GET /games/<id>/rules): texts written for a player, kept as data in the
game's own package (text/rules.<lang>.json in its declared `table.folder`, frozen with its rules version), with an
anchor `rule-<rule id>` per rule the game's code can refuse a command with. A game without them has no page."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from flask import Blueprint, g, render_template

from service.web.http import wiring
from service.web.pages import SECURITY_HEADERS, error_page, page_user

bp = Blueprint("rules", __name__)

SECTIONS = ("goal", "turn", "actions", "scoring", "end")
LEARNING_BOT = "greedy"  # the learning opponent: plays sensibly and answers at once


def texts_of(game, lang: str) -> dict | None:
    """A game's rules texts in `lang` (English when that language has none), or None for a game without."""
    table = getattr(game, "table", None)
    return _texts(Path(table.folder) / "text", lang) if table is not None else None


@cache
def _texts(folder: Path, lang: str) -> dict | None:
    """The rules texts in a game's text folder, in `lang` or else English (None: there are none)."""
    for code in (lang, "en"):
        path = folder / f"rules.{code}.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    return None


def rules_text(game_id: str, lang: str) -> dict | None:
    """The rules texts in `lang` of this app's game `game_id` (None for an unknown game or one without)."""
    return texts_of(wiring().games.get(game_id), lang)


def rule_ids(text: dict) -> list:
    """Every rule id a rules text explains, in page order."""
    return [entry[0] for group in text.get("rules", []) for entry in group["entries"]]


def page_language() -> str:
    """The language of this page: the switch's cookie, else the browser's Accept-Language (service/web/i18n.py)."""
    from service.web.i18n import choose_language
    return choose_language()


@bp.app_template_global()
def rules_url(game_id: str) -> str | None:
    """The game's rules page, or None for a game without rules texts (the match page links it when there)."""
    return f"/games/{game_id}/rules" if rules_text(game_id, "en") is not None else None


@bp.after_request
def page_headers(response):
    """The pages' security headers; private when it carries the signed-in player's form token."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if g.get("page_user") is not None:
        response.headers.setdefault("Cache-Control", "private, no-cache")
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    return response


@bp.get("/games/<game_id>/rules")
def rules_page(game_id):
    """How to play the game: goal, a turn, the actions, scoring, the end, and each rule the game checks."""
    game = wiring().games.get(game_id)
    lang = page_language()
    text = texts_of(game, lang)
    if text is None:
        return error_page(404, f"There is no game {game_id!r} with rules to read.")
    bots = ", ".join([LEARNING_BOT] * (game.min_players - 1))
    return render_template("rules.html", user=page_user(), game=game, text=text, lang=lang, page_lang=lang,
                           sections=[s for s in text["sections"] if s["id"] in SECTIONS], bots=bots,
                           seats=game.min_players)
