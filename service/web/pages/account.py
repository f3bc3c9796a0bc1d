"""Pages reached from mails and the account page: one-click unsubscribe (RFC 8058, no sign-in), address
verification, sign-in by e-mail, and the signed-in player's account (address, notifications, sessions, token)."""
from __future__ import annotations

import time

from flask import Blueprint, jsonify, redirect, render_template, request
from flask_babel import gettext as _, lazy_gettext as _l

from service.app.errors import AppError
from service.app.mail.contacts import (KIND_PREFERENCE, ALL, MAX_REMINDER_HOURS as MAX_REMINDER, check_preferences,
                                       language)
from service.app.mail.service import return_path
from service.app.mail.tokens import LinkRefused
from service.app.opponents import suggestions
from service.store.keys import Keys
from service.web.errors import ApiError, api_error
from service.web.http import wiring
from service.web.browser import (check_login_csrf, give_login_csrf, login_csrf, page_user, require_session_csrf,
                                 sessions, set_session_cookie)
from service.web.pages.refusal_words import page_refusal
from service.web.pages.site import SECURITY_HEADERS
from service.web.sessions import SESSION_COOKIE, SESSION_PREFIX, session_key

bp = Blueprint("account", __name__)

# what an unsubscribe link turns off, as the page's sentences quote it ("Stop ...?", "you will get no more ..."); a
# dispute's and a rules proposal's mails answer to one preference, so their links turn both off
VOTE_MAILS = _l("mails asking for your vote (disputes, proposed rules)")
KIND_NAMES = {"your_move": _l("\u201cyour move\u201d mails"), "digest": _l("the daily digest of your waiting matches"),
              "reminder": _l("deadline reminders"), "invitation": _l("invitation mails"),
              "dispute": VOTE_MAILS, "rules_vote": VOTE_MAILS, ALL: _l("every notification mail")}
OTHER_MAILS = _l("these mails")
REFUSALS = {"invalid": _l("This link is not valid (it may have been cut short when it was copied)."),
            "expired": _l("This link has expired."),
            "used": _l("This link has been used already: each link works once.")}
# how a session began (Sessions.create's `how`), as the account page lists it
HOW_WORDS = {"new player": _l("new player"), "token": _l("token"), "e-mail link": _l("e-mail link")}


def how_word(how: str) -> str:
    """How a session began, in the page's language."""
    return str(HOW_WORDS.get(how, how))


def field_refusal(exc) -> str | None:
    """A refused account form field in the page's language (None: no words of its own)."""
    fields = exc.extra.get("fields") or {}
    if "email" in fields:
        return _("That is not an e-mail address.")
    if "deadline_reminder_hours" in fields:
        return _("The reminder is a number of hours above 0, at most %(max)s (or empty for none).", max=MAX_REMINDER)
    return None


ACCOUNT_REFUSALS = {"invalid_body": field_refusal,
                    "invalid_form": _l("The reminder is a number of hours (or empty for none)."),
                    "not_found": _l("No such session (it may have ended already).")}


@bp.after_request
def page_headers(response):
    """The pages' security headers; nothing here may be cached (each page acts on a secret link)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the link's token never leaves in a Referer
    give_login_csrf(response)  # the sign-in form's
    response.vary.add("Cookie")
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
        return notice(_("Unsubscribe"), str(REFUSALS[exc.why]), 404)
    return render_template("unsubscribe.html", user=page_user(), token=token,
                           what=str(KIND_NAMES.get(kind, OTHER_MAILS)), done=False)


@bp.post("/unsubscribe/<token>")
def unsubscribe(token):
    """Turn that kind of mail off: no sign-in, no CSRF token (RFC 8058 one-click: the link is the credential)."""
    try:
        _user, kind = wiring().mail.unsubscribe(token)
    except LinkRefused as exc:
        return notice(_("Unsubscribe"), str(REFUSALS[exc.why]), 404)
    return render_template("unsubscribe.html", user=page_user(), token=token,
                           what=str(KIND_NAMES.get(kind, OTHER_MAILS)), done=True)


assert set(KIND_PREFERENCE) <= set(KIND_NAMES)


# -- proving an address ------------------------------------------------------------------------------------------
REFUSED_STATUS = {"invalid": 404, "expired": 410, "used": 410}


@bp.get("/verify-email/<token>")
def verify_email(token):
    """Open the verification link: the address is proven (the link works once)."""
    try:
        _user, address = wiring().mail.verify(token)
    except LinkRefused as exc:
        return notice(_("Confirm your address"), f"{REFUSALS[exc.why]} "
                      + _("Give your address again on your account page to get a new link."),
                      REFUSED_STATUS[exc.why], error=True)
    return notice(_("Address confirmed"), _("%(address)s is confirmed: turnstream may now mail you there (choose "
                                            "what on your account page).", address=address))


# -- signing in by e-mail ----------------------------------------------------------------------------------------
@bp.get("/sign-in")
def sign_in_form():
    """Ask for a sign-in link by e-mail (for a player who lost their token or uses another browser)."""
    return notice(_("Sign in by e-mail"), _("Give the address you proved on your account page: we mail you a link "
                                            "that signs this browser in."), offer_sign_in=True, login_csrf=login_csrf(),
                  back=return_path(request.args.get("next")))


@bp.post("/sign-in")
def request_sign_in():
    """Mail a sign-in link (the same answer, in the same time, whether or not the address belongs to a player)."""
    back = return_path(request.form.get("next"))  # the match page the link returns to
    try:
        check_login_csrf()
        wiring().mail.request_sign_in(request.form.get("email") or "", back)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return notice(_("Sign in by e-mail"), page_refusal(exc, ACCOUNT_REFUSALS), exc.status, error=True,
                      offer_sign_in=True, login_csrf=login_csrf(), back=back)
    return notice(_("Check your mail"), _("If this address belongs to a player, a sign-in link is on its way. It "
                                          "works once, within 15 minutes."), 202)


@bp.get("/sign-in/<token>")
def sign_in_link(token):
    """The link of a sign-in mail: a page whose form signs this browser in (sent at once by its script; a link
    checker that only fetches the page spends nothing). An expired or used link says so and offers a new one."""
    w = wiring()
    try:
        user = w.users.get(w.mail.check_sign_in(token)) or {}
    except LinkRefused as exc:
        return link_refused(exc)
    return render_template("sign_in_link.html", user=page_user(), token=token, name=user.get("name", ""),
                           login_csrf=login_csrf())


@bp.post("/sign-in/<token>")
def sign_in(token):
    """Spend the sign-in link and sign this browser in (a player signed out everywhere gets a new token, shown
    once). The form carries this browser's sign-in CSRF token: another site cannot sign a browser in as someone
    else with a link of its own."""
    w = wiring()
    try:
        check_login_csrf()
    except ApiError as exc:
        return notice(_("Sign in by e-mail"), f"{page_refusal(exc)} " + _("Open the link from the mail again."),
                      exc.status, error=True)
    try:
        user_id, back = w.mail.sign_in(token)
    except LinkRefused as exc:
        return link_refused(exc)
    fresh = None
    if not w.redis.hget(Keys.user(user_id), "token_hash"):  # signed out everywhere: no token to bind to
        fresh = w.users.rotate(user_id)
    session_id, _csrf = sessions().create(user_id, "e-mail link", request.user_agent.string)
    if fresh:
        sessions().stash_token(session_id, fresh)
    response = redirect(after_sign_in(back, fresh is not None), 303)
    set_session_cookie(response, session_id)
    return response


def after_sign_in(back: str | None, fresh: bool) -> str:
    """Where a signed-in link goes: the new token's page first (it links `back`), else `back` or the account."""
    if fresh:
        return f"/welcome?next={back}" if back else "/welcome"
    return back or "/account"


def link_refused(exc: LinkRefused):
    """The page of a sign-in link that cannot be used, with the form for a new one."""
    return notice(_("Sign in by e-mail"), f"{REFUSALS[exc.why]} " + _("Ask for a new link:"), REFUSED_STATUS[exc.why],
                  error=True, offer_sign_in=True, login_csrf=login_csrf())


# -- the account page ----------------------------------------------------------------------------------------------
@bp.get("/account")
def account():
    """The signed-in player's address, notification preferences, sessions and token."""
    user = page_user()
    if user is None:
        return redirect("/sign-in", 303)
    return account_page(user)


def account_page(user, message: str | None = None, status: int = 200, error: bool = False):
    w = wiring()
    contact = w.mail.contacts.get(user["id"])
    current = session_key(request.cookies.get(SESSION_COOKIE) or "").removeprefix(SESSION_PREFIX)
    return render_template("account.html", user=user, contact=contact, prefs=contact["notifications"],
                           sessions=sessions().of_user(user["id"]), current=current, message=message,
                           error=error, how_word=how_word,
                           when=lambda at: time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))), status


def account_form(act):
    """Run an account form (CSRF-checked) and show the account page with its outcome."""
    try:
        user = require_session_csrf(request.form.get("csrf"))
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return notice(_("Your account"), page_refusal(exc), exc.status, error=True)
    try:
        message = act(user)
    except (ApiError, AppError) as exc:
        exc = api_error(exc)
        return account_page(user, page_refusal(exc, ACCOUNT_REFUSALS), exc.status, error=True)
    return account_page(user, message)


@bp.post("/account/email")
def account_email():
    """Give an address from the account page: a verification link is mailed to it."""
    def act(user):
        address = wiring().mail.request_verification(user["id"], request.form.get("email") or "",
                                                     language(request.headers.get("Accept-Language")))
        return _("A link to confirm %(address)s is on its way.", address=address)
    return account_form(act)


@bp.post("/account/notifications")
def account_notifications():
    """Choose which mails come, from the account page's form."""
    def act(user):
        form = request.form
        hours = (form.get("deadline_reminder_hours") or "").strip()
        try:
            hours_value = float(hours) if hours else None
        except ValueError:
            raise ApiError(400, "invalid_form", "the reminder is a number of hours (or empty for none)") from None
        changes = check_preferences({"your_move": form.get("your_move", ""), "deadline_reminder_hours": hours_value,
                                     "invitations": form.get("invitations") == "on",
                                     "disputes": form.get("disputes") == "on"})
        wiring().mail.contacts.set_preferences(user["id"], changes)
        return _("Saved.")
    return account_form(act)


@bp.post("/account/sessions/<digest>/end")
def end_session(digest):
    """End one of this player's signed-in sessions (another browser, or this one)."""
    def act(user):
        if not sessions().end_of_user(user["id"], digest):
            raise ApiError(404, "not_found", "no such session (it may have ended already)")
        return _("That session has ended.")
    return account_form(act)


# -- the lobby's invitation suggestions ---------------------------------------------------------------------------
@bp.get("/users/suggest")
def suggest_players():
    """Name suggestions for the lobby's invite fields: this browser's player's recent opponents first (as
    GET /api/users?name=, with the session cookie instead of a token)."""
    name = (request.args.get("name") or "").strip()[:40]
    user = page_user()
    w = wiring()
    found = suggestions(w.users, w.read_models, user["id"] if user else None, name) if name else []
    return jsonify({"users": found})


# -- the next match waiting for this player -------------------------------------------------------------------------
def next_waiting(w, user_id: str, current: str | None = None) -> dict | None:
    """The match page's "next match": the one waiting after `current` in the inbox's order (longest-waiting
    first, round again from the start), the longest-waiting when `current` waits no more; None when none other
    waits."""
    inbox = w.read_models.inbox(user_id)
    ids = [row["id"] for row in inbox]
    start = ids.index(current) + 1 if current in ids else 0
    return next((row for row in inbox[start:] + inbox[:start] if row["id"] != current), None)


@bp.get("/next")
def next_match():
    """Go to the match waiting after this one for this player, in the inbox's order (the lobby when none does)."""
    user = page_user()
    row = next_waiting(wiring(), user["id"], request.args.get("from")) if user else None
    return redirect(f"/matches/{row['id']}" if row else "/", 303)
