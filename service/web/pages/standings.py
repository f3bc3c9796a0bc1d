"""The standings pages: a game's leaderboard and a player's ratings and finished matches."""
from __future__ import annotations

from flask import render_template, request
from flask_babel import lazy_gettext as _l

from service.app.errors import AppError
from service.web import ratings_views
from service.web.browser import page_user
from service.web.errors import ApiError, api_error
from service.web.http import wiring
from service.web.pages.errors import error_page
from service.web.pages.refusal_words import page_refusal
from service.web.pages.site import bp

STANDINGS_REFUSALS = {"not_found": _l("There is no such player or game.")}


def _standings_page(template: str, read, **context):
    """Render a standings template with what `read()` returns as `data`, or the error page for its ApiError."""
    try:
        data = read()
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return error_page(exc.status, page_refusal(exc, STANDINGS_REFUSALS))
    return render_template(template, user=page_user(), data=data, **context)


@bp.get("/games/<game_id>/leaderboard")
def leaderboard_page(game_id):
    """A game's ratings, best first."""
    w = wiring()
    return _standings_page("leaderboard.html",
                           lambda: ratings_views.leaderboard_page(w, game_id, request.args.get("page")),
                           game=w.games.get(game_id), games=list(w.games.values()))


@bp.get("/users/<user_id>")
def player_page(user_id):
    """A player's ratings per game and finished matches with results and rating changes."""
    w = wiring()
    return _standings_page("player.html", lambda: ratings_views.player_record(w, user_id),
                           titles={gm.id: gm.title for gm in w.games.values()})
