"""TURNSTREAM_MIN_REPLICAS on a real primary and replica: a change is answered as done only once Redis WAIT confirms
the replica holds it, else 503 not_replicated with Retry-After; a retried command id returns its stored answer."""
from __future__ import annotations

import os
import signal
from contextlib import contextmanager

import pytest
import redis

from domain.games.dice_race import GAME as RACE
from service import create_app
from service.bootstrap import build
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis
from service.store.replication import BARRIER_KEY, Replication
from tests.conftest import HIGH_LIMITS
from tests.invites import create_started
from tests.waiting import wait_for

NOTE = {"type": "note", "payload": {"text": "kept"}}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(primary, replica): two redis-servers of this module, the second replicating the first."""
    primary = EmbeddedRedis(tmp_path_factory.mktemp("primary"), appendfsync="no").start()
    replica = EmbeddedRedis(tmp_path_factory.mktemp("replica"), appendfsync="no",
                            extra_args=["--replicaof", "127.0.0.1", str(primary.port)]).start()
    link = redis.Redis.from_url(replica.url, decode_responses=True)
    wait_for(lambda: link.info("replication").get("master_link_status") == "up", 20, "the replica's link")
    yield primary, replica
    replica.stop()
    primary.stop()


@pytest.fixture
def service(pair):
    """(wiring, test client) on the primary with TURNSTREAM_MIN_REPLICAS=1, 300 ms to wait."""
    primary, _replica = pair
    redis.Redis.from_url(primary.url).flushall()
    settings = Settings(redis_url=primary.url, rate_limit_per_minute=100000, min_replicas=1, replica_wait_ms=300,
                        **HIGH_LIMITS)
    w = build(settings, games={RACE.id: RACE})
    yield w, create_app(wiring=w).test_client()
    w.live.stop()
    w.users.cache.close()


@contextmanager
def paused(server: EmbeddedRedis):
    """The server stopped (SIGSTOP) for the block: it takes nothing from its primary and confirms nothing."""
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)


def started(w) -> tuple[str, dict]:
    """A started dice-race match of two new users; (its id, the headers of the player to move)."""
    users = [w.users.create(name) for name in ("ann", "bob")]
    mid = create_started(w, users[0]["id"], RACE, [u["id"] for u in users])
    return mid, {"Authorization": f"Bearer {users[0]['token']}"}


def test_a_command_is_acknowledged_once_the_replica_holds_it(service, pair):
    """201, and the replica already has the new event when the answer arrives."""
    w, client = service
    mid, headers = started(w)
    resp = client.post(f"/api/matches/{mid}/commands", json=dict(NOTE, command_id="c1"), headers=headers)
    assert resp.status_code == 201, resp.get_json()
    replica = redis.Redis.from_url(pair[1].url, decode_responses=True)
    assert replica.xlen(w.store.keys.stream(mid)) == resp.get_json()["version"]


def test_unreplicated_command_is_refused_and_its_retry_returns_the_stored_answer(service, pair):
    """The replica paused: 503 not_replicated with Retry-After; once it is back, the same command id answers 201 with
    the answer stored by the first attempt, and the match holds the command once."""
    w, client = service
    mid, headers = started(w)
    before = w.store.version(mid)
    with paused(pair[1]):
        refused = client.post(f"/api/matches/{mid}/commands", json=dict(NOTE, command_id="c7"), headers=headers)
    assert refused.status_code == 503, refused.get_json()
    assert refused.get_json()["error"]["code"] == "not_replicated"
    assert refused.headers["Retry-After"] == "1"
    assert w.store.version(mid) == before + 1  # the primary took it; nobody was told so
    retried = client.post(f"/api/matches/{mid}/commands", json=dict(NOTE, command_id="c7"), headers=headers)
    assert retried.status_code == 201, retried.get_json()
    assert retried.get_json()["version"] == before + 1
    assert w.store.version(mid) == before + 1


def test_match_creation_and_a_new_account_wait_for_the_replica_too(service, pair):
    """Anything a player is told succeeded: a new account and a new match are refused while the replica is paused."""
    w, client = service
    user, other = w.users.create("carol"), w.users.create("frank")
    with paused(pair[1]):
        account = client.post("/api/users", json={"name": "dave"})
        match = client.post("/api/matches", json={"game": RACE.id, "players": [user["id"], other["id"]]},
                            headers={"Authorization": f"Bearer {user['token']}"})
    assert (account.status_code, account.get_json()["error"]["code"]) == (503, "not_replicated")
    assert (match.status_code, match.get_json()["error"]["code"]) == (503, "not_replicated")
    again = client.post("/api/users", json={"name": "erin"})
    assert again.status_code == 201, again.get_json()


def test_reads_and_refusals_do_not_wait(service, pair):
    """A GET and a refused command answer at once while the replica is paused (no WAIT for them)."""
    w, client = service
    mid, headers = started(w)
    with paused(pair[1]):
        assert client.get(f"/api/matches/{mid}/state", headers=headers).status_code == 200
        wrong = client.post(f"/api/matches/{mid}/commands", json={"type": "fly", "payload": {}}, headers=headers)
    assert wrong.status_code == 400, wrong.get_json()


def test_a_primary_below_min_replicas_to_write_refuses_as_not_replicated(service, pair):
    """min-replicas-to-write above the replicas connected: the append itself is refused (NOREPLICAS), nothing is
    written, and the answer is 503 not_replicated."""
    w, client = service
    mid, headers = started(w)
    version = len(w.redis.xrange(w.store.keys.stream(mid)))
    w.redis.config_set("min-replicas-to-write", 2)
    try:
        resp = client.post(f"/api/matches/{mid}/commands", json=dict(NOTE, command_id="c9"), headers=headers)
    finally:
        w.redis.config_set("min-replicas-to-write", 0)
    assert (resp.status_code, resp.get_json()["error"]["code"]) == (503, "not_replicated")
    assert len(w.redis.xrange(w.store.keys.stream(mid))) == version


def test_a_change_of_primary_voids_the_confirmation(pair):
    """A WAIT answered after the pool followed a failover confirms nothing: the writes may have gone to the old one."""
    client = redis.Redis.from_url(pair[0].url)
    replication = Replication(client, 1, 300)
    assert replication.replicated(replication.epoch()) == (True, 1)
    client.connection_pool.failovers = 1  # what a FollowingPool counts when it follows a new primary
    assert replication.replicated(0) == (False, 0)
    assert client.exists(BARRIER_KEY)


def test_without_min_replicas_no_request_waits(redis_url, redis_client):
    """TURNSTREAM_MIN_REPLICAS=0 (the default) installs nothing: no hook runs on any request."""
    w = build(Settings(redis_url=redis_url, **HIGH_LIMITS), games={RACE.id: RACE})
    try:
        app = create_app(wiring=w)
        hooks = [f.__name__ for f in app.after_request_funcs[None] + app.before_request_funcs[None]]
        assert "confirm_replicated" not in hooks and "note_primary" not in hooks
    finally:
        w.live.stop()
        w.users.cache.close()


def test_readiness_shows_the_replicas_and_whether_writes_are_acknowledged(service):
    """/readyz with TURNSTREAM_MIN_REPLICAS: the role, the replicas in step and whether writes are acknowledged now."""
    _w, client = service
    body = client.get("/readyz").get_json()
    assert body == {"ok": True, "redis": "ok", "role": "master", "replicas": 1, "min_replicas": 1,
                    "writes_acknowledged": True}
