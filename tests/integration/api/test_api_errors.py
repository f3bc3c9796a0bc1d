"""Every error path of the HTTP API: status, JSON error shape, and that nothing changed."""
from __future__ import annotations

import pytest

from service import create_app
from service.config import Settings
from service.bootstrap import build
from tests.invites import start_http
from tests.integration.api.errors import error_of


@pytest.fixture
def race(client, make_user):
    """An active dice-race match between ann and bob: (match id, ann headers, bob headers, ann id, bob id)."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    return start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb), ha, hb, ann, bob


def version(client, mid):
    return client.get(f"/api/matches/{mid}").get_json()["version"]


def test_create_user_validation(client):
    """Missing or wrong-typed name, malformed JSON, non-object body."""
    error_of(client.post("/api/users", json={}), 400, "invalid_body")
    err = error_of(client.post("/api/users", json={"name": 5}), 400, "invalid_body")
    assert "name" in err["fields"]
    error_of(client.post("/api/users", data="{nope", content_type="application/json"), 400, "malformed_json")
    error_of(client.post("/api/users", json=["ann"]), 400, "invalid_body")
    error_of(client.post("/api/users", json={"name": "x" * 41}), 400, "invalid_body")
    error_of(client.post("/api/users", json={"name": "ann", "admin": True}), 400, "invalid_body")


def test_tokens(client, make_user):
    """No token and a bad token are 401; a good one identifies the user."""
    error_of(client.get("/api/users/me"), 401, "unauthorized")
    error_of(client.get("/api/users/me", headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    error_of(client.get("/api/users/me", headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    uid, h = make_user("ann")
    assert client.get("/api/users/me", headers=h).get_json() == {"id": uid, "name": "ann", "email": None,
                                                                  "email_verified": False}


def test_tokens_are_stored_hashed(client, wiring):
    """The raw token is nowhere in Redis."""
    token = client.post("/api/users", json={"name": "ann"}).get_json()["token"]
    for key in wiring.redis.scan_iter("ts:*"):
        kind = wiring.redis.type(key)
        values = [key] + (list(wiring.redis.hgetall(key).values()) if kind == "hash" else
                          [wiring.redis.get(key)] if kind == "string" else [])
        assert all(token not in (v or "") for v in values)


def test_create_match_errors(client, make_user):
    """Unknown game, unknown players, bad options, wrong counts, both or neither of players/seats."""
    ann, h = make_user("ann")
    error_of(client.post("/api/matches", json={"game": "dice-race", "players": [ann]}), 401)
    error_of(client.post("/api/matches", json={"game": "chess", "players": [ann]}, headers=h), 400, "unknown_game")
    error_of(client.post("/api/matches", json={"game": "dice-race", "players": [ann, "u_nobody"]}, headers=h),
             400, "unknown_players")
    error_of(client.post("/api/matches", json={"game": "dice-race", "players": [ann, ann]}, headers=h), 422)
    error_of(client.post("/api/matches", json={"game": "dice-race", "players": [ann]}, headers=h), 422)
    error_of(client.post("/api/matches", json={"game": "dice-race", "seats": 2, "options": {"target": "x"}},
                         headers=h), 400, "invalid_options")
    error_of(client.post("/api/matches", json={"game": "dice-race", "seats": 2, "options": {"bogus": 1}},
                         headers=h), 400, "invalid_options")
    error_of(client.post("/api/matches", json={"game": "dice-race"}, headers=h), 400, "invalid_body")
    error_of(client.post("/api/matches", json={"game": "dice-race", "seats": 2, "players": [ann]}, headers=h),
             400, "invalid_body")
    error_of(client.post("/api/matches", json={"game": "dice-race", "seats": "2"}, headers=h), 400)


def test_open_match_join_flow_and_errors(client, make_user):
    """Join fills seats and starts the match; joining twice, a full match, or a missing one fails."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    cid, hc = make_user("cid")
    created = client.post("/api/matches", json={"game": "dice-race", "seats": 2}, headers=ha)
    assert created.status_code == 201 and created.get_json()["status"] == "open"
    mid = created.get_json()["id"]
    error_of(client.post(f"/api/matches/{mid}/join", headers=ha), 422)
    error_of(client.post(f"/api/matches/{mid}/join"), 401)
    joined = client.post(f"/api/matches/{mid}/join", headers=hb)
    assert joined.status_code == 200 and joined.get_json()["status"] == "active"
    error_of(client.post(f"/api/matches/{mid}/join", headers=hc), 409, "match_not_open")
    error_of(client.post("/api/matches/m_missing/join", headers=hc), 404, "not_found")


def test_command_errors_change_nothing(client, race):
    """Each bad command gets its own status and the version does not move."""
    mid, ha, hb, ann, bob = race
    v = version(client, mid)
    url = f"/api/matches/{mid}/commands"
    error_of(client.post(url, json={"type": "roll"}), 401)
    error_of(client.post(url, json={"type": "roll"}, headers={"Authorization": "Bearer bad"}), 401)
    error_of(client.post(url, data="{", content_type="application/json", headers=ha), 400, "malformed_json")
    error_of(client.post(url, json={"payload": {}}, headers=ha), 400, "invalid_body")
    error_of(client.post(url, json={"type": 3}, headers=ha), 400, "invalid_body")
    error_of(client.post(url, json={"type": "fly"}, headers=ha), 400, "unknown_command")
    error_of(client.post(url, json={"type": "note", "payload": {"text": 7}}, headers=ha), 400, "invalid_payload")
    error_of(client.post(url, json={"type": "note", "payload": {}}, headers=ha), 400, "invalid_payload")
    error_of(client.post(url, json={"type": "roll", "expected_version": "x"}, headers=ha), 400, "invalid_body")
    err = error_of(client.post(url, json={"type": "roll"}, headers=hb), 422, "rule_violation")
    assert err["rule"] == "dice-race:race.turn"
    err = error_of(client.post(url, json={"type": "roll", "expected_version": v - 1}, headers=ha), 409,
                   "version_conflict")
    assert err["current_version"] == v
    error_of(client.post("/api/matches/m_nope/commands", json={"type": "roll"}, headers=ha), 404, "not_found")
    assert version(client, mid) == v


def test_not_seated_is_forbidden(client, race, make_user):
    """A user outside the match may not act in it and has no legal commands."""
    mid, *_ = race
    _, hc = make_user("cid")
    v = version(client, mid)
    error_of(client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=hc), 403, "not_seated")
    assert client.get(f"/api/matches/{mid}/legal", headers=hc).get_json()["commands"] == []
    assert version(client, mid) == v


def test_commands_after_finish_are_refused(client, make_user):
    """Once finished, a command is a 409 match_finished."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 1}}, hb)
    done = client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha)
    assert done.status_code == 201
    assert [e["type"] for e in done.get_json()["events"]][-2:] == ["match_finished", "seed_revealed"]
    summary = client.get(f"/api/matches/{mid}").get_json()
    assert summary["status"] == "finished" and summary["result"]["winners"] == [ann]
    error_of(client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=hb), 409, "match_finished")


def test_oversized_body_is_413(client, make_user):
    """Bodies over the cap are refused before parsing."""
    _, h = make_user("ann")
    big = '{"name": "' + "x" * 70000 + '"}'
    error_of(client.post("/api/users", data=big, content_type="application/json", headers=h), 413)


def test_unknown_route_and_method_are_json(client):
    """404 and 405 are JSON too."""
    error_of(client.get("/api/nothing"), 404)
    error_of(client.delete("/api/games"), 405)
    error_of(client.get("/api/matches/m_missing"), 404, "not_found")
    error_of(client.get("/api/matches/m_missing/state"), 404, "not_found")
    error_of(client.get("/api/matches?status=weird"), 400, "invalid_query")
    error_of(client.get("/api/matches/m_x/events?after=-1"), 400, "invalid_query")


def test_redis_down_is_503_json(games):
    """With Redis unreachable, health and API calls answer 503 with a JSON error."""
    w = build(Settings(redis_url="redis://127.0.0.1:1/0"), games=games)
    c = create_app(wiring=w).test_client()
    resp = c.get("/healthz")
    assert resp.status_code == 503 and resp.get_json()["ok"] is False
    error_of(c.post("/api/users", json={"name": "ann"}), 503, "redis_unavailable")
    error_of(c.get("/api/matches/m_x"), 503, "redis_unavailable")


def test_rate_limit_returns_429_with_retry_after(wiring, games):
    """Past the per-user budget, command submission is a 429 with Retry-After (bad commands count too)."""
    import dataclasses
    limited = build(dataclasses.replace(wiring.settings, rate_limit_per_minute=2), redis_client=wiring.redis,
                    games=games)
    c = create_app(wiring=limited).test_client()
    ann = c.post("/api/users", json={"name": "ann"}).get_json()
    h = {"Authorization": f"Bearer {ann['token']}"}
    for _ in range(2):
        error_of(c.post("/api/matches/m_x/commands", json={"type": "roll"}, headers=h), 404)
    resp = c.post("/api/matches/m_x/commands", json={"type": "roll"}, headers=h)
    error_of(resp, 429, "rate_limited")
    assert int(resp.headers["Retry-After"]) >= 1
