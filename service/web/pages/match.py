"""The match page (board, legal actions, log, replay slider, take-back and dispute controls), its live parts, the
replay board, export and audit, and the cookie+CSRF endpoints its script calls (they run the JSON API's own views)."""
from __future__ import annotations

from flask import current_app, g, jsonify, render_template, request
from flask_babel import gettext, lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from service.app.errors import AppError
from service.app.history import History
from service.store.seen import SeenVersions
from service.web.boards import render_board
from service.web.bot_names import said_names
from service.web.browser import login_csrf, page_user, require_session_csrf
from service.web.errors import ApiError, api_error
from service.web.http import wiring
from service.web.pages.errors import error_page
from service.web.pages.match_sections import live_sections
from service.web.pages.refusal_words import page_refusal
from service.web.pages.site import bp

MATCH_REFUSALS = {"not_found": _l("There is no such match.")}


def _viewer(match) -> str | None:
    """Whose view of `match` this browser sees (a seat, or a spectator's)."""
    user = page_user()
    return match.viewer_for(user["id"] if user else None)


@bp.get("/matches/<match_id>")
def match_page(match_id):
    """The match page: board, legal actions, log, replay slider, take-back and dispute controls."""
    try:
        return render_match(match_id)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return error_page(exc.status, page_refusal(exc, MATCH_REFUSALS))


def refused_sign_in(match_id: str, refusal: str, status: int):
    """The match page again after its sign-in form was refused, `refusal` shown at that form; None when there is
    no such match."""
    try:
        return render_match(match_id, refusal, status)
    except (ApiError, AppError):
        return None


def render_match(match_id: str, sign_in_refusal: str | None = None, status: int = 200):
    """The match page (a refused sign-in's words shown at its sign-in form, with that refusal's status)."""
    w = wiring()
    user = page_user()
    seen = SeenVersions(w.redis).get(user["id"], match_id) if user else None  # "new" is the same on every browser
    back = {"here": f"/matches/{match_id}"} if sign_in_refusal else {}  # the language switch returns to the match

    def render(match):  # under the match's lock: a command applying meanwhile cannot tear the page
        viewer = _viewer(match)
        sections = live_sections(w, match, viewer, user["csrf"] if user else "")
        return render_template("match.html", user=user, match=match, viewer=viewer, sections=sections,
                               title=match.game.title, login_csrf=login_csrf(), seen_version=seen,
                               can_join=bool(user and match.status == "open" and not viewer),
                               sign_in_refusal=sign_in_refusal, **back), status

    return w.matches.read(match_id, render)


@bp.get("/matches/<match_id>/live")
def live(match_id):
    """The live parts of the match page as HTML snippets (the page's script swaps them in)."""
    w = wiring()
    user = page_user()

    def render(match):
        sections = live_sections(w, match, _viewer(match), user["csrf"] if user else "")
        return {"version": match.version, "status": match.status,
                "html": {k: str(v) for k, v in sections["html"].items()}}

    return jsonify(w.matches.read(match_id, render))


@bp.get("/matches/<match_id>/board")
def replay_board(match_id):
    """The board at an earlier version (from GET /api/matches/<id>/replay), as an SVG snippet."""
    w = wiring()
    match = w.matches.load(match_id)
    g.user = _page_api_user()
    response = dispatch_api(f"/api/matches/{match_id}/replay", "GET")
    if response.status_code != 200:
        return response
    data = response.get_json()
    names = said_names(w.users.names(match.players))
    board = render_board(match.game, data.get("view") or {}, _viewer(match), names)
    return jsonify({"version": data.get("version"), "html": str(board)})


@bp.get("/matches/<match_id>/export")
def export(match_id):
    """A finished match's full export (every event, the revealed seed) as a JSON download."""
    w = wiring()
    try:
        finished = w.matches.read(match_id, lambda m: m.finished)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return error_page(exc.status, page_refusal(exc, MATCH_REFUSALS))
    if not finished:
        return error_page(409, gettext("A match can be exported once it has finished (until then it holds hidden "
                                       "cards)."))
    response = jsonify(History.from_wiring(w).export(match_id))
    response.headers["Content-Disposition"] = f'attachment; filename="turnstream-{match_id}.json"'
    return response


@bp.get("/matches/<match_id>/audit")
def audit_page(match_id):
    """The match's audit in words: the hash chain, the randomness commitment and, once revealed, every draw."""
    w = wiring()
    try:
        game_id, title, status = w.matches.read(match_id, lambda m: (m.game_id, m.game.title, m.status))
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return error_page(exc.status, page_refusal(exc, MATCH_REFUSALS))
    report = History.from_wiring(w).audit(match_id)
    return render_template("audit.html", user=page_user(), match_id=match_id, game_id=game_id, title=title,
                           report=report, status=status)


def _page_api_user() -> dict | None:
    """The signed-in player as the JSON API's caller (g.user), or None."""
    user = page_user()
    return {k: user[k] for k in ("id", "name", "webhook")} if user else None


def dispatch_api(path: str, method: str):
    """Run the JSON API's own view for `path` in this request, acting as the page's user (g.user)."""
    adapter = current_app.url_map.bind(request.host or "localhost")
    try:
        endpoint, args = adapter.match(path, method=method)
    except HTTPException as exc:
        raise ApiError(exc.code or 404, "unavailable", f"{method} {path} is not available") from None
    return current_app.make_response(current_app.view_functions[endpoint](**args))


ACTIONS = {
    "command": ("/api/matches/{id}/commands", "POST"),
    "takeback": ("/api/matches/{id}/takeback", "POST"),
    "dispute": ("/api/matches/{id}/disputes", "POST"),
    "rules_vote": ("/api/matches/{id}/rules-upgrade/votes", "POST"),
    "chat": ("/api/matches/{id}/chat", "POST"),
    "rematch": ("/api/matches/{id}/rematch", "POST"),
    "concede": ("/api/matches/{id}/concede", "POST"),
    "seen": ("/api/matches/{id}/seen", "POST"),
    "suggestion": ("/api/matches/{id}/suggestion", "GET"),
}


@bp.post("/matches/<match_id>/act/<action>")
def act(match_id, action):
    """Submit a command, take back or dispute from the page (session cookie + X-CSRF-Token header)."""
    if action not in ACTIONS:
        raise ApiError(404, "not_found", f"no page action {action!r}")
    user = require_session_csrf(request.headers.get("X-CSRF-Token"))
    g.user = {k: user[k] for k in ("id", "name", "webhook")}
    path, method = ACTIONS[action]
    return dispatch_api(path.format(id=match_id), method)


@bp.post("/matches/<match_id>/act/vote/<dispute_id>")
def vote(match_id, dispute_id):
    """Vote on a dispute from the page (session cookie + X-CSRF-Token header)."""
    user = require_session_csrf(request.headers.get("X-CSRF-Token"))
    g.user = {k: user[k] for k in ("id", "name", "webhook")}
    return dispatch_api(f"/api/matches/{match_id}/disputes/{dispute_id}/votes", "POST")
