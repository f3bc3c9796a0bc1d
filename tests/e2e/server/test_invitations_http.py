"""Over real HTTP with real web processes and a real RQ worker: the invitation flow end to end, and rate
limits shared by two web processes through Redis."""
from __future__ import annotations

import pytest

from tests.e2e.processes import Api, service, spawn, stop, wait_http
from tests.waiting import wait_for


@pytest.fixture
def flushed(redis_url):
    """The test Redis, emptied."""
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


def inbox(api: Api) -> list:
    """[(match id, waiting_for)] of the caller's inbox."""
    status, answer = api.get("/api/users/me/inbox")
    assert status == 200
    return [(m["id"], m["waiting_for"]) for m in answer["matches"]]


def test_an_invitation_reaches_the_inbox_and_the_match_starts_when_accepted(flushed, tmp_path):
    """ann invites bob and cy to Uchronia; the worker puts the invitation in their inboxes; nothing is
    dealt until both accept; then the first turn is in the inboxes and the game can be played."""
    with service(flushed, tmp_path) as base:
        people = {}
        for name in ("ann", "bob", "cy"):
            status, user = Api(base).post("/api/users", {"name": name})
            assert status == 201
            people[name] = (user["id"], Api(base, user["token"]))
        ann, bob, cy = (people[n][1] for n in ("ann", "bob", "cy"))
        status, match = ann.post("/api/matches", {"game": "uchronia", "players": [people[n][0] for n in people]})
        assert status == 201 and match["status"] == "invited"
        mid = match["id"]
        for api in (bob, cy):
            wait_for(lambda api=api: inbox(api) == [(mid, "invitation")], 10, "the invitation in the inbox", 0.1)
        assert ann.get(f"/api/matches/{mid}/legal")[1]["commands"] == []
        assert bob.post(f"/api/matches/{mid}/accept")[1]["status"] == "invited"
        wait_for(lambda: inbox(bob) == [], 10, "the accepted invitation leaves the inbox", 0.1)
        status, started = cy.post(f"/api/matches/{mid}/accept")
        assert status == 200 and started["status"] == "active" and started["active_players"]
        mover = {people[n][0]: people[n][1] for n in people}[started["active_players"][0]]
        wait_for(lambda: (mid, "turn") in inbox(mover), 10, "the first turn in the inbox", 0.1)
        legal = mover.get(f"/api/matches/{mid}/legal")[1]
        assert mover.post(f"/api/matches/{mid}/commands", legal["commands"][0])[0] == 201


def test_rate_limits_are_shared_by_two_web_processes(flushed, tmp_path):
    """Four accounts a minute per address: two through each of two web processes use it up; the next,
    on either process, is a 429 with Retry-After."""
    limits = {"TURNSTREAM_ACCOUNT_RATE_LIMIT": "4/minute"}
    with service(flushed, tmp_path, worker=False, extra_env=limits) as first:
        from service.server.embedded_redis import free_port
        port = free_port()
        other = spawn(["web", "--port", str(port)], flushed, tmp_path / "web2.log", limits)
        try:
            second = f"http://127.0.0.1:{port}"
            wait_http(second + "/healthz")
            codes = [Api(base).post("/api/users", {"name": "x"})[0] for base in (first, second, first, second)]
            assert codes == [201] * 4
            for base in (first, second):
                status, answer = Api(base).post("/api/users", {"name": "x"})
                assert status == 429 and answer["error"]["code"] == "rate_limited"
                assert 1 <= answer["error"]["retry_after"] <= 60
        finally:
            stop(other)
