"""The browser's signed-in player: its session cookie, the CSRF tokens of its forms (the pages, the language switch,
the rate limits and the live streams read them; service/web/sessions.py keeps the sessions in Redis)."""
from __future__ import annotations

import secrets

from flask import g, request

from service.web.errors import ApiError
from service.web.http import wiring
from service.web.sessions import LOGIN_CSRF_COOKIE, SESSION_COOKIE, SESSION_TTL_SECONDS, Sessions, same_secret

STALE_FORM = "the form is stale or forged; reload the page and try again"


def sessions() -> Sessions:
    """The session store on the service's Redis (an ended session wakes the live streams it opened)."""
    w = wiring()
    return Sessions(w.redis, w.users.session_ended)


def page_user() -> dict | None:
    """The signed-in user of this browser ({"id", "name", "webhook", "csrf"}), or None."""
    if "page_user" not in g:
        g.page_user = None
        sess = sessions().lookup(request.cookies.get(SESSION_COOKIE))
        if sess:
            user = wiring().users.signed_in(sess["user"], sess["cred"])
            if user:  # else its token was rotated or revoked (signed out everywhere): it stays signed out
                g.page_user = {**user, "csrf": sess["csrf"]}
                g.page_credential = sess["cred"]  # what a live stream of this browser re-checks
    return g.page_user


def require_session_csrf(sent: str | None) -> dict:
    """The signed-in user when `sent` matches the session's CSRF token, else 401/403."""
    user = page_user()
    if user is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    if not same_secret(sent, user["csrf"]):
        raise ApiError(403, "csrf_failed", STALE_FORM)
    return user


def login_csrf() -> str:
    """The double-submit CSRF token for the sign-in forms (kept in its own cookie)."""
    if "login_csrf" not in g:
        g.login_csrf = request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(24)
    return g.login_csrf


def check_login_csrf() -> None:
    """Reject a sign-in/sign-up form whose CSRF field does not match its cookie."""
    if not same_secret(request.form.get("csrf"), request.cookies.get(LOGIN_CSRF_COOKIE)):
        raise ApiError(403, "csrf_failed", STALE_FORM)


def give_login_csrf(response) -> None:
    """Set the sign-in CSRF cookie when this request handed out a token the browser does not hold yet (once)."""
    if "login_csrf" in g and request.cookies.get(LOGIN_CSRF_COOKIE) != g.login_csrf and not any(
            h.startswith(LOGIN_CSRF_COOKIE + "=") for h in response.headers.getlist("Set-Cookie")):
        response.set_cookie(LOGIN_CSRF_COOKIE, g.login_csrf, httponly=True, samesite="Lax", secure=secure_cookie(),
                            path="/")


def secure_cookie() -> bool:
    """Whether this request's cookies are for HTTPS only."""
    return request.scheme == "https"


def set_session_cookie(response, session_id: str):
    """`response` signing this browser in to the session `session_id`."""
    response.set_cookie(SESSION_COOKIE, session_id, max_age=SESSION_TTL_SECONDS, httponly=True, samesite="Lax",
                        secure=secure_cookie(), path="/")
    return response
