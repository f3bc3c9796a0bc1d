"""A browser session lasts only as long as the token it was signed in with: revoking or rotating the token
(sign out everywhere) ends every session it began, while the browser that made itself a new token stays in."""
from __future__ import annotations

import re

import pytest

from service import create_app
from tests.integration.pages.forms import csrf_of, sign_up

TOKEN = re.compile(r"data-new-token>([^<]+)<")


@pytest.fixture
def browsers(wiring):
    """Two browsers (test clients with their own cookies) on one app."""
    app = create_app(wiring=wiring)
    return app.test_client(), app.test_client()


def signed_in_as(client) -> str | None:
    """The name the lobby greets this browser with, or None when it is signed out."""
    html = client.get("/").get_data(as_text=True)
    return None if 'action="/signin"' in html else "signed in"


def sign_in(client, token: str) -> None:
    """Sign a browser in through the lobby's form with a token."""
    lobby = client.get("/").get_data(as_text=True)
    answer = client.post("/signin", data={"token": token, "csrf": csrf_of(lobby)})
    assert answer.status_code == 303


def test_revoking_the_token_ends_the_sessions_it_began(browsers):
    own, thief = browsers
    token = TOKEN.search(sign_up(own, "Ann")).group(1)
    sign_in(thief, token)
    assert signed_in_as(thief) and signed_in_as(own)
    assert own.delete("/api/users/me/token", headers={"Authorization": f"Bearer {token}"}).status_code == 204
    assert signed_in_as(thief) is None and signed_in_as(own) is None
    refused = thief.post("/welcome/token", data={"csrf": "anything"})
    assert not TOKEN.search(refused.get_data(as_text=True))
    assert thief.get("/welcome").status_code == 303, "no page shows a new token to the ended session"


def test_a_new_token_from_the_page_keeps_this_browser_and_ends_the_others(browsers):
    own, thief = browsers
    token = TOKEN.search(sign_up(own, "Ann")).group(1)
    sign_in(thief, token)
    answer = own.post("/welcome/token", data={"csrf": csrf_of(own.get("/").get_data(as_text=True))})
    assert answer.status_code == 303
    fresh = TOKEN.search(own.get("/welcome").get_data(as_text=True)).group(1)
    assert fresh != token and signed_in_as(own) and signed_in_as(thief) is None
    rotated = own.post("/api/users/me/token", headers={"Authorization": f"Bearer {fresh}"})
    assert rotated.status_code == 200 and signed_in_as(own) is None, "a token rotated over the API ends it too"


def test_pages_with_a_csrf_token_are_never_kept_by_a_shared_cache(browsers):
    own, _ = browsers
    lobby = own.get("/")
    assert lobby.headers["Cache-Control"] == "private, no-cache" and "Cookie" in lobby.headers["Vary"]
    sign_up(own, "Ann")
    signed_in = own.get("/")
    assert 'name="csrf"' in signed_in.get_data(as_text=True) and "private" in signed_in.headers["Cache-Control"]
    assert own.get("/welcome").headers["Cache-Control"] == "no-store"
    api = own.get("/api/games")
    assert api.headers["X-Content-Type-Options"] == "nosniff"


def test_a_new_token_never_brings_back_an_ended_session(wiring):
    """Rebinding a session that has ended (signed out meanwhile) writes nothing: no key without user or expiry."""
    from service.web.sessions import Sessions, session_key
    sessions = Sessions(wiring.redis)
    sessions.rebind("gone", "f" * 64)
    assert not wiring.redis.exists(session_key("gone"))
