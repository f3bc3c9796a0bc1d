"""`turnstream bench` never writes into REDIS_URL's database: it starts its own embedded Redis, or measures on the
one named with --redis, which it refuses when that database holds keys (unless --redis-allow-nonempty)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import redis

from service.server.embedded_redis import EmbeddedRedis
from tests.e2e.processes import ROOT

SMALL = ["--quick", "--commands", "200", "--processes", "1", "--matches", "4"]


def bench(args, env_extra: dict) -> subprocess.CompletedProcess:
    """`turnstream bench <args>` as a separate process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_extra)
    return subprocess.run([sys.executable, "-m", "service.cli", "bench", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def real_database(tmp_path):
    """A Redis standing for an operator's, holding one key."""
    server = EmbeddedRedis(tmp_path / "real", appendfsync="no").start()
    client = redis.Redis.from_url(server.url, decode_responses=True)
    client.set("precious", "1")
    yield server.url, client
    client.close()
    server.stop()


@pytest.mark.slow
def test_bench_with_redis_url_in_the_environment_runs_on_its_own_redis(real_database):
    url, client = real_database
    done = bench(SMALL, {"REDIS_URL": url, "RQ_REDIS_URL": url})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "redis:                 embedded redis-server" in done.stdout
    assert client.keys("*") == ["precious"]


def test_bench_refuses_a_nonempty_redis_given_on_purpose(real_database):
    url, client = real_database
    done = bench(["--redis", url, *SMALL], {})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"turnstream bench: --redis {url} holds 1 keys; the bench writes matches and users into the database it "
        f"measures and leaves them there: give an empty database, or add --redis-allow-nonempty to write into this "
        f"one on purpose"]
    assert client.keys("*") == ["precious"]


@pytest.mark.slow
def test_bench_writes_into_a_nonempty_redis_only_when_allowed(real_database, tmp_path):
    url, client = real_database
    other = EmbeddedRedis(tmp_path / "other", appendfsync="no").start()
    try:
        done = bench(["--redis", url, "--redis-allow-nonempty", *SMALL], {"REDIS_URL": other.url})
        assert done.returncode == 0, done.stderr[-2000:]
        assert f"redis:                 {url} (--redis" in done.stdout
        assert client.get("precious") == "1" and client.dbsize() > 1
        assert redis.Redis.from_url(other.url).dbsize() == 0  # REDIS_URL: untouched
    finally:
        other.stop()
