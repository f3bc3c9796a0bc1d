"""GET /api/users/me/stream and /api/stream on a real Redis: every match of the caller (each message names
its match), watched matches, inbox changes after the projection, resume by cursor with no event missed or
repeated, and the caps on open streams (503 + Retry-After for new streams only)."""
from __future__ import annotations

import threading
import time

import pytest

from projections.delivery import catch_up
from tests.integration.live.streams import race_app, read_all, stop_app, typed_messages
from tests.waiting import wait_for

LIFETIME = 0.8
LONG_LIFETIME = 10  # a stream that ends sooner was ended by something else, however slow the machine


def _streams_app(settings, games, lifetime: float):
    """A client whose streams end after `lifetime` seconds and small caps; users ann, bob, eve; a dice race."""
    return race_app(settings, games, stream_lifetime_seconds=lifetime, streams_per_user=3, streams_per_address=2,
                    stream_retry_after_seconds=7)


@pytest.fixture
def live(settings, redis_client, games):
    """Streams that end after LIFETIME seconds."""
    app = _streams_app(settings, games, LIFETIME)
    yield app
    stop_app(app[0])


@pytest.fixture
def long_lived(settings, redis_client, games):
    """Streams that last LONG_LIFETIME seconds."""
    app = _streams_app(settings, games, LONG_LIFETIME)
    yield app
    stop_app(app[0])


def during(stream_response, action, delay=0.25):
    """Consume a stream to its end while `action` runs after `delay` seconds; the parsed messages."""
    timer = threading.Timer(delay, action)
    timer.start()
    body = read_all(stream_response)
    timer.join()
    return typed_messages(body)


def test_one_stream_carries_every_match_of_the_caller_redacted_and_named(live):
    w, client, users, headers, mid = live

    def moves():
        assert client.post(f"/api/matches/{mid}/commands", json={"type": "draw"}, headers=headers["ann"]).status_code == 201
        other = client.post("/api/matches", json={"game": "dice-race", "players": [users["bob"]["id"], users["ann"]["id"]]},
                            headers=headers["bob"])
        assert other.status_code == 201

    resp = client.get("/api/users/me/stream", headers=headers["bob"], buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    got = during(resp, moves)
    assert got[0] == {"event": "inbox", "id": got[0]["id"], "data": {"matches": []}}, "the inbox comes first"
    events = [m["data"] for m in got if m.get("event") == "match"]
    drawn = [e for e in events if e["match"] == mid]
    assert [e["event"]["type"] for e in drawn] == ["card_drawn"]
    assert drawn[0]["event"]["data"]["card"] is None, "bob may not see ann's card"
    assert {e["match"] for e in events} - {mid}, "a match created after the stream opened is followed too"


def test_watch_follows_other_matches_as_a_spectator_and_anonymous_browsers_may_watch(live):
    w, client, users, headers, mid = live
    drawers = iter(("ann", "bob"))

    def draw():
        who = headers[next(drawers)]
        assert client.post(f"/api/matches/{mid}/commands", json={"type": "draw"}, headers=who).status_code == 201

    for path, who in ((f"/api/users/me/stream?watch={mid}", headers["eve"]), (f"/api/stream?watch={mid}", {})):
        resp = client.get(path, headers=who, buffered=False)
        events = [m["data"] for m in during(resp, draw) if m.get("event") == "match"]
        assert [e["event"]["type"] for e in events] == ["card_drawn"]
        assert events[0]["event"]["data"]["card"] is None
    bad = client.get("/api/stream?watch=" + ",".join(["m_1"] * 51))
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "invalid_query"


def test_inbox_changes_arrive_after_the_projection_wrote_them(live):
    w, client, users, headers, mid = live

    def move_and_project():
        client.post(f"/api/matches/{mid}/commands", json={"type": "draw"}, headers=headers["ann"])
        catch_up(w.projector, w.store.keys.partition(mid))  # what a worker's follower does

    resp = client.get("/api/users/me/stream", headers=headers["bob"], buffered=False)
    got = during(resp, move_and_project)
    inboxes = [m["data"]["matches"] for m in got if m.get("event") == "inbox"]
    summaries = [m["data"] for m in got if m.get("event") == "summary"]
    assert len(inboxes) >= 2, "the inbox at opening, then again once it changed"
    assert [row["id"] for row in inboxes[-1]] == [mid], "now it is bob's turn"
    assert summaries and summaries[-1]["match"] == mid


def test_resume_by_cursor_misses_nothing_and_repeats_nothing(live):
    w, client, users, headers, mid = live
    ann = headers["ann"]

    def notes(n):
        def run():
            for i in range(n):
                note = {"type": "note", "payload": {"text": f"note {i}"}}
                assert client.post(f"/api/matches/{mid}/commands", json=note, headers=ann).status_code == 201
        return run

    first = [m for m in during(client.get("/api/users/me/stream", headers=ann, buffered=False), notes(2))
             if m.get("event") == "match"]
    seen = [m["data"]["event"]["version"] for m in first]
    cursor = first[-1]["id"]
    notes(3)()  # while disconnected
    again = client.get("/api/users/me/stream", headers={**ann, "Last-Event-ID": str(cursor)}, buffered=False)
    resumed = [m for m in during(again, notes(1)) if m.get("event") == "match"]
    versions = seen + [m["data"]["event"]["version"] for m in resumed]
    current = client.get(f"/api/matches/{mid}").get_json()["version"]
    assert versions == list(range(seen[0], current + 1)), "every version exactly once, in order"
    bad = client.get("/api/users/me/stream", headers={**ann, "Last-Event-ID": "yesterday"})
    assert bad.status_code == 400
    stale = client.get("/api/users/me/stream", headers={**ann, "Last-Event-ID": "1000"}, buffered=False)
    assert [m.get("event") for m in typed_messages(read_all(stale))][:1] == ["reset"], \
        "a cursor too old to replay asks the client to reload (event: reset)"


def from_address(address: str) -> dict:
    """Test-client kwargs that make a request come from `address`."""
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_caps_refuse_new_streams_only_with_retry_after(live):
    w, client, users, headers, mid = live
    held = [client.get(f"/api/matches/{mid}/stream", buffered=False) for _ in range(2)]
    assert all(r.status_code == 200 for r in held)
    refused = client.get(f"/api/matches/{mid}/stream")
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "7"
    assert refused.get_json()["error"]["code"] == "too_many_streams"
    assert client.get("/api/users/me/stream", headers=headers["ann"]).status_code == 503, \
        "a signed-in stream counts against its address too"
    mine = [client.get("/api/users/me/stream", headers=headers["ann"], buffered=False, **from_address(f"10.0.0.{n}"))
            for n in range(3)]
    assert all(r.status_code == 200 for r in mine), "a user's streams from several addresses"
    assert client.get(f"/api/matches/{mid}/stream", headers=headers["ann"], **from_address("10.0.0.9")).status_code == 503
    assert client.get(f"/api/matches/{mid}/stream", headers=headers["bob"], buffered=False,
                      **from_address("10.0.0.9")).status_code == 200
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "draw"}, headers=headers["ann"]).status_code == 201
    assert client.get("/healthz").status_code == 200
    for r in held:
        r.close()
    assert client.get(f"/api/matches/{mid}/stream", buffered=False).status_code == 200, "a closed stream frees its place"


def test_many_accounts_from_one_address_share_its_cap(live):
    """The probe held thousands of streams from one address with one account per few streams: every stream of
    an address counts, whoever is signed in on it (2 here), and the cap frees as streams close."""
    w, client, users, headers, mid = live
    accounts = [client.post("/api/users", json={"name": f"sock{n}"}).get_json() for n in range(5)]
    answers = [client.get("/api/users/me/stream", headers={"Authorization": f"Bearer {a['token']}"}, buffered=False)
               for a in accounts for _ in range(2)]
    served = [r for r in answers if r.status_code == 200]
    assert len(served) == 2 and all(r.status_code == 503 for r in answers if r.status_code != 200)
    assert w.live.open_streams() == 2
    for r in served:
        r.close()
    assert w.live.open_streams() == 0


def test_a_resume_loads_only_the_matches_the_stream_follows(live, monkeypatch):
    """Resuming scans the partition logs, but folds only the matches the stream follows: none for an anonymous
    browser, the user's own for a signed-in one (an anonymous cursor cannot make the server fold every match)."""
    w, client, users, headers, mid = live
    others = []
    for _ in range(6):  # matches eve is not in
        other = client.post("/api/matches", json={"game": "dice-race", "players": [users["bob"]["id"]],
                                                  "bots": ["random"], "options": {"target": 30}},
                            headers=headers["bob"]).get_json()["id"]
        others.append(other)
    cursor = int(w.redis.xrange(w.store.keys.log(w.store.keys.partition(mid)), count=1)[0][0].split("-")[0])
    note = {"type": "note", "payload": {"text": "hi"}}
    assert client.post(f"/api/matches/{mid}/commands", json=note, headers=headers["ann"]).status_code == 201
    catch_up(w.projector, w.store.keys.partition(mid))
    folded = []
    real_read = w.live.matches.read
    monkeypatch.setattr(w.live.matches, "read", lambda match_id, fn: (folded.append(match_id),
                                                                      real_read(match_id, fn))[1])
    anonymous = typed_messages(read_all(client.get("/api/stream", headers={"Last-Event-ID": str(cursor)},
                                             buffered=False)))
    assert folded == [] and not [m for m in anonymous if m.get("event") == "match"]
    own = typed_messages(read_all(client.get("/api/users/me/stream", headers={**headers["ann"], "Last-Event-ID":
                                                                       str(cursor)}, buffered=False)))
    assert set(folded) == {mid} and any(m.get("event") == "match" for m in own)


def test_signing_out_everywhere_ends_the_open_streams(long_lived, monkeypatch):
    """A stream opened with a token stops within the credential check once the token is revoked, long before its
    lifetime: the moves made afterwards never reach it."""
    import service.web.api.stream as stream_mod
    monkeypatch.setattr(stream_mod, "CREDENTIAL_CHECK_SECONDS", 0.1, raising=False)
    w, client, users, headers, mid = long_lived
    ann = headers["ann"]

    def revoke_then_move():
        wait_for(lambda: w.live.open_streams() == 1, 5, "the stream open")
        assert client.delete("/api/users/me/token", headers=ann).status_code == 204
        wait_for(lambda: w.live.open_streams() == 0, 5, "the stream to end at its credential check")
        mover = w.matches.load(mid).active_players()[0]  # ann's token is gone: the move goes in directly
        w.matches.submit(mover, mid, "note", {"text": "after"})
        moved.append(True)

    moved = []
    started = time.monotonic()
    got = during(client.get("/api/users/me/stream", headers=ann, buffered=False), revoke_then_move)
    assert time.monotonic() - started < LONG_LIFETIME, "the stream ended before its lifetime"
    assert moved and not [m for m in got if m.get("event") == "match"], got
