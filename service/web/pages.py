"""The play-by-web pages: the lobby, the match page, and the cookie+CSRF endpoints its script calls."""
from __future__ import annotations

from flask import Blueprint, current_app, g, jsonify, make_response, redirect, render_template, request
from flask_babel import gettext, lazy_gettext as _l, ngettext
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from domain.bots import NAMES as BOT_NAMES

from service.app import invitations
from service.web import ratings_views
from service.web.boards import has_picture, render_board
from service.app.display_names import MAX_LENGTH as NAME_LENGTH, display_name
from service.app.errors import AppError
from service.web.errors import ApiError, api_error
from service.app.history import History
from service.app.mail.service import return_path
from service.web.http import wiring
from service.web.lobby_form import bots_from_form, field_errors, option_fields, parse_options, resolve_invites
from service.web.match_log import dispute_vote_note, rules_vote_note
from service.web.match_page import live_sections
from service.store.seen import SeenVersions
from service.app.standings import winners_sentence
from service.web.game_words import say
from service.web.i18n import choose_language
from service.web.refusal_words import page_refusal
from service.app.users import token_hash
from service.web.sessions import SESSION_COOKIE
from service.web.bot_names import said_names
from service.web.browser import (check_login_csrf, give_login_csrf, login_csrf, page_user, require_session_csrf,
                                 sessions, set_session_cookie)

bp = Blueprint("pages", __name__)

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
}


def said_winners(winners: list, names: dict) -> str:
    """Who won, in the page's language (the lobby's finished matches)."""
    return say(winners_sentence(winners, names))


@bp.after_app_request
def add_page_headers(response):
    """Security headers on pages, and the sign-in CSRF cookie when a page handed one out."""
    if request.blueprint == "pages":
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        give_login_csrf(response)
        if g.get("page_user") is not None or "login_csrf" in g:  # it carries a CSRF token: this browser's only
            response.headers.setdefault("Cache-Control", "private, no-cache")
        response.vary.add("Cookie")
    else:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


API_PREFIXES = ("/api/", "/healthz", "/livez", "/readyz", "/metrics")
ERROR_TITLES = {404: _l("This page does not exist"), 409: _l("Not yet"), 429: _l("Too many requests: slow down"),
                500: _l("Something went wrong on our side"),
                503: _l("The service is busy or restarting")}


def wants_page() -> bool:
    """True when an error should be answered as an HTML page: a browser asking for a page path."""
    if request.path.startswith(API_PREFIXES) or "/act/" in request.path:
        return False
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


def error_page(status: int, message: str):
    """An HTML error page (pages never answer with a stack trace)."""
    try:
        user = page_user()
    except Exception:  # the error page must render even when Redis is what failed
        user = None
    html = render_template("error.html", status=status, message=message, user=user,
                           heading=str(ERROR_TITLES.get(status, _l("Something is not right"))))
    response = make_response(html, status)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def limit_page(wait: int):
    """The 429 page in the page's language: how long to wait (never the limit's English terms), with Retry-After."""
    if wait > 90:  # a long wait in minutes, rounded up
        words = ngettext("Too many requests: wait %(num)s minute and try again.",
                         "Too many requests: wait %(num)s minutes and try again.", -(-wait // 60))
    else:
        words = ngettext("Too many requests: wait %(num)s second and try again.",
                         "Too many requests: wait %(num)s seconds and try again.", wait)
    page = error_page(429, words)
    page.headers["Retry-After"] = str(wait)
    return page


@bp.get("/favicon.ico")
def favicon():
    """The site icon (browsers ask for it on every page)."""
    return current_app.send_static_file("favicon.svg"), 200, {"Content-Type": "image/svg+xml",
                                                               "Cache-Control": "public, max-age=86400"}


# -- the lobby -----------------------------------------------------------------------------------
VOTE_NOTES = {"dispute_vote": dispute_vote_note, "rules_vote": rules_vote_note}  # an inbox vote's line, in words


def lobby(error: str | None = None, status: int = 200, kept: dict | None = None):
    """Render the lobby for the current browser; `kept` is a refused form's entries, shown again."""
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
    names = said_names(w.users.names(ids))
    notes = {row["id"]: w.matches.read(row["id"], lambda m: VOTE_NOTES[row["waiting_for"]](m, user["id"], names))
             for row in inbox if row.get("waiting_for") in VOTE_NOTES}
    games = [{"id": gm.id, "title": gm.title, "min": gm.min_players, "max": gm.max_players,
              "fields": option_fields(gm), "picture": has_picture(gm)} for gm in w.games.values()]
    html = render_template("lobby.html", user=user, inbox=inbox, mine=mine, open_matches=open_matches,
                           names=names, notes=notes, winners_sentence=said_winners, games=games, titles={gm.id: gm.title for gm in w.games.values()},
                           error=error, kept=kept or {}, login_csrf=login_csrf())
    return html, status


@bp.get("/")
def index():
    """The lobby: sign-in forms, your matches with "your move" first, open matches, new-match forms."""
    return lobby()


SIGN_IN_REFUSALS = {"unauthorized": _l("That token signs nobody in: check it and try again.")}


def name_refusal(raw: str, exc: ValueError) -> str:
    """Why a new player's name was refused, in the page's language."""
    if choose_language() == "en":
        return str(exc)
    if not 1 <= len(raw.strip()) <= NAME_LENGTH:
        return gettext("A name has 1 to %(max)s characters, not counting spaces at either end.", max=NAME_LENGTH)
    return gettext("A name may not hold control or invisible characters.")


@bp.post("/signup")
def signup():
    """Create a player, sign this browser in, and redirect to the page that shows the token once."""
    try:
        check_login_csrf()
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc), exc.status, kept=_kept_form())
    try:
        name = display_name(request.form.get("name") or "")
    except ValueError as exc:
        return lobby(name_refusal(request.form.get("name") or "", exc), 400, kept=_kept_form())
    created = wiring().users.create(name)
    session_id, _csrf = sessions().create(created["id"], "new player", request.user_agent.string)
    sessions().stash_token(session_id, created["token"])
    return set_session_cookie(redirect("/welcome", 303), session_id)


@bp.get("/welcome")
def welcome():
    """The new player's token, shown once (a reload shows that it was shown, and creates nothing)."""
    user = page_user()
    if user is None:
        return redirect("/", 303)
    token = sessions().take_token(request.cookies.get(SESSION_COOKIE))
    back = return_path(request.args.get("next"))  # a sign-in link's match page, linked below the token
    response = make_response(render_template("welcome.html", user=user, token=token, back=back))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/welcome/token")
def new_token():
    """Make this signed-in player a new token (the old one stops working) and show it once on /welcome."""
    try:
        user = require_session_csrf(request.form.get("csrf"))
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc), exc.status)
    session_id = request.cookies.get(SESSION_COOKIE)
    token = wiring().users.rotate(user["id"])
    sessions().rebind(session_id, token_hash(token))  # this browser stays in; every other session ends
    sessions().stash_token(session_id, token)
    return redirect("/welcome", 303)


@bp.post("/signin")
def signin():
    """Sign this browser in with a player's token (sent in the form body, never in a URL)."""
    try:
        check_login_csrf()
        user = wiring().users.authenticate((request.form.get("token") or "").strip())
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc, SIGN_IN_REFUSALS), exc.status)
    session_id, _csrf = sessions().create(user["id"], "token", request.user_agent.string)
    back = return_path(request.form.get("next"))  # signed in from a match page: back to it
    return set_session_cookie(redirect(back or "/", 303), session_id)


@bp.post("/signout")
def signout():
    """End this browser's session."""
    try:
        require_session_csrf(request.form.get("csrf"))
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc), exc.status)
    sessions().end(request.cookies.get(SESSION_COOKIE))
    response = redirect("/", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@bp.post("/matches/new")
def new_match():
    """Start a match from the lobby form: invite players (it starts once they accept) or open seats."""
    w = wiring()
    try:
        user = require_session_csrf(request.form.get("csrf"))
        game = w.games.get(request.form.get("game", ""))
        if game is None:
            raise ApiError(400, "unknown_game", "choose one of the games listed")
        options = game.options_schema.load(parse_options(game, request.form))
        deadline = _deadline_hours(request.form.get("turn_deadline_hours", ""))
        bots = bots_from_form(request.form.get("bots", ""))
        stand_in = _int_field(request.form.get("replace_after_timeouts", ""), "timeouts before a stand-in") \
            if request.form.get("replace_after_timeouts", "").strip() else None
        w.users.ensure_bots(bots, BOT_NAMES)
        seating = {"turn_deadline_hours": deadline, "bots": bots, "replace_after_timeouts": stand_in}
        invited = resolve_invites(w.users, request.form.get("invite", ""))
        if invited:
            players = [user["id"]] + [p for p in invited if p != user["id"]]
            match = w.matches.create(user["id"], game.id, options, players=players, **seating)
        else:
            seats = _int_field(request.form.get("seats", ""), "seats")
            if bots and seats <= 1 + len(bots):  # you and the bots fill the table: it starts at once
                match = w.matches.create(user["id"], game.id, options, players=[user["id"]], **seating)
            else:
                match = w.matches.create(user["id"], game.id, options, seats=seats, **seating)
    except ValidationError as exc:
        if choose_language() != "en":  # marshmallow's words are English: name the options to check instead
            labels = {f["name"]: f["label"] for f in option_fields(game)}
            fields = ", ".join(labels.get(str(k), str(k)) for k in exc.messages) if isinstance(exc.messages, dict) else ""
            return lobby(gettext("Check these options: %(fields)s.", fields=fields), 400, kept=_kept_form())
        return lobby("invalid options: " + field_errors(exc.messages), 400, kept=_kept_form())
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc, NEW_MATCH_REFUSALS), exc.status, kept=_kept_form())
    return redirect(f"/matches/{match.id}", 303)


# the new-match form's refusals in the page's language (English pages keep the detailed message)
NEW_MATCH_REFUSALS = {
    "unknown_game": _l("Choose one of the games listed."),
    "invalid_form": _l("A number, a bot level or a seat count in the form is not valid: check it."),
    "unknown_players": lambda exc: gettext("Check the players you invite: %(names)s.",
                                           names=", ".join(exc.extra.get("entries") or [])),
}


def _kept_form() -> dict:
    """The refused form's entries to fill in again: {"game", "values": {field: [values]}} (no secrets)."""
    values = {k: request.form.getlist(k) for k in request.form if k not in ("csrf", "token")}
    return {"game": request.form.get("game"), "values": values}


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


def _seat_form(match_id: str, act, then: str):
    """Run a lobby seat form (`act(matches, user id, match id)`) and redirect to `then`, or show the lobby's error."""
    try:
        user = require_session_csrf(request.form.get("csrf"))
        act(wiring().matches, user["id"], match_id)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return lobby(page_refusal(exc), exc.status)
    return redirect(then, 303)


@bp.post("/matches/<match_id>/join")
def join(match_id):
    """Take a seat in an open match from the lobby."""
    return _seat_form(match_id, lambda matches, user_id, mid: matches.join(user_id, mid), f"/matches/{match_id}")


@bp.post("/matches/<match_id>/accept")
def accept(match_id):
    """Accept an invitation from the lobby (the last acceptance starts the match)."""
    return _seat_form(match_id, invitations.accept, f"/matches/{match_id}")


@bp.post("/matches/<match_id>/decline")
def decline(match_id):
    """Decline an invitation from the lobby: the match is cancelled."""
    return _seat_form(match_id, invitations.decline, "/")


# -- standings -------------------------------------------------------------------------------------
STANDINGS_REFUSALS = {"not_found": _l("There is no such player or game.")}
MATCH_REFUSALS = {"not_found": _l("There is no such match.")}


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


# -- the match page --------------------------------------------------------------------------------
def _viewer(match) -> str | None:
    user = page_user()
    return match.viewer_for(user["id"] if user else None)


@bp.get("/matches/<match_id>")
def match_page(match_id):
    """The match page: board, legal actions, log, replay slider, take-back and dispute controls."""
    w = wiring()
    user = page_user()
    seen = SeenVersions(w.redis).get(user["id"], match_id) if user else None  # "new" is the same on every browser

    def render(match):  # under the match's lock: a command applying meanwhile cannot tear the page
        viewer = _viewer(match)
        sections = live_sections(w, match, viewer, user["csrf"] if user else "")
        return render_template("match.html", user=user, match=match, viewer=viewer, sections=sections,
                               title=match.game.title, login_csrf=login_csrf(), seen_version=seen,
                               can_join=bool(user and match.status == "open" and not viewer))

    try:
        return w.matches.read(match_id, render)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return error_page(exc.status, page_refusal(exc, MATCH_REFUSALS))


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
