"""Pages in English and Russian: the catalogue covers every string the pages, their templates and scripts
mark for translation, the compiled .mo matches its .po, a page rendered in Russian asks gettext for nothing
the catalogue lacks (lobby, match, rules, error pages) and shows no English word (account, sign-in, unsubscribe,
welcome, player, leaderboard and audit pages), the language follows Accept-Language and the remembered switch,
and the API stays English."""
from __future__ import annotations

import re
from pathlib import Path

import flask_babel
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from domain.games import GAME_PACKAGES
from tests.conftest import drain_projections
from tests.integration.matches.playing import play_one_move
from tests.integration.history.tampering import rewrite_stream
from tests.integration.pages.forms import csrf_of, sign_up
from tests.integration.pages.russian import RU, english_words
from tests.invites import start_http

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "service/web/translations/ru/LC_MESSAGES/messages.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None, "t": None}


def extracted_msgids() -> set:
    """What `pybabel extract -F babel.cfg` finds (docs/translations.md), singular ids."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**KEYWORDS}
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                        keywords=keywords):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_every_marked_string_has_a_russian_translation():
    with open(PO, "rb") as f:
        catalogue = read_po(f)
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue if m.id}
    wanted = extracted_msgids()
    assert len(wanted) > 150
    missing = sorted(w for w in wanted if w not in translated)
    assert not missing, f"no Russian for {missing[:10]} (run the commands in docs/translations.md)"
    for msgid in wanted:
        m = translated[msgid]
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings) and not m.fuzzy, f"{msgid!r} is untranslated or fuzzy"


def test_the_compiled_catalogue_is_the_po_file():
    def key(value):
        return tuple(value) if isinstance(value, (list, tuple)) else value
    with open(PO, "rb") as f:
        po = {key(m.id): key(m.string) for m in read_po(f) if m.id}
    with open(MO, "rb") as f:
        mo = {key(m.id): key(m.string) for m in read_mo(f) if m.id}
    assert po == mo, "the .mo is stale: pybabel compile -d service/web/translations"


@pytest.fixture
def misses(monkeypatch):
    """Every msgid a page asked gettext for that came back untranslated, while the locale is not English."""
    seen: list = []
    original = flask_babel.Domain.get_translations

    class Recording:
        def __init__(self, inner):
            self.inner = inner

        def _note(self, msgid, out):
            if str(flask_babel.get_locale()) != "en" and out == msgid:
                seen.append(msgid)
            return out

        def ugettext(self, msgid):
            return self._note(msgid, self.inner.ugettext(msgid))

        gettext = ugettext

        def ungettext(self, singular, plural, n):
            out = self.inner.ungettext(singular, plural, n)
            return self._note(singular if n == 1 else plural, out)

        ngettext = ungettext

        def __getattr__(self, name):
            return getattr(self.inner, name)

    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Recording(original(self)))
    return seen


def page(client, path, headers=None) -> str:
    answer = client.get(path, headers={**RU, **(headers or {})})
    assert answer.status_code in (200, 404), (path, answer.status_code)
    html = answer.get_data(as_text=True)
    assert '<html lang="ru">' in html, path
    return html


def test_lobby_match_rules_and_error_pages_have_no_untranslated_string(client, wiring, misses):
    page(client, "/")  # signed out: the sign-up and sign-in forms
    sign_up(client, "Аня")
    csrf = csrf_of(client.get("/").get_data(as_text=True))
    pages = ["/", "/games/nope/rules", "/matches/nope"]
    for game in GAME_PACKAGES:
        made = client.post("/matches/new", data={"csrf": csrf, "game": game, "bots": "random", "seats": "2"})
        assert made.status_code == 303, made.get_data(as_text=True)[:500]
        pages += [made.headers["Location"], f"/games/{game}/rules"]
    client.post("/matches/new", data={"csrf": csrf, "game": "uchronia", "seats": "3"})  # an open match
    for path in pages:
        html = page(client, path)
        assert not misses, f"{path} shows {sorted(set(misses))} untranslated"
        assert "Ваш" in html or "Как играть" in html or "Такой страницы нет" in html or "Ждём" in html, path
    assert "Ухрония" in page(client, "/"), "the lobby names the games as their rulebooks do"


def test_the_language_follows_the_browser_and_the_remembered_switch(client, wiring):
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    lobby = client.get("/", headers=RU).get_data(as_text=True)
    assert "Новый игрок" in lobby
    csrf = re.search(r'action="/lang".*?name="csrf" value="([^"]+)"', lobby, re.S).group(1)
    forged = client.post("/lang", data={"lang": "en", "next": "/"}, headers=RU)
    assert forged.status_code == 303 and "Set-Cookie" not in forged.headers, "another site's form changes nothing"
    switched = client.post("/lang", data={"lang": "en", "next": "/games/uchronia/rules#goal", "csrf": csrf},
                           headers=RU)
    assert switched.status_code == 303 and switched.headers["Location"] == "/games/uchronia/rules"
    assert "lang=en" in switched.headers["Set-Cookie"] and "Max-Age" in switched.headers["Set-Cookie"]
    assert '<html lang="en">' in client.get("/", headers=RU).get_data(as_text=True), "the cookie beats the browser"
    assert client.post("/lang", data={"lang": "ru", "next": "//evil.example/x", "csrf": csrf}).headers["Location"] == "/"
    html = client.get("/").get_data(as_text=True)
    assert '<html lang="ru">' in html and 'action="/lang"' in html and 'value="en"' in html
    texts = re.search(r'<script type="application/json" id="page-texts">(.*?)</script>', html).group(1)
    assert "Сервер недоступен." in texts, "the scripts' words come translated"


def test_the_switch_also_sets_the_players_mail_language(client, wiring):
    token = re.search(r"data-new-token>([^<]+)<", sign_up(client, "Boris")).group(1)
    me = client.get("/api/users/me", headers={"Authorization": f"Bearer {token}"}).get_json()["id"]
    assert wiring.mail.contacts.get(me)["lang"] == "en"
    csrf = csrf_of(client.get("/").get_data(as_text=True))
    client.post("/lang", data={"lang": "ru", "next": "/", "csrf": csrf})
    assert wiring.mail.contacts.get(me)["lang"] == "ru", "mails follow the language the player chose"


def test_the_api_stays_english(client, make_user):
    _uid, headers = make_user("Ann")
    answer = client.get("/api/matches/nope", headers={**headers, **RU})
    body = answer.get_json()
    assert answer.status_code == 404 and body["error"]["code"] == "not_found"
    assert re.fullmatch(r"[ -~]+", body["error"]["message"]), "API messages stay English"


# -- no English word on a Russian page --------------------------------------------------------------------------


def test_the_visible_word_check_finds_english():
    html = ('<html lang="ru"><head><title>Audit</title></head><body><p>Проверка <code>rules_upgraded</code> '
            'turn<span>stream</span> <a href="/x" title="Leaderboard">a@b.example</a> <button lang="en">English'
            '</button><input type="hidden" value="Secret"><input type="submit" value="Save"></p></body></html>')
    assert english_words(html) == ["Leaderboard", "Save"]


def test_account_mail_link_and_standings_pages_show_no_english(client, wiring, make_user, misses):
    wiring.games.pop("dice-race", None)  # the tests' own game: no rulebook, so no Russian title
    client.set_cookie("lang", "ru")
    seen = {}

    def look(path, html=None, status=200):
        if html is None:
            answer = client.get(path)
            assert answer.status_code == status, (path, answer.status_code)
            html = answer.get_data(as_text=True)
        assert '<html lang="ru">' in html, path
        assert not misses, f"{path} asks for {sorted(set(misses))}, which the catalogue lacks"
        assert not english_words(html), f"{path} shows English: {english_words(html)}"
        seen[path] = html
        return html

    welcome = look("/welcome (new token)", sign_up(client, "Аня"))
    token = re.search(r"data-new-token>([^<]+)<", welcome).group(1)
    ha = {"Authorization": f"Bearer {token}"}
    ann = client.get("/api/users/me", headers=ha).get_json()["id"]
    look("/welcome")
    csrf = csrf_of(look("/account"))
    for form, data in (("/account/email", {"email": "anya@example.com"}),
                       ("/account/notifications", {"your_move": "digest", "deadline_reminder_hours": "no"}),
                       ("/account/notifications", {"your_move": "digest", "deadline_reminder_hours": "5"}),
                       ("/account/email", {"email": "not an address"})):
        answer = client.post(form, data={"csrf": csrf, **data})
        look(f"POST {form} {data}", answer.get_data(as_text=True))
    assert "Сохранено." in seen["POST /account/notifications {'your_move': 'digest', 'deadline_reminder_hours': '5'}"]
    assert "ещё не подтверждён" in client.get("/account").get_data(as_text=True)

    browser = client.application.test_client()  # another browser, signed out, following the mails' links
    browser.set_cookie("lang", "ru")
    sign_in = wiring.mail.tokens.single_use("sign-in", u=ann)
    for path, status in ((f"/sign-in/{sign_in}", 200), ("/sign-in", 200), ("/sign-in/forged.link", 404),
                         ("/verify-email/forged.link", 404)):
        answer = browser.get(path)
        assert answer.status_code == status, path
        look(path, answer.get_data(as_text=True))
    asked = csrf_of(seen["/sign-in"])
    for address in ("anya@example.com", "not an address"):  # "check your mail", and a refused address
        look(f"POST /sign-in {address}", browser.post("/sign-in", data={"csrf": asked, "email": address}).get_data(
            as_text=True))
    assert "Проверьте почту" in seen["POST /sign-in anya@example.com"]
    assert "Это не адрес электронной почты." in seen["POST /sign-in not an address"]
    lobby_csrf = csrf_of(browser.get("/").get_data(as_text=True))
    refused = browser.post("/signin", data={"csrf": lobby_csrf, "token": "not-a-token"}).get_data(as_text=True)
    assert "Такой токен не подходит" in refused, "the lobby's sign-in says its refusal in Russian"
    look("POST /sign-in/<link> forged form", browser.post(f"/sign-in/{sign_in}", data={"csrf": "x"}).get_data(
        as_text=True))
    unsubscribe = f"/unsubscribe/{wiring.mail.tokens.unsubscribe(ann, 'your_move')}"
    look(unsubscribe)
    look(f"POST {unsubscribe}", browser.post(unsubscribe).get_data(as_text=True))

    bob, hb = make_user("Борис")
    mid = start_http(client, ha, {"game": "uchronia", "players": [ann, bob]}, hb)
    look(f"/matches/{mid}/audit (live)", client.get(f"/matches/{mid}/audit").get_data(as_text=True))
    play_one_move(client, mid, [ha, hb])
    assert client.post(f"/api/matches/{mid}/concede", headers=hb).status_code == 201
    drain_projections(wiring)
    for path in (f"/users/{ann}", f"/users/{bob}", "/games/uchronia/leaderboard", "/games/origins/leaderboard",
                 f"/matches/{mid}/audit"):
        look(path)
    for path in ("/users/u_nobody", "/games/nope/leaderboard", "/matches/m_none/audit", "/matches/m_none"):
        look(path, status=404)
    assert "Проверено" in seen[f"/matches/{mid}/audit"] and "Ухрония" in seen["/games/uchronia/leaderboard"]
    assert "победа" in seen[f"/users/{ann}"] and "Изменение рейтинга" in seen[f"/users/{bob}"]
    envs = wiring.store.read_range(mid, 1)  # a forged seed: the audit's findings, in Russian too
    rewrite_stream(wiring, mid, envs[:-1] + [dict(envs[-1], data={"seed": "11" * 32})])
    forged = look(f"/matches/{mid}/audit (forged)", client.get(f"/matches/{mid}/audit").get_data(as_text=True))
    assert 'data-ok="false"' in forged and "не совпадает с отпечатком" in forged
