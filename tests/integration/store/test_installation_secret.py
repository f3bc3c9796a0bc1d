"""No built-in webhook key: without TURNSTREAM_WEBHOOK_SECRET each installation generates its own on first start,
keeps it in its Redis and every process (and every restart) signs with it; a configured one is used as given."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import redis

from service.app.installation import webhook_secret
from service.config import Settings, from_env
from service.server.embedded_redis import EmbeddedRedis
from service.store.keys import Keys
from tests.e2e.processes import ROOT, stop
from tests.waiting import wait_for

WEBHOOK_SECRET_KEY = Keys.WEBHOOK_SECRET


def test_there_is_no_built_in_webhook_secret():
    assert from_env({}).webhook_secret == "" and Settings().webhook_secret == ""
    assert "turnstream-dev-webhook-secret" not in (Path(ROOT) / "service" / "config.py").read_text()


def test_each_installation_generates_its_own_once(redis_client, redis_url, tmp_path):
    settings = Settings(redis_url=redis_url)
    first = webhook_secret(settings, redis_client)
    assert len(first) >= 32 and redis_client.get(WEBHOOK_SECRET_KEY) == first
    assert webhook_secret(settings, redis.Redis.from_url(redis_url)) == first  # bytes or text: the same key
    other = EmbeddedRedis(tmp_path / "other", appendfsync="no").start()
    try:
        assert webhook_secret(Settings(redis_url=other.url), redis.Redis.from_url(other.url)) != first
    finally:
        other.stop()


def test_a_configured_secret_is_used_and_nothing_is_generated(redis_client, redis_url):
    assert webhook_secret(Settings(redis_url=redis_url, webhook_secret="x" * 40), redis_client) == "x" * 40
    assert not redis_client.exists(WEBHOOK_SECRET_KEY)


def test_the_first_worker_start_creates_it_and_every_later_process_keeps_it(redis_client, redis_url, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TURNSTREAM_WEBHOOK_SECRET"}
    env.update(REDIS_URL=redis_url, PYTHONPATH=str(ROOT))

    def worker(log):
        return subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", "notifications"],
                                cwd=ROOT, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT)

    first = worker(tmp_path / "first.log")
    try:
        secret = wait_for(lambda: redis_client.get(WEBHOOK_SECRET_KEY), 30, "the installation's webhook secret")
    finally:
        stop(first)
    second = worker(tmp_path / "second.log")
    try:
        wait_for(lambda: redis_client.keys("ts:worker-alive:*"), 30, "the second worker running")
        assert redis_client.get(WEBHOOK_SECRET_KEY) == secret
    finally:
        stop(second)
    for log in ("first.log", "second.log"):
        assert secret not in (tmp_path / log).read_text()
