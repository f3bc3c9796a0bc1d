"""The tests never touch a database they did not make: REDIS_URL (an operator's real data) is ignored and left
as it was, and TEST_REDIS_URL is used only when it is empty or marked as a test database (refused otherwise)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import redis

from service.server.embedded_redis import EmbeddedRedis
from tests.conftest import TEST_DATABASE_MARKER
from tests.e2e.processes import ROOT

FLUSHING_TEST = "tests/integration/store/test_atomic_writes.py"  # its fixture flushes the tests' database

PROBE = '''
import os

def test_the_environment_names_no_operator_redis(redis_url):
    assert "REDIS_URL" not in os.environ and "RQ_REDIS_URL" not in os.environ and "REDIS_CLUSTER" not in os.environ
    assert redis_url != {real!r}
'''


def run_pytest(args, env_extra: dict, drop=("TEST_REDIS_URL",)) -> subprocess.CompletedProcess:
    """A separate pytest run in the checkout, with these environment variables."""
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def real_database(tmp_path):
    """A Redis standing for an operator's: it holds data the tests must leave alone."""
    server = EmbeddedRedis(tmp_path / "real", appendfsync="no").start()
    client = redis.Redis.from_url(server.url, decode_responses=True)
    client.set("precious", "an operator's data")
    client.xadd("ts:events:{p1}:m_real", {"e": "1"})
    yield server, client
    client.close()
    server.stop()


def test_redis_url_in_the_shell_is_ignored_and_its_data_kept(real_database, tmp_path):
    server, client = real_database
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE.format(real=server.url))
    env = {"REDIS_URL": server.url, "RQ_REDIS_URL": server.url}
    for args in ([FLUSHING_TEST], ["-p", "tests.conftest", str(probe)]):
        done = run_pytest(args, env)
        assert done.returncode == 0, done.stdout + done.stderr
    assert client.get("precious") == "an operator's data" and client.dbsize() == 2


def test_a_test_redis_url_holding_data_is_refused_untouched(real_database):
    server, client = real_database
    done = run_pytest([FLUSHING_TEST], {"TEST_REDIS_URL": server.url})
    assert done.returncode == 4, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert "holds 2 keys" in out and TEST_DATABASE_MARKER in out and "Traceback" not in out
    assert client.get("precious") == "an operator's data" and client.dbsize() == 2


def test_an_empty_test_redis_url_is_used_marked_and_accepted_again(tmp_path):
    server = EmbeddedRedis(tmp_path / "test-db", appendfsync="no").start()
    try:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        done = run_pytest([FLUSHING_TEST], {"TEST_REDIS_URL": server.url})
        assert done.returncode == 0, done.stdout + done.stderr
        assert client.exists(TEST_DATABASE_MARKER)  # marked: the next run may flush it again
        client.set("left-by-a-test", "1")
        again = run_pytest([FLUSHING_TEST], {"TEST_REDIS_URL": server.url})
        assert again.returncode == 0, again.stdout + again.stderr
        client.close()
    finally:
        server.stop()
