"""The "How to play" page of each game (GET /games/<id>/rules): its rules texts (service/web/rules_texts.py), with
an anchor `rule-<rule id>` per rule the game's code can refuse a command with. A game without them has no page."""
from __future__ import annotations

from flask import Blueprint, g, render_template

from service.web.browser import page_user
from service.web.http import wiring
from service.web.i18n import choose_language
from service.web.pages.errors import error_page
from service.web.pages.site import SECURITY_HEADERS
from service.web.rules_texts import rules_text, texts_of

bp = Blueprint("rules", __name__)

SECTIONS = ("goal", "turn", "actions", "scoring", "end")
LEARNING_BOT = "greedy"  # the learning opponent: plays sensibly and answers at once


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
    lang = choose_language()
    text = texts_of(game, lang)
    if text is None:
        return error_page(404, f"There is no game {game_id!r} with rules to read.")
    bots = ", ".join([LEARNING_BOT] * (game.min_players - 1))
    return render_template("rules.html", user=page_user(), game=game, text=text, lang=lang, page_lang=lang,
                           sections=[s for s in text["sections"] if s["id"] in SECTIONS], bots=bots,
                           seats=game.min_players)
