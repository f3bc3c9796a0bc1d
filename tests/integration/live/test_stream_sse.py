"""GET /api/matches/<id>/stream on a real Redis: ids are versions, Last-Event-ID resumes, per-viewer
redaction, keep-alives, a bounded lifetime, and no token ever taken from a URL."""
from __future__ import annotations

import threading
import time

import pytest

from tests.integration.live.streams import messages, race_app, read_all, stop_app

LIFETIME = 0.7


@pytest.fixture
def sse(settings, redis_client, games):
    """A test client whose streams end after LIFETIME seconds, plus a dice-race match of ann and bob."""
    w, client, users, headers, mid = race_app(settings, games, stream_lifetime_seconds=LIFETIME)
    yield client, users, headers, mid
    stop_app(w)


def test_ids_are_versions_and_last_event_id_resumes(sse):
    client, users, headers, mid = sse
    version = client.get(f"/api/matches/{mid}").get_json()["version"]
    started = time.monotonic()
    resp = client.get(f"/api/matches/{mid}/stream", headers={"Last-Event-ID": "1", **headers["ann"]}, buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    events = [m for m in messages(read_all(resp)) if "id" in m]
    assert time.monotonic() - started < LIFETIME + 2, "the stream ends after its lifetime"
    assert [m["id"] for m in events] == list(range(2, version + 1))
    assert all(m["data"]["version"] == m["id"] for m in events)
    again = client.get(f"/api/matches/{mid}/stream?last_event_id={version - 1}", buffered=False)
    assert [m["id"] for m in messages(read_all(again)) if "id" in m] == [version]


def test_a_new_event_arrives_live_and_idle_streams_get_keep_alives(sse):
    client, users, headers, mid = sse
    resp = client.get(f"/api/matches/{mid}/stream", headers=headers["bob"], buffered=False)
    timer = threading.Timer(0.2, lambda: client.post(f"/api/matches/{mid}/commands", json={"type": "draw"},
                                                     headers=headers["ann"]))
    timer.start()
    body = read_all(resp)
    timer.join()
    parsed = messages(body)
    live = [m for m in parsed if "id" in m]
    assert [m["data"]["type"] for m in live] == ["card_drawn"]
    assert live[0]["data"]["data"]["card"] is None, "bob may not see ann's card"
    assert any("comment" in m for m in parsed)


def test_each_viewer_gets_their_own_redaction(sse):
    client, users, headers, mid = sse
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "draw"}, headers=headers["ann"]).status_code == 201
    version = client.get(f"/api/matches/{mid}").get_json()["version"]
    seen = {}
    for who in ("ann", "bob", "eve", "spectator"):
        resp = client.get(f"/api/matches/{mid}/stream?last_event_id={version - 1}", headers=headers.get(who, {}),
                          buffered=False)
        (msg,) = [m for m in messages(read_all(resp)) if "id" in m]
        seen[who] = msg["data"]["data"]["card"]
    assert isinstance(seen["ann"], int)
    assert seen["bob"] is None and seen["eve"] is None and seen["spectator"] is None


def test_a_token_in_the_url_is_refused_and_bearer_is_checked(sse):
    client, users, headers, mid = sse
    token = users["ann"]["token"]
    for path in (f"/api/matches/{mid}/stream?token={token}", f"/api/users/me/stream?token={token}",
                 f"/api/stream?token={token}"):
        resp = client.get(path)
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "token_in_url"
        assert token not in resp.get_data(as_text=True)
    bad = client.get(f"/api/matches/{mid}/stream", headers={"Authorization": "Bearer not-a-token"})
    assert bad.status_code == 401 and bad.get_json()["error"]["code"] == "unauthorized"
    assert client.get("/api/users/me/stream").status_code == 401


def test_bad_requests_are_clear_json_errors(sse):
    client, users, headers, mid = sse
    for value in ("abc", "-1"):
        resp = client.get(f"/api/matches/{mid}/stream", headers={"Last-Event-ID": value})
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "invalid_query"
    missing = client.get("/api/matches/m_0000000000000000/stream")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "not_found"
