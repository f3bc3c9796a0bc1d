"""Pages reached from mails and the account page: one-click unsubscribe (RFC 8058, no sign-in), address
verification, sign-in by e-mail, and the signed-in player's account (address, notifications, sessions, token)."""
from __future__ import annotations

from flask import Blueprint, render_template, request

from service.app.mail.contacts import KIND_PREFERENCE, ALL
from service.app.mail.tokens import LinkRefused
from service.web.http import wiring
from service.web.pages import SECURITY_HEADERS, page_user

bp = Blueprint("account", __name__)

KIND_NAMES = {"your_move": "\u201cyour move\u201d mails", "digest": "the daily digest of your waiting matches",
              "reminder": "deadline reminders", "invitation": "invitation mails", "dispute": "dispute mails",
              ALL: "every notification mail"}
REFUSALS = {"invalid": "This link is not valid (it may have been cut short when it was copied).",
            "expired": "This link has expired.",
            "used": "This link has been used already: each link works once."}


@bp.after_request
def page_headers(response):
    """The pages' security headers; nothing here may be cached (each page acts on a secret link)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the link's token never leaves in a Referer
    return response


def notice(title: str, message: str, status: int = 200, **context):
    """A small page with a title and a message."""
    return render_template("account_notice.html", user=page_user(), title=title, message=message,
                           **context), status


# -- one-click unsubscribe ---------------------------------------------------------------------------------
@bp.get("/unsubscribe/<token>")
def unsubscribe_page(token):
    """What the link turns off, and a button that does it (a GET never changes anything)."""
    try:
        _user, kind = wiring().mail.tokens.read_unsubscribe(token)
    except LinkRefused as exc:
        return notice("Unsubscribe", REFUSALS[exc.why], 404)
    return render_template("unsubscribe.html", user=page_user(), token=token,
                           what=KIND_NAMES.get(kind, "these mails"), done=False)


@bp.post("/unsubscribe/<token>")
def unsubscribe(token):
    """Turn that kind of mail off: no sign-in, no CSRF token (RFC 8058 one-click: the link is the credential)."""
    try:
        _user, kind = wiring().mail.unsubscribe(token)
    except LinkRefused as exc:
        return notice("Unsubscribe", REFUSALS[exc.why], 404)
    return render_template("unsubscribe.html", user=page_user(), token=token,
                           what=KIND_NAMES.get(kind, "these mails"), done=True)


assert set(KIND_PREFERENCE) <= set(KIND_NAMES)


# -- proving an address ------------------------------------------------------------------------------------------
REFUSED_STATUS = {"invalid": 404, "expired": 410, "used": 410}


@bp.get("/verify-email/<token>")
def verify_email(token):
    """Open the verification link: the address is proven (the link works once)."""
    try:
        _user, address = wiring().mail.verify(token)
    except LinkRefused as exc:
        return notice("Confirm your address", REFUSALS[exc.why] + " Give your address again on your account page "
                      "to get a new link.", REFUSED_STATUS[exc.why], error=True)
    return notice("Address confirmed", f"{address} is confirmed: turnstream may now mail you there (choose what "
                  "on your account page).")
