"""The HTML error pages: what a browser asking for a page path gets instead of the API's JSON error."""
from __future__ import annotations

from flask import make_response, render_template, request
from flask_babel import lazy_gettext as _l, ngettext

from service.web.browser import page_user
from service.web.pages.site import SECURITY_HEADERS

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
