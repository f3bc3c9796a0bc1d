"""Shared fixtures: a real Redis the tests start themselves (or TEST_REDIS_URL, checked), wiring, app and client.

The tests flush the database they use, so they never use one they did not make: REDIS_URL, RQ_REDIS_URL,
REDIS_CLUSTER and the Sentinel settings are dropped from the environment (the processes the tests start get the
tests' own URL), and TEST_REDIS_URL is used only when that database is empty or marked as a test database."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# whatever Redis the shell names is never the tests' (nor the processes' they start): it may hold real data
for _name in ("REDIS_URL", "RQ_REDIS_URL", "REDIS_CLUSTER", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER",
              "TURNSTREAM_MIN_REPLICAS"):
    os.environ.pop(_name, None)

TEST_DATABASE_MARKER = "turnstream-test-database"  # a key saying "the tests may flush this database"

# tests keep the rate limits out of the way, except the rate-limit tests themselves
HIGH_LIMITS = {"account_rate_limit": "100000/minute", "match_rate_limit": "100000/minute",
               "email_rate_limit": "100000/minute", "signin_rate_limit": "100000/minute",
               "chat_rate_limit": "100000/minute"}


def shown(url: str) -> str:
    """A Redis URL without its password."""
    import re
    return re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", url)


def claim_test_database(url: str) -> str | None:
    """None when the database at `url` may be used (and flushed) by the tests, after marking it; else why not:
    it holds keys and no TEST_DATABASE_MARKER, or it does not answer."""
    import redis
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
    try:
        keys = client.dbsize()
        if keys and not client.exists(TEST_DATABASE_MARKER):
            return (f"TEST_REDIS_URL={shown(url)} holds {keys} keys and no {TEST_DATABASE_MARKER!r} key: the tests "
                    f"flush the database they use, so they refuse one that may hold real data. Point TEST_REDIS_URL "
                    f"at an empty database, mark a test database (redis-cli -u URL SET {TEST_DATABASE_MARKER} 1), or "
                    f"unset it: the tests then start their own Redis")
        client.set(TEST_DATABASE_MARKER, "1")
        return None
    except redis.RedisError as exc:
        return f"TEST_REDIS_URL={shown(url)} does not answer ({exc}); unset it and the tests start their own Redis"
    finally:
        client.close()


def mark_test_database(url: str) -> None:
    """Put the marker back (a test's flush removed it) so the next run accepts this database again."""
    import redis
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.set(TEST_DATABASE_MARKER, "1")
    except redis.RedisError:
        pass
    finally:
        client.close()


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the default) runs one test process per core, but one only when TEST_REDIS_URL names a database:
    parallel processes would flush each other's data."""
    return 0 if os.environ.get("TEST_REDIS_URL") else None


def pytest_configure(config):
    """Refuse `-n N` (N > 1) with TEST_REDIS_URL before any test runs."""
    if os.environ.get("TEST_REDIS_URL") and (getattr(config.option, "numprocesses", 0) or 0) > 1:
        raise pytest.UsageError("TEST_REDIS_URL is one database, and parallel test processes would flush each "
                                "other's data: run with -n 0 (or -n auto, which then runs one process)")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The URL of a real Redis: a redis-server started for this session, or TEST_REDIS_URL when that database
    is empty or carries TEST_DATABASE_MARKER (refused otherwise: never flush a database the tests did not make)."""
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        refused = claim_test_database(url)
        if refused:
            pytest.exit(refused, returncode=4)
        yield url
        mark_test_database(url)
        return
    from service.server.embedded_redis import EmbeddedRedis
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendfsync="no").start()
    yield server.url
    server.stop()


@pytest.fixture
def redis_client(redis_url):
    """A client on an emptied database (a TEST_REDIS_URL database keeps its marker)."""
    import redis
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    if os.environ.get("TEST_REDIS_URL"):
        client.set(TEST_DATABASE_MARKER, "1")
    yield client
    client.close()


@pytest.fixture
def games():
    """The real games plus the fake dice race."""
    from domain.games import load_games
    from domain.games.dice_race import GAME as RACE
    found = load_games()
    found[RACE.id] = RACE
    return found


@pytest.fixture
def settings(redis_url):
    """Settings pointing at the test Redis."""
    from service.config import Settings
    return Settings(redis_url=redis_url, rate_limit_per_minute=100000, **HIGH_LIMITS)


@pytest.fixture
def wiring(settings, redis_client, games):
    """The service wiring on the test Redis (tests project explicitly: drain_projections)."""
    from service.bootstrap import build
    from workers import context
    w = build(settings, games=games)
    context.use(w)
    yield w
    context.use(None)
    w.live.stop()
    w.users.cache.close()  # its token-revocation listener


@pytest.fixture
def client(wiring):
    """A Flask test client."""
    from service import create_app
    return create_app(wiring=wiring).test_client()


@pytest.fixture
def make_user(client):
    """Create a user through the API; returns (id, auth headers)."""
    def make(name="alice"):
        resp = client.post("/api/users", json={"name": name})
        assert resp.status_code == 201, resp.get_json()
        data = resp.get_json()
        return data["id"], {"Authorization": f"Bearer {data['token']}"}
    return make


def drain_projections(w):
    """Project every partition to the end of its log in this process, as a worker's follower would (the
    follow-ups it schedules, deadlines, bot turns and notifications, wait in their queues)."""
    from projections.delivery import catch_up
    from workers.followups import after_projection
    for p in range(w.store.keys.partitions):
        catch_up(w.projector, p, followups=after_projection)
