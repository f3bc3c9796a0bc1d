"""A refused sign-in on a match page's form keeps the player on that match (real Redis): a mistyped token or a stale
form shows the match page again, signed out, with the refusal at its sign-in form and the refusal's status, in the
page's language; the right token then lands on the match; a `next` that is not a match page of this site, or a match
that does not exist, still gets the lobby."""
from __future__ import annotations

import re

import pytest

from service.web.sessions import SESSION_COOKIE
from tests.integration.pages.forms import csrf_of
from tests.integration.pages.russian import RU
from tests.invites import start_http

VIEWER = re.compile(r'data-viewer="([^"]*)"')
REFUSAL = re.compile(r"data-sign-in-refusal>([^<]+)<")


@pytest.fixture
def table(client, make_user):
    """Ann's and Bob's dice race; (ann's id, ann's token, the match page's path)."""
    ann, ha = make_user("ann")
    _bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, _bob], "options": {"target": 100}}, hb)
    return ann, ha["Authorization"].removeprefix("Bearer "), f"/matches/{mid}"


def refused_match_page(answer, path: str, status: int) -> str:
    """The refused sign-in's answer: the match page of `path`, signed out, its refusal at the sign-in form."""
    html = answer.get_data(as_text=True)
    assert answer.status_code == status, html[:300]
    assert f'data-match-id="{path.removeprefix("/matches/")}"' in html and VIEWER.search(html).group(1) == ""
    assert f'<input type="hidden" name="next" value="{path}">' in html and 'action="/signin"' in html
    assert html.count(f'name="next" value="{path}"') == 3, "both sign-in forms and the language switch return here"
    return REFUSAL.search(html).group(1)


def test_a_mistyped_token_on_the_match_page_stays_on_it_and_the_right_one_lands_on_the_match(client, table):
    ann, token, path = table
    phone = client.application.test_client()
    csrf = csrf_of(phone.get(path).get_data(as_text=True))
    mistyped = phone.post("/signin", data={"csrf": csrf, "token": token[:-1], "next": path})
    assert refused_match_page(mistyped, path, 401) == "the token is not valid"
    csrf = csrf_of(mistyped.get_data(as_text=True))
    signed = phone.post("/signin", data={"csrf": csrf, "token": token, "next": path})
    assert signed.status_code == 303 and signed.headers["Location"] == path
    page = phone.get(path).get_data(as_text=True)
    assert VIEWER.search(page).group(1) == ann and "data-sign-in-to-play" not in page


def test_the_refusal_on_the_match_page_is_in_the_pages_language(client, table):
    _ann, token, path = table
    phone = client.application.test_client()
    csrf = csrf_of(phone.get(path, headers=RU).get_data(as_text=True))
    mistyped = phone.post("/signin", data={"csrf": csrf, "token": "not-a-token", "next": path}, headers=RU)
    assert refused_match_page(mistyped, path, 401) == "Такой токен не подходит: проверьте его и попробуйте снова."
    stale = phone.post("/signin", data={"csrf": "forged", "token": token, "next": path}, headers=RU)
    assert refused_match_page(stale, path, 403) == "Форма устарела: обновите страницу и попробуйте ещё раз."
    assert not any(c.startswith(SESSION_COOKIE + "=") for c in stale.headers.getlist("Set-Cookie")), \
        "a forged form signs nobody in"


@pytest.mark.parametrize("elsewhere", ["//evil.example/x", "/account", "/matches/no-such-match", ""])
def test_a_refusal_without_a_match_page_to_return_to_shows_the_lobby(client, table, elsewhere):
    _ann, _token, _path = table
    phone = client.application.test_client()
    csrf = csrf_of(phone.get("/").get_data(as_text=True))
    refused = phone.post("/signin", data={"csrf": csrf, "token": "not-a-token", "next": elsewhere})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 401 and 'id="signin-form"' in html and "data-match-id" not in html
    assert "the token is not valid" in html and "evil.example" not in html
