"""The pages as the tests use them through a Flask test client: a page's CSRF field, signing up and a new match on
the lobby's forms, a client signed in by a session cookie."""
from __future__ import annotations

import re

from service.web.sessions import SESSION_COOKIE, Sessions
from tests.integration.pages.russian import RU

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(html: str) -> str:
    """The first CSRF field of a page."""
    return CSRF.search(html).group(1)


def sign_up(client, name: str) -> str:
    """Sign a test client up through the lobby form; the welcome page's HTML."""
    lobby = client.get("/").get_data(as_text=True)
    answer = client.post("/signup", data={"name": name, "csrf": csrf_of(lobby)})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/welcome")
    return client.get("/welcome").get_data(as_text=True)


def new_match(client, csrf, game, **fields):
    """POST the lobby's new-match form."""
    return client.post("/matches/new", data={"csrf": csrf, "game": game, **fields})


def bot_match(client, game: str) -> str:
    """Start a two-seat match of `game` against random bots on the lobby's form (asked in Russian); its page's path."""
    csrf = csrf_of(client.get("/", headers=RU).get_data(as_text=True))
    made = new_match(client, csrf, game, bots="random", seats="2")
    assert made.status_code == 303, made.get_data(as_text=True)[:300]
    return made.headers["Location"]


def browser_of(client, wiring, user_id):
    """A test client signed in as `user_id` (a session cookie)."""
    session_id, _csrf = Sessions(wiring.redis).create(user_id)
    browser = client.application.test_client()
    browser.set_cookie(SESSION_COOKIE, session_id)
    return browser
