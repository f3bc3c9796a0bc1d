"""The pages' blueprint: the lobby, sign-in, the match page and the standings add their routes to it (endpoints
`pages.<view>`); the security headers every page carries, and the site icon."""
from __future__ import annotations

from flask import Blueprint, current_app, g, request

from service.web.browser import give_login_csrf

bp = Blueprint("pages", __name__)

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
}


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


@bp.get("/favicon.ico")
def favicon():
    """The site icon (browsers ask for it on every page)."""
    return current_app.send_static_file("favicon.svg"), 200, {"Content-Type": "image/svg+xml",
                                                               "Cache-Control": "public, max-age=86400"}
