"""Pages in English and Russian (Flask-Babel, gettext catalogues in service/web/translations/): the language
is the `lang` cookie set by the switch on every page, else the browser's Accept-Language (as mails choose
theirs: service/app/mail/contacts.py), else English. The API stays English (its error codes never change).
The page scripts' words come translated in the page (`#page-texts`): `t("...")` in static/*.js."""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, g, redirect, request
from flask_babel import Babel, gettext, lazy_gettext
from markupsafe import Markup

from service.app.mail.contacts import LANGUAGES, language
from service.web.browser import give_login_csrf, login_csrf, page_user
from service.web.http import wiring
from service.web.rules_texts import rules_text
from service.web.sessions import LOGIN_CSRF_COOKIE, same_secret

bp = Blueprint("i18n", __name__)

COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
NAMES = {"en": "English", "ru": "Русский"}  # each language in its own words, as the switch shows it
HERE = Path(__file__).resolve().parent
TRANSLATIONS = HERE / "translations"
SCRIPT_TEXT = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"\s*\)""")


def choose_language() -> str:
    """The page language of this request: the switch's cookie, else Accept-Language, else English."""
    if "lang" not in g:
        chosen = request.cookies.get(COOKIE)
        g.lang = chosen if chosen in LANGUAGES else language(request.headers.get("Accept-Language"))
    return g.lang


@cache
def script_texts() -> tuple:
    """Every string the page scripts show through `t("...")` (read once from static/*.js)."""
    found = []
    for source in sorted((HERE / "static").glob("*.js")):
        for raw in SCRIPT_TEXT.findall(source.read_text(encoding="utf-8")):
            text = json.loads(f'"{raw}"')
            if text not in found:
                found.append(text)
    return tuple(found)


def page_texts() -> Markup:
    """The scripts' words in this page's language, as JSON for `<script type="application/json">`."""
    words = {text: gettext(text) for text in script_texts()}
    payload = json.dumps({k: v for k, v in words.items() if v != k}, ensure_ascii=False)
    return Markup(payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def safe_next(raw: str | None) -> str:
    """A same-site path to go back to (never another site's address)."""
    parts = urlsplit(raw or "/")
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//") \
            or "\\" in (raw or ""):
        return "/"
    return parts.path + (f"?{parts.query}" if parts.query else "")


@bp.post("/lang")
def switch_language():
    """The language switch: remember the choice in a cookie (and for the signed-in player's mails), go back."""
    lang = request.form.get("lang")
    response = redirect(safe_next(request.form.get("next")), 303)
    user = page_user()
    expected = user["csrf"] if user is not None else request.cookies.get(LOGIN_CSRF_COOKIE)
    if lang in LANGUAGES and same_secret(request.form.get("csrf"), expected):  # a form of this site's pages
        response.set_cookie(COOKIE, lang, max_age=COOKIE_SECONDS, samesite="Lax", secure=request.scheme == "https",
                            path="/")
        if user is not None:
            wiring().mail.contacts.set_language(user["id"], lang)
    return response


def install(app) -> None:
    """Flask-Babel on `app`, the language switch, and what every template needs to show the switch."""
    Babel(app, locale_selector=choose_language, default_translation_directories=str(TRANSLATIONS))
    app.register_blueprint(bp)
    app.add_template_global(login_csrf, "login_csrf_token")  # the switch's form token when signed out

    @app.after_request
    def vary_by_language(response):
        if response.mimetype == "text/html":
            response.vary.add("Accept-Language")
        give_login_csrf(response)
        return response

    @app.context_processor
    def languages():
        lang = choose_language() if request else "en"
        return {"page_lang": lang, "languages": NAMES, "page_texts": page_texts,
                "here": request.full_path.rstrip("?") if request and request.method == "GET" else "/"}


STATUS_WORDS = {"open": lazy_gettext("open"), "invited": lazy_gettext("invited"), "active": lazy_gettext("active"),
                "finished": lazy_gettext("finished"), "cancelled": lazy_gettext("cancelled")}


@bp.app_template_global()
def status_word(status: str) -> str:
    """A match status in the page's language."""
    return str(STATUS_WORDS.get(status, status))


@bp.app_template_global()
def game_title(game_id: str, default: str) -> str:
    """A game's title as its rulebook in the page's language writes it (the game module's title otherwise)."""
    lang = choose_language()
    if lang == "en":
        return default
    text = rules_text(game_id, lang)
    return text["title"] if text else default


DISPUTE_WORDS = {"open": lazy_gettext("open"), "accepted": lazy_gettext("accepted"),
                 "rejected": lazy_gettext("rejected"), "expired": lazy_gettext("expired")}


@bp.app_template_global()
def dispute_word(status: str) -> str:
    """A dispute's status in the page's language."""
    return str(DISPUTE_WORDS.get(status, status))
