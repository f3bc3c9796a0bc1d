"""The play-by-web pages: the lobby, the match page, and the cookie+CSRF endpoints its script calls."""
from __future__ import annotations

import re

from flask import Blueprint, current_app, g, jsonify, make_response, redirect, render_template, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from .boards import has_picture, render_board
from .errors import ApiError
from .http import wiring
from .match_page import live_sections, option_fields, parse_options
from .web_sessions import LOGIN_CSRF_COOKIE, SESSION_COOKIE, SESSION_TTL_SECONDS, Sessions, same_secret

bp = Blueprint("pages", __name__)

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
}
USER_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")


# -- the signed-in browser user ------------------------------------------------------------------
def sessions() -> Sessions:
    """The session store on the service's Redis."""
    return Sessions(wiring().redis)


def page_user() -> dict | None:
    """The signed-in user of this browser ({"id", "name", "webhook", "csrf"}), or None."""
    if "page_user" not in g:
        g.page_user = None
        sess = sessions().lookup(request.cookies.get(SESSION_COOKIE))
        if sess:
            user = wiring().users.get(sess["user"])
            if user:
                g.page_user = {**user, "csrf": sess["csrf"]}
    return g.page_user


def require_session_csrf(sent: str | None) -> dict:
    """The signed-in user when `sent` matches the session's CSRF token, else 401/403."""
    user = page_user()
    if user is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    if not same_secret(sent, user["csrf"]):
        raise ApiError(403, "csrf_failed", "the form is stale or forged; reload the page and try again")
    return user


def login_csrf() -> str:
    """The double-submit CSRF token for the sign-in forms (kept in its own cookie)."""
    if "login_csrf" not in g:
        import secrets
        g.login_csrf = request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(24)
    return g.login_csrf


def check_login_csrf() -> None:
    """Reject a sign-in/sign-up form whose CSRF field does not match its cookie."""
    if not same_secret(request.form.get("csrf"), request.cookies.get(LOGIN_CSRF_COOKIE)):
        raise ApiError(403, "csrf_failed", "the form is stale or forged; reload the page and try again")


def _secure_cookie() -> bool:
    return request.scheme == "https"


@bp.after_app_request
def add_page_headers(response):
    """Security headers on pages, and the sign-in CSRF cookie when a page handed one out."""
    if request.blueprint == "pages":
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if "login_csrf" in g and request.cookies.get(LOGIN_CSRF_COOKIE) != g.login_csrf:
            response.set_cookie(LOGIN_CSRF_COOKIE, g.login_csrf, httponly=True, samesite="Lax",
                                secure=_secure_cookie(), path="/")
    return response


def _set_session_cookie(response, session_id: str):
    response.set_cookie(SESSION_COOKIE, session_id, max_age=SESSION_TTL_SECONDS, httponly=True, samesite="Lax",
                        secure=_secure_cookie(), path="/")
    return response


def error_page(status: int, message: str):
    """An HTML error page (pages never answer with a stack trace)."""
    return render_template("error.html", status=status, message=message, user=page_user()), status


# -- the lobby -----------------------------------------------------------------------------------
def lobby(error: str | None = None, status: int = 200, token_shown: dict | None = None):
    """Render the lobby for the current browser."""
    w = wiring()
    user = page_user()
    inbox, mine, open_matches = [], [], []
    if user:
        inbox = w.read_models.inbox(user["id"])
        waiting = {row["id"] for row in inbox}
        mine = [row for row in w.read_models.list_matches(player=user["id"], limit=100) if row["id"] not in waiting]
    open_matches = [row for row in w.read_models.list_matches(status="open", limit=100)
                    if not user or user["id"] not in row["players"]]
    ids = [p for row in inbox + mine + open_matches for p in row.get("players", [])]
    games = [{"id": gm.id, "title": gm.title, "min": gm.min_players, "max": gm.max_players,
              "fields": option_fields(gm), "picture": has_picture(gm.id)} for gm in w.games.values()]
    html = render_template("lobby.html", user=user, inbox=inbox, mine=mine, open_matches=open_matches,
                           names=w.users.names(ids), games=games, titles={gm.id: gm.title for gm in w.games.values()},
                           error=error, token_shown=token_shown, login_csrf=login_csrf())
    return html, status


@bp.get("/")
def index():
    """The lobby: sign-in forms, your matches with "your move" first, open matches, new-match forms."""
    return lobby()


@bp.post("/signup")
def signup():
    """Create a player, sign this browser in, and show the token once."""
    try:
        check_login_csrf()
    except ApiError as exc:
        return lobby(exc.message, exc.status)
    name = (request.form.get("name") or "").strip()
    if not 1 <= len(name) <= 40:
        return lobby("a name has 1 to 40 characters", 400)
    created = wiring().users.create(name)
    session_id, csrf = sessions().create(created["id"])
    g.page_user = {**wiring().users.get(created["id"]), "csrf": csrf}
    html, _ = lobby(token_shown=created)
    response = make_response(html, 201)
    _set_session_cookie(response, session_id)
    return response


@bp.post("/signin")
def signin():
    """Sign this browser in with a player's token (sent in the form body, never in a URL)."""
    try:
        check_login_csrf()
        user = wiring().users.authenticate((request.form.get("token") or "").strip())
    except ApiError as exc:
        return lobby(exc.message, exc.status)
    session_id, _csrf = sessions().create(user["id"])
    return _set_session_cookie(redirect("/", 303), session_id)


@bp.post("/signout")
def signout():
    """End this browser's session."""
    try:
        require_session_csrf(request.form.get("csrf"))
    except ApiError as exc:
        return lobby(exc.message, exc.status)
    sessions().end(request.cookies.get(SESSION_COOKIE))
    response = redirect("/", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@bp.post("/matches/new")
def new_match():
    """Start a match from the lobby form: invite players (starts at once) or open seats."""
    w = wiring()
    try:
        user = require_session_csrf(request.form.get("csrf"))
        game = w.games.get(request.form.get("game", ""))
        if game is None:
            raise ApiError(400, "unknown_game", "choose one of the games listed")
        options = game.options_schema.load(parse_options(game, request.form))
        deadline = _deadline_hours(request.form.get("turn_deadline_hours", ""))
        invited = [p for p in re.split(r"[\s,]+", request.form.get("invite", "")) if p]
        if invited:
            bad = [p for p in invited if not USER_ID.match(p)] or w.users.missing(invited)
            if bad:
                raise ApiError(400, "unknown_players", "no players with ids " + ", ".join(bad))
            players = [user["id"]] + [p for p in dict.fromkeys(invited) if p != user["id"]]
            match = w.matches.create(user["id"], game.id, options, players=players, turn_deadline_hours=deadline)
        else:
            seats = _int_field(request.form.get("seats", ""), "seats")
            match = w.matches.create(user["id"], game.id, options, seats=seats, turn_deadline_hours=deadline)
    except ValidationError as exc:
        return lobby("invalid options: " + field_errors(exc.messages), 400)
    except ApiError as exc:
        return lobby(exc.message, exc.status)
    return redirect(f"/matches/{match.id}", 303)


def field_errors(messages) -> str:
    """Marshmallow field errors as one readable line ("max rounds: Must be at most 60.")."""
    if not isinstance(messages, dict):
        return " ".join(map(str, messages)) if isinstance(messages, list) else str(messages)
    return "; ".join(f"{key.replace('_', ' ')}: {field_errors(value)}" for key, value in messages.items())


def _int_field(raw: str, name: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, "invalid_form", f"{name} must be a whole number") from None


def _deadline_hours(raw: str) -> float | None:
    raw = raw.strip()
    if not raw:
        return None
    try:
        hours = float(raw)
    except ValueError:
        raise ApiError(400, "invalid_form", "the turn deadline is a number of hours") from None
    if not 0.001 <= hours <= 24 * 60:
        raise ApiError(400, "invalid_form", "the turn deadline is between 0.001 and 1440 hours")
    return hours


@bp.post("/matches/<match_id>/join")
def join(match_id):
    """Take a seat in an open match from the lobby."""
    try:
        user = require_session_csrf(request.form.get("csrf"))
        wiring().matches.join(user["id"], match_id)
    except ApiError as exc:
        return lobby(exc.message, exc.status)
    return redirect(f"/matches/{match_id}", 303)


# -- the match page --------------------------------------------------------------------------------
def _viewer(match) -> str | None:
    user = page_user()
    return match.viewer_for(user["id"] if user else None)


@bp.get("/matches/<match_id>")
def match_page(match_id):
    """The match page: board, legal actions, log, replay slider, take-back and dispute controls."""
    w = wiring()
    user = page_user()

    def render(match):  # under the match's lock: a command applying meanwhile cannot tear the page
        viewer = _viewer(match)
        return render_template("match.html", user=user, match=match, viewer=viewer,
                               sections=live_sections(w, match, viewer), title=match.game.title,
                               login_csrf=login_csrf(),
                               can_join=bool(user and match.status == "open" and not viewer))

    try:
        return w.matches.read(match_id, render)
    except ApiError as exc:
        return error_page(exc.status, exc.message)


@bp.get("/matches/<match_id>/live")
def live(match_id):
    """The live parts of the match page as HTML snippets (the page's script swaps them in)."""
    w = wiring()

    def render(match):
        sections = live_sections(w, match, _viewer(match))
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
    board = render_board(match.game_id, data.get("view") or {}, _viewer(match), w.users.names(match.players))
    return jsonify({"version": data.get("version"), "html": str(board)})


def _page_api_user() -> dict | None:
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
