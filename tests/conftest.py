"""Shared fixtures: a real Redis the tests start themselves (or REDIS_URL), wiring, app and client."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# tests keep the rate limits out of the way, except the rate-limit tests themselves
HIGH_LIMITS = {"account_rate_limit": "100000/minute", "match_rate_limit": "100000/minute",
               "chat_rate_limit": "100000/minute"}


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The URL of a real Redis: REDIS_URL when set, else a redis-server started for this session."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    from service.server.embedded_redis import EmbeddedRedis
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendfsync="no").start()
    yield server.url
    server.stop()


@pytest.fixture
def redis_client(redis_url):
    """A client on an emptied database."""
    import redis
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
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
        catch_up(w, p, followups=after_projection)
