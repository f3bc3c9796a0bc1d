"""Signing up and in with a token, the new player's token shown once, a new token, signing out (a refusal shows the
lobby with its error; a refused sign-in from a match page shows that page again)."""
from __future__ import annotations

from flask import make_response, redirect, render_template, request
from flask_babel import gettext, lazy_gettext as _l

from service.app.display_names import MAX_LENGTH as NAME_LENGTH, display_name
from service.app.errors import AppError
from service.app.mail.service import return_path
from service.app.users import token_hash
from service.web.browser import check_login_csrf, page_user, require_session_csrf, sessions, set_session_cookie
from service.web.errors import ApiError, api_error
from service.web.http import wiring
from service.web.i18n import choose_language
from service.web.pages.lobby import kept_form, lobby
from service.web.pages.match import refused_sign_in
from service.web.pages.refusal_words import page_refusal
from service.web.pages.site import bp
from service.web.sessions import SESSION_COOKIE

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
        return lobby(page_refusal(exc), exc.status, kept=kept_form())
    try:
        name = display_name(request.form.get("name") or "")
    except ValueError as exc:
        return lobby(name_refusal(request.form.get("name") or "", exc), 400, kept=kept_form())
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
        return sign_in_refused(api_error(exc))
    session_id, _csrf = sessions().create(user["id"], "token", request.user_agent.string)
    back = return_path(request.form.get("next"))  # signed in from a match page: back to it
    return set_session_cookie(redirect(back or "/", 303), session_id)


def sign_in_refused(exc: ApiError):
    """A refused sign-in: the match page it was sent from (a `next` return_path allows), showing the refusal at its
    form, so the player keeps the match they came for; else the lobby."""
    refusal = page_refusal(exc, SIGN_IN_REFUSALS)
    back = return_path(request.form.get("next"))
    page = refused_sign_in(back.removeprefix("/matches/"), refusal, exc.status) if back else None
    return page or lobby(refusal, exc.status)


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
