"""Authentication: a cached token costs no Redis call, rotation and sign-out reach every process at once."""
from __future__ import annotations

import pytest

from service import create_app
from service.bootstrap import build


class CountingRedis:
    """The real client, counting every command sent through it (pipelines included)."""

    def __init__(self, real):
        self._real = real
        self.calls = 0

    def execute_command(self, *args, **kwargs):
        """Count, then run the command on the real client."""
        self.calls += 1
        return self._real.execute_command(*args, **kwargs)

    def pipeline(self, *args, **kwargs):
        """A real pipeline; its execution counts as one call."""
        pipe = self._real.pipeline(*args, **kwargs)
        execute = pipe.execute

        def counted(*a, **k):
            self.calls += 1
            return execute(*a, **k)

        pipe.execute = counted
        return pipe

    def __getattr__(self, name):
        attr = getattr(self._real, name)
        if callable(attr) and name not in ("pubsub", "register_script", "publish", "close"):
            def wrapper(*args, **kwargs):
                self.calls += 1
                return attr(*args, **kwargs)
            return wrapper
        return attr


@pytest.fixture
def two_processes(settings, redis_client, games):
    """Two apps on the same Redis, each with its own wiring (its own auth cache), like two web processes."""
    apps = [create_app(wiring=build(settings, games=games)) for _ in range(2)]
    yield [a.test_client() for a in apps]
    for a in apps:
        a.extensions["turnstream"].users.cache.close()


def bearer(token: str) -> dict:
    """The Authorization header of a token."""
    return {"Authorization": f"Bearer {token}"}


def test_a_cached_token_costs_no_redis_call_and_a_fresh_one_at_most_one(settings, redis_client, games):
    """The first authentication reads the user once (one HGETALL); later ones read nothing."""
    import redis as redis_py

    from service.store.auth_cache import AuthCache
    from service.app.users import Users
    real = redis_py.Redis.from_url(settings.redis_url, decode_responses=True)
    counting = CountingRedis(real)
    users = Users(counting, AuthCache(real, ttl_seconds=30))
    made = users.create("ann")
    counting.calls = 0
    assert users.authenticate(made["token"])["id"] == made["id"]
    assert counting.calls == 1
    counting.calls = 0
    for _ in range(20):
        assert users.authenticate(made["token"]) == {"id": made["id"], "name": "ann"}
    assert counting.calls == 0
    users.cache.close()
    real.close()


def test_cache_entries_expire(settings, redis_client):
    """After the TTL the token is read from Redis again (a bounded staleness if notes were lost)."""
    import redis as redis_py

    from service.store.auth_cache import AuthCache
    from service.app.users import Users
    now = [100.0]
    real = redis_py.Redis.from_url(settings.redis_url, decode_responses=True)
    counting = CountingRedis(real)
    users = Users(counting, AuthCache(real, ttl_seconds=5, clock=lambda: now[0]))
    token = users.create("ann")["token"]
    users.authenticate(token)
    counting.calls = 0
    users.authenticate(token)
    assert counting.calls == 0
    now[0] += 6
    users.authenticate(token)
    assert counting.calls == 1
    users.cache.close()
    real.close()


def test_a_rotated_token_is_refused_at_once_by_another_process(two_processes):
    """Process B has the token cached; A rotates it; B's very next request with it is a 401 and the new
    token works in both."""
    a, b = two_processes
    user = a.post("/api/users", json={"name": "ann"}).get_json()
    old = user["token"]
    for client in (a, b):
        assert client.get("/api/users/me", headers=bearer(old)).status_code == 200
    rotated = a.post("/api/users/me/token", headers=bearer(old))
    assert rotated.status_code == 200
    new = rotated.get_json()["token"]
    assert new != old
    refused = b.get("/api/users/me", headers=bearer(old))
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "unauthorized"
    assert a.get("/api/users/me", headers=bearer(old)).status_code == 401
    for client in (a, b):
        assert client.get("/api/users/me", headers=bearer(new)).get_json()["id"] == user["id"]


def test_sign_out_everywhere_refuses_every_token_in_every_process(two_processes):
    """DELETE /api/users/me/token answers 204; the token is then refused by both processes."""
    a, b = two_processes
    token = a.post("/api/users", json={"name": "ann"}).get_json()["token"]
    assert b.get("/api/users/me", headers=bearer(token)).status_code == 200
    resp = a.delete("/api/users/me/token", headers=bearer(token))
    assert resp.status_code == 204 and resp.data == b""
    for client in (b, a):
        assert client.get("/api/users/me", headers=bearer(token)).status_code == 401
    assert a.post("/api/users/me/token", headers=bearer(token)).status_code == 401


def test_a_token_made_before_tokens_carried_the_user_id_still_works_and_rotates(client, redis_client):
    """A legacy token (token key -> user id) authenticates; rotating it removes its key."""
    import secrets

    from service.store.keys import Keys
    from service.app.users import token_hash
    legacy = secrets.token_urlsafe(32)
    digest = token_hash(legacy)
    redis_client.hset(Keys.user("u_legacy"), mapping={"id": "u_legacy", "name": "old", "token_hash": digest})
    redis_client.set(Keys.token(digest), "u_legacy")
    assert client.get("/api/users/me", headers=bearer(legacy)).get_json() == {"id": "u_legacy", "name": "old", "email": None,
                                                                          "email_verified": False}
    new = client.post("/api/users/me/token", headers=bearer(legacy)).get_json()["token"]
    assert not redis_client.exists(Keys.token(digest))
    assert client.get("/api/users/me", headers=bearer(legacy)).status_code == 401
    assert client.get("/api/users/me", headers=bearer(new)).get_json()["id"] == "u_legacy"


def test_without_revocation_notes_nothing_is_trusted_from_the_cache(settings, redis_client):
    """When the subscription is down, every authentication reads Redis (a missed note cannot be trusted)."""
    import redis as redis_py

    from service.store.auth_cache import AuthCache
    from service.app.users import Users
    real = redis_py.Redis.from_url(settings.redis_url, decode_responses=True)
    dead = redis_py.Redis(host="127.0.0.1", port=1, decode_responses=True, socket_connect_timeout=0.2)
    counting = CountingRedis(real)
    users = Users(counting, AuthCache(dead, ttl_seconds=30))
    token = users.create("ann")["token"]
    counting.calls = 0
    for _ in range(3):
        users.authenticate(token)
    assert counting.calls == 3
    real.close()
