"""Logs, read from the real processes' output: one line per request with an access log (not gunicorn's line
and ours, in two time formats), one time format everywhere (ISO-8601 UTC with milliseconds), JSON throughout
when asked (gunicorn's own lines, RQ's worker and scheduler), and a Redis outage logged in single lines (RQ's
scheduler traceback cut to its exception, never printed raw)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest
import redis
from rq import Queue
from rq.job import JobStatus

from service.server.embedded_redis import EmbeddedRedis, free_port
from tests.e2e.processes import HIGH_LIMITS, ROOT, stop, wait_http
from tests.waiting import wait_for
from workers.queues import DEFAULT

ISO_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
TEXT_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (DEBUG|INFO|WARNING|ERROR|CRITICAL) \S+: ")


def start(args, redis_url: str, out, err, **env_extra) -> subprocess.Popen:
    """`python -m service.cli <args>` with standard output and standard error kept apart."""
    env = dict(os.environ, REDIS_URL=redis_url, PYTHONPATH=str(ROOT), TURNSTREAM_RECONCILE_SECONDS="0.5",
               **HIGH_LIMITS, **env_extra)
    return subprocess.Popen([sys.executable, "-m", "service.cli", *args], cwd=ROOT, env=env,
                            stdout=open(out, "ab"), stderr=open(err, "ab") if err != out else subprocess.STDOUT)


def lines(path) -> list:
    """The non-empty lines of a log file."""
    return [line for line in path.read_text().splitlines() if line.strip()]


def probe(base: str) -> list:
    """A few requests (one with a query string, one refused, one not found), each with its own X-Request-ID;
    the ids."""
    import urllib.error
    import urllib.request
    ids = []
    for n, path in enumerate(("/healthz", "/api/games?x=1", "/api/users/me", "/no/such/page")):
        ids.append(f"probe-{n}")
        req = urllib.request.Request(base + path, headers={"X-Request-ID": ids[-1]})
        try:
            urllib.request.urlopen(req, timeout=10).read()
        except urllib.error.HTTPError:
            pass
    return ids


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_web_logs_one_line_per_request_in_one_time_format(redis_url, tmp_path, fmt):
    out, err = tmp_path / "web.out", tmp_path / "web.err"
    port = free_port()
    proc = start(["web", "--port", str(port), "--workers", "1"], redis_url, out, err,
                 TURNSTREAM_LOG_FORMAT=fmt, TURNSTREAM_ACCESS_LOG="-")
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base + "/healthz")
        ids = probe(base)
        wait_for(lambda: ids[-1] in out.read_text(), 10, "the request lines")
    finally:
        stop(proc)
    console = [line for line in lines(out) + lines(err) if line.startswith("turnstream web: ")]  # text only
    access = [line for line in lines(out) if line not in console]
    errors = [line for line in lines(err) if line not in console]
    for request_id in ids:  # one line per request, in the access log only
        assert sum(request_id in line for line in access) == 1, (request_id, access)
        assert not any(request_id in line for line in errors)
    assert all("turnstream.request" in line for line in access)
    assert not any("gunicorn.access" in line or "Traceback" in line for line in access + errors)
    if fmt == "json":
        assert not console
        records = [json.loads(line) for line in access + errors]  # every line is one JSON object
        assert all(ISO_MS.match(r["time"]) for r in records), [r["time"] for r in records]
        requests = [json.loads(line) for line in access if "probe-" in line]
        assert [r["path"] for r in requests] == ["/healthz", "/api/games", "/api/users/me", "/no/such/page"]
        assert [r["status"] for r in requests] == [200, 200, 401, 404]
        assert all(r["remote"] == "127.0.0.1" and r["ms"] >= 0 for r in requests)
        server = [r["event"] for r in records if r["logger"] == "gunicorn.error"]
        assert any(e.startswith("Listening at") for e in server)
        assert len([e for e in server if e.startswith("Worker exiting")]) == 1, server
    else:
        assert all(TEXT_LINE.match(line) for line in access + errors), access + errors
        assert all("path=/" in line and "status=" in line and "request_id=" in line for line in access)
        assert any("Listening at" in line for line in errors)
        assert len([line for line in errors if "Worker exiting" in line]) == 1, errors


def test_a_redis_outage_is_logged_in_json_lines(tmp_path):
    """A worker under JSON logs whose Redis goes away for seconds: RQ's worker and scheduler, the follower and
    the reconciler each say so in single JSON lines; no raw traceback reaches the output."""
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="everysec").start()
    log = tmp_path / "worker.log"
    proc = start(["worker"], server.url, log, log, TURNSTREAM_LOG_FORMAT="json")
    try:
        conn = redis.Redis.from_url(server.url)
        wait_for(lambda: conn.keys("rq:scheduler:*"), 30, "RQ's scheduler running")
        server.kill()
        wait_for(lambda: "rq.scheduler" in log.read_text() and "rq.worker" in log.read_text(), 30,
                 "RQ's worker and scheduler noticing the outage", interval=0.2)
        server.start()
        job = Queue(DEFAULT, connection=redis.Redis.from_url(server.url)).enqueue("workers.reconciler.reconcile")
        wait_for(lambda: job.get_status(refresh=True) == JobStatus.FINISHED, 60, "a job served after the outage")
        assert proc.poll() is None
    finally:
        stop(proc)
        server.stop()
    records = [json.loads(line) for line in lines(log)]  # every line is one JSON object
    assert all(ISO_MS.match(r["time"]) for r in records)
    loggers = {r["logger"] for r in records}
    assert {"rq.worker", "rq.scheduler", "turnstream.worker"} <= loggers, loggers
    crash = [r for r in records if r["logger"] == "rq.scheduler" and r["level"] == "ERROR"]
    assert crash and all("ConnectionError" in r["event"] and "exc_info" not in r for r in crash), crash
    assert not any("Traceback" in json.dumps(r) for r in records)
