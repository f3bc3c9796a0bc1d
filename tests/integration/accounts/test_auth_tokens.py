"""Authentication: a cached token costs no Redis call, rotation and sign-out reach every process at once."""
from __future__ import annotations

import pytest

from service import create_app
from service.bootstrap import build
from tests.waiting import wait_for


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
    from service.store.user_records import RedisUserRecords
    real = redis_py.Redis.from_url(settings.redis_url, decode_responses=True)
    counting = CountingRedis(real)
    users = Users(RedisUserRecords(counting), AuthCache(real, ttl_seconds=30))
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
    from service.store.user_records import RedisUserRecords
    now = [100.0]
    real = redis_py.Redis.from_url(settings.redis_url, decode_responses=True)
    counting = CountingRedis(real)
    users = Users(RedisUserRecords(counting), AuthCache(real, ttl_seconds=5, clock=lambda: now[0]))
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
    from service.store.user_records import RedisUserRecords
    real = redis_py.Redis.from_url(settings.redis_url, decode_responses=True)
    dead = redis_py.Redis(host="127.0.0.1", port=1, decode_responses=True, socket_connect_timeout=0.2)
    counting = CountingRedis(real)
    users = Users(RedisUserRecords(counting), AuthCache(dead, ttl_seconds=30))
    token = users.create("ann")["token"]
    counting.calls = 0
    for _ in range(3):
        users.authenticate(token)
    assert counting.calls == 3
    real.close()


class SlowLink:
    """A TCP proxy to Redis whose replies arrive `delay` seconds late (a process far away, or busy): what it
    forwards keeps its order; requests go through at once."""

    def __init__(self, target_url: str, delay: float):
        import socket
        import threading
        from urllib.parse import urlsplit
        parts = urlsplit(target_url)
        self.target = (parts.hostname, parts.port)
        self.delay = delay
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.server.getsockname()[1]}{parts.path}"
        self.open = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket
        import threading
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.open += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream, 0.0), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, self.delay), daemon=True).start()

    @staticmethod
    def _pipe(src, dst, delay):
        import queue
        import threading
        import time
        due: queue.Queue = queue.Queue()

        def send():
            while True:
                at, chunk = due.get()
                if chunk is None:
                    return
                time.sleep(max(0.0, at - time.monotonic()))  # the link's latency: a chunk leaves `delay` s late
                try:
                    dst.sendall(chunk)
                except OSError:
                    return
        threading.Thread(target=send, daemon=True).start()
        while True:
            try:
                chunk = src.recv(65536)
            except OSError:
                chunk = b""
            due.put((time.monotonic() + delay, chunk or None))
            if not chunk:
                return

    def close(self):
        self.server.close()
        for sock in self.open:
            try:
                sock.close()
            except OSError:
                pass


@pytest.fixture
def near_and_far(settings, redis_client, games):
    """Two apps on one Redis: A, and B whose auth cache hears Redis 0.3 s late (its revocation notes arrive late)."""
    import redis as redis_py

    from service.store.auth_cache import AuthCache
    link = SlowLink(settings.redis_url, 0.3)
    far_redis = redis_py.Redis.from_url(link.url, decode_responses=True, socket_timeout=10)
    near = create_app(wiring=build(settings, games=games))
    far_wiring = build(settings, games=games)
    far_wiring.users.cache = AuthCache(far_redis, settings.auth_cache_seconds)
    far = create_app(wiring=far_wiring)
    yield near.test_client(), far.test_client(), far_wiring
    for app in (near, far):
        app.extensions["turnstream"].users.cache.close()
        app.extensions["turnstream"].live.stop()
    link.close()


def test_once_a_rotation_has_answered_no_process_accepts_the_old_token(near_and_far):
    """B trusts its cache; A rotates (and later revokes) the token; B's very next request with the old one is
    a 401 although B hears of it late: the rotation answers only once every process has dropped the token."""
    import time
    a, b, _ = near_and_far
    token = a.post("/api/users", json={"name": "ann"}).get_json()["token"]
    for _ in range(3):
        assert b.get("/api/users/me", headers=bearer(token)).status_code == 200  # cached in B
        started = time.monotonic()
        rotated = a.post("/api/users/me/token", headers=bearer(token))
        took = time.monotonic() - started
        assert rotated.status_code == 200
        assert b.get("/api/users/me", headers=bearer(token)).status_code == 401, "B accepted a rotated token"
        assert took < 2.5, f"a rotation took {took:.2f} s"
        token = rotated.get_json()["token"]
    assert b.get("/api/users/me", headers=bearer(token)).status_code == 200
    assert a.delete("/api/users/me/token", headers=bearer(token)).status_code == 204
    assert b.get("/api/users/me", headers=bearer(token)).status_code == 401


def test_an_open_stream_in_another_process_ends_within_two_seconds_of_the_rotation(near_and_far):
    """An idle stream opened in B with a token ends within 2 s of A's rotation answering (no 5 s idle wait)."""
    import threading
    import time
    a, b, far_wiring = near_and_far
    token = a.post("/api/users", json={"name": "ann"}).get_json()["token"]
    stream = b.get("/api/users/me/stream", headers=bearer(token), buffered=False)
    assert stream.status_code == 200
    ended, read_chunks = [], []

    def read():
        for chunk in stream.response:
            read_chunks.append(chunk)
        ended.append(time.monotonic())
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    wait_for(lambda: read_chunks, 5, "the stream's opening read: it is open and idle")
    assert a.post("/api/users/me/token", headers=bearer(token)).status_code == 200
    answered = time.monotonic()
    reader.join(5)
    stream.close()
    assert ended, "the stream was still open 5 s after the rotation"
    assert ended[0] - answered < 2.0, f"the stream ended {ended[0] - answered:.2f} s after the rotation answered"


def test_a_stream_in_a_process_that_hears_no_notes_still_ends_within_two_seconds(settings, redis_client, games):
    """B's cache cannot follow the revocation notes (so it trusts nothing and no note wakes its streams): its
    idle stream looks at its token every second and ends within 2 s of A's rotation answering."""
    import threading
    import time

    import redis as redis_py

    from service.store.auth_cache import AuthCache
    near = create_app(wiring=build(settings, games=games))
    far_wiring = build(settings, games=games)
    from redis.backoff import NoBackoff
    from redis.retry import Retry
    deaf = redis_py.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0),
                          decode_responses=True)
    far_wiring.users.cache = AuthCache(deaf, settings.auth_cache_seconds)
    far = create_app(wiring=far_wiring)
    a, b = near.test_client(), far.test_client()
    try:
        token = a.post("/api/users", json={"name": "ann"}).get_json()["token"]
        stream = b.get("/api/users/me/stream", headers=bearer(token), buffered=False)
        assert stream.status_code == 200
        ended, read_chunks = [], []

        def read():
            for chunk in stream.response:
                read_chunks.append(chunk)
            ended.append(time.monotonic())
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        wait_for(lambda: read_chunks, 5, "the stream's opening read: it is open and idle")
        assert a.post("/api/users/me/token", headers=bearer(token)).status_code == 200
        answered = time.monotonic()
        reader.join(5)
        stream.close()
        assert ended and ended[0] - answered < 2.0, ended and ended[0] - answered
    finally:
        for app in (near, far):
            app.extensions["turnstream"].users.cache.close()
            app.extensions["turnstream"].live.stop()
