"""Ending a browser session ends every live stream it opened at once: signing out, "End" on another browser's row
of /account, or a new token; the other browsers of the same player keep theirs."""
from __future__ import annotations

import threading
import time

import pytest

from service.web.sessions import SESSION_COOKIE, Sessions, session_digest
from tests.integration.live.streams import race_app, read_all, stop_app, typed_messages

LIFETIME = 3.0


@pytest.fixture
def browsers(settings, redis_client, games):
    """(wiring, API client, {name: user}, match id, browser): browser(user) is a test client signed in as the
    user in a session of its own, with its CSRF token and session id."""
    w, client, users, headers, mid = race_app(settings, games, stream_lifetime_seconds=LIFETIME)

    def browser(user: dict):
        session_id, csrf = Sessions(w.redis).create(user["id"])
        page = client.application.test_client()
        page.set_cookie(SESSION_COOKIE, session_id)
        return page, csrf, session_id
    yield w, client, users, mid, browser
    stop_app(w)


def stream_during(page, action, delay: float = 0.3) -> tuple[list, float]:
    """Read the browser's live stream to its end while `action` runs after `delay` s: (its messages, how long
    it lasted after the action)."""
    done = []

    def run():
        action()
        done.append(time.monotonic())
    timer = threading.Timer(delay, run)
    response = page.get("/api/stream", buffered=False)
    assert response.status_code == 200
    timer.start()
    body = read_all(response)
    ended = time.monotonic()
    timer.join()
    return typed_messages(body), ended - done[0]


def move_after(w, mid: str):
    """A move in the match, made directly (no browser involved)."""
    mover = w.matches.load(mid).active_players()[0]
    w.matches.submit(mover, mid, "note", {"text": "after"})


def test_signing_out_ends_the_streams_this_browser_opened_at_once(browsers):
    w, client, users, mid, browser = browsers
    page, csrf, _session = browser(users["ann"])

    def sign_out():
        assert page.post("/signout", data={"csrf": csrf}).status_code == 303
        move_after(w, mid)
    got, lasted = stream_during(page, sign_out)
    assert lasted < 0.5, f"the stream lasted {lasted:.2f} s after signing out"
    assert not [m for m in got if m.get("event") == "match"], got


def test_ending_another_browsers_session_from_the_account_page_ends_its_streams(browsers):
    w, client, users, mid, browser = browsers
    phone, _phone_csrf, phone_session = browser(users["ann"])
    desk, desk_csrf, _desk_session = browser(users["ann"])

    def end_the_phone():
        answer = desk.post(f"/account/sessions/{session_digest(phone_session)}/end", data={"csrf": desk_csrf})
        assert answer.status_code == 200
        move_after(w, mid)
    got, lasted = stream_during(phone, end_the_phone)
    assert lasted < 0.5, f"the stream lasted {lasted:.2f} s after its session was ended"
    assert not [m for m in got if m.get("event") == "match"], got


def test_the_other_browsers_of_the_player_keep_their_streams(browsers):
    w, client, users, mid, browser = browsers
    phone, _phone_csrf, phone_session = browser(users["ann"])
    desk, desk_csrf, _desk_session = browser(users["ann"])

    def end_the_phone():
        desk.post(f"/account/sessions/{session_digest(phone_session)}/end", data={"csrf": desk_csrf})
        move_after(w, mid)
    got, lasted = stream_during(desk, end_the_phone)
    assert lasted > 1.0, "the browser that ended another session keeps its stream"
    assert [m for m in got if m.get("event") == "match"], got


def test_a_new_token_from_the_page_ends_the_streams_of_the_other_browsers(browsers):
    w, client, users, mid, browser = browsers
    phone, _phone_csrf, _phone_session = browser(users["ann"])
    desk, desk_csrf, _desk_session = browser(users["ann"])

    def new_token():
        assert desk.post("/welcome/token", data={"csrf": desk_csrf}).status_code == 303
        move_after(w, mid)
    got, lasted = stream_during(phone, new_token)
    assert lasted < 0.5, f"the stream lasted {lasted:.2f} s after a new token"
    assert not [m for m in got if m.get("event") == "match"], got
