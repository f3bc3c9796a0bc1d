"""Hardening: request size limit, per-user rate limit on commands (429 + Retry-After), hashed tokens."""
from __future__ import annotations

import dataclasses

from service import create_app
from service.app.users import token_hash
from service.bootstrap import build
from tests.invites import start_http


def test_a_body_over_the_size_limit_is_refused_with_413_and_changes_nothing(client, make_user, wiring):
    """MAX_CONTENT_LENGTH is set from the settings; a larger body gets a JSON 413 and no event."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    assert client.application.config["MAX_CONTENT_LENGTH"] == wiring.settings.max_body_bytes
    version = wiring.store.version(mid)
    huge = {"type": "note", "payload": {"text": "x" * (wiring.settings.max_body_bytes + 10)}}
    resp = client.post(f"/api/matches/{mid}/commands", json=huge, headers=ha)
    assert resp.status_code == 413
    assert resp.get_json()["error"]["code"] == "request_entity_too_large"
    assert wiring.store.version(mid) == version


def test_command_submission_is_rate_limited_per_user_with_retry_after(wiring, games):
    """With 5 commands per minute, a user's sixth gets 429, code rate_limited and a Retry-After in whole
    seconds, while another user is still served."""
    limited = build(dataclasses.replace(wiring.settings, rate_limit_per_minute=5), redis_client=wiring.redis,
                    games=games)
    client = create_app(wiring=limited).test_client()
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    mid = start_http(client, ann, {"game": "dice-race", "players": [u["id"] for u in users]}, bob)
    note = {"type": "note", "payload": {"text": "hi"}}
    codes = [client.post(f"/api/matches/{mid}/commands", json=note, headers=ann).status_code for _ in range(5)]
    assert codes == [201] * 5
    refused = client.post(f"/api/matches/{mid}/commands", json=note, headers=ann)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    other = client.post(f"/api/matches/{mid}/commands", json={"type": "roll", "payload": {}}, headers=bob)
    assert other.status_code != 429


def test_tokens_are_stored_only_hashed_and_a_wrong_token_is_refused(client, redis_client):
    """The token never appears in Redis (keys or values); its SHA-256 does; a token differing in one
    character is a 401."""
    user = client.post("/api/users", json={"name": "ann"}).get_json()
    token = user["token"]
    dump = []
    for key in redis_client.scan_iter(count=1000):
        kind = redis_client.type(key)
        dump.append(key)
        if kind == "string":
            dump.append(redis_client.get(key))
        elif kind == "hash":
            dump += [f"{k}={v}" for k, v in redis_client.hgetall(key).items()]
    text = "\n".join(dump)
    assert token not in text
    assert token_hash(token) in text
    assert client.get("/api/users/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    resp = client.get("/api/users/me", headers={"Authorization": f"Bearer {forged}"})
    assert resp.status_code == 401 and resp.get_json()["error"]["code"] == "unauthorized"


def test_tokens_are_compared_in_constant_time():
    """Authentication compares the stored hash with hmac.compare_digest (no early-exit string compare)."""
    import inspect

    from service.app import users
    source = inspect.getsource(users.Users.authenticate)
    assert "hmac.compare_digest" in source
