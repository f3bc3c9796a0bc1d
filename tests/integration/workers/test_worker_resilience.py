"""A `turnstream worker` process outlives a Redis that is down for seconds (RQ's dequeue loop and our
run_worker loop both wait with backoff) and serves jobs again once Redis is back (no supervisor needed)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
import redis
from rq import Queue
from rq.job import JobStatus

from service.server.embedded_redis import EmbeddedRedis
from tests.e2e.processes import ROOT, stop
from tests.waiting import wait_for
from workers.queues import DEFAULT

# the worker noticed the outage: RQ's dequeue loop or run_worker's own wait (which RQ's retries may delay a minute)
NOTICED = re.compile(r"could not connect to Redis instance|worker: Redis unreachable|lost Redis")
OUTAGE_SECONDS = 5  # how long Redis stays down once the worker noticed: the outage under test


@pytest.mark.slow
def test_a_worker_waits_out_a_redis_outage_and_serves_again(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="everysec").start()
    log = tmp_path / "worker.log"
    env = dict(os.environ, REDIS_URL=server.url, PYTHONPATH=str(ROOT), TURNSTREAM_RECONCILE_SECONDS="0.5")
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], cwd=ROOT, env=env,
                              stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        conn = redis.Redis.from_url(server.url)
        wait_for(lambda: conn.smembers("rq:workers"), 20, "the worker registered")
        server.kill()
        wait_for(lambda: NOTICED.search(log.read_text()), 30, "the worker to notice Redis is gone")
        time.sleep(OUTAGE_SECONDS)  # Redis down for seconds, with the worker retrying: the behaviour under test
        assert worker.poll() is None, "the worker is still running while Redis is down"
        server.start()
        job = Queue(DEFAULT, connection=redis.Redis.from_url(server.url)).enqueue("workers.reconciler.reconcile")
        wait_for(lambda: job.get_status(refresh=True) == JobStatus.FINISHED, 60, "a job served after the outage")
        assert worker.poll() is None
    finally:
        stop(worker)
        server.stop()

