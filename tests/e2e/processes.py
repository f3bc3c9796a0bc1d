"""Starts the real service processes (web server, RQ worker) for end-to-end tests."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from service.server.embedded_redis import free_port
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
# every test client comes from 127.0.0.1: the rate limits stay out of the way unless a test sets them
HIGH_LIMITS = {"TURNSTREAM_ACCOUNT_RATE_LIMIT": "100000/minute", "TURNSTREAM_MATCH_RATE_LIMIT": "100000/minute",
               "TURNSTREAM_CHAT_RATE_LIMIT": "100000/minute", "TURNSTREAM_RATE_LIMIT_PER_MINUTE": "100000"}


def spawn(args, redis_url: str, log_path: Path, extra_env=None) -> subprocess.Popen:
    """Start `python -m service.cli <args>` with REDIS_URL set, output to a log file."""
    env = dict(os.environ, REDIS_URL=redis_url, PYTHONPATH=str(ROOT), TURNSTREAM_RECONCILE_SECONDS="0.5",
               **HIGH_LIMITS)
    env.update(extra_env or {})
    log = open(log_path, "ab")
    return subprocess.Popen([sys.executable, "-m", "service.cli"] + list(args), cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)


def answers(url: str) -> bool:
    """True when `url` answers 200 now."""
    try:
        with urllib.request.urlopen(url, timeout=1) as resp:
            return resp.status == 200
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


def wait_http(url: str, timeout: float = 120.0) -> None:
    """Wait until `url` answers 200 (AssertionError after `timeout` seconds: a machine busy with other test processes
    can take a minute to start gunicorn's workers)."""
    wait_for(lambda: answers(url), timeout, f"{url} to come up", interval=0.1)


def stop(proc: subprocess.Popen) -> None:
    """Terminate a process, killing it if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def service(redis_url: str, tmp_path: Path, worker: bool = True, extra_env=None):
    """A running web server (and worker) on the given Redis; yields the base URL."""
    port = free_port()
    hooks = {"TURNSTREAM_WEBHOOK_ALLOW": "127.0.0.1", **(extra_env or {})}  # the tests' receivers are local
    procs = [spawn(["web", "--port", str(port)], redis_url, tmp_path / "web.log", hooks)]
    if worker:
        procs.append(spawn(["worker"], redis_url, tmp_path / "worker.log", extra_env))
        procs.append(spawn(["worker", "--queues", "notifications"], redis_url, tmp_path / "deliveries.log", hooks))
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        yield f"http://127.0.0.1:{port}"
    finally:
        for p in procs:
            stop(p)


class Api:
    """A tiny JSON client for the HTTP API."""

    def __init__(self, base: str, token: str | None = None):
        self.base = base
        self.token = token

    def call(self, method: str, path: str, body=None):
        """(status, JSON body) of one request."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def get(self, path):
        """GET."""
        return self.call("GET", path)

    def post(self, path, body=None):
        """POST."""
        return self.call("POST", path, body if body is not None else {})


def start_invited(creator: Api, body: dict, tokens: dict) -> tuple[int, dict]:
    """POST /api/matches as `creator`, then every invited player (`tokens`: user id -> token) accepts it;
    (status of the creation, the match as the last answer shows it)."""
    status, match = creator.post("/api/matches", body)
    if status != 201:
        return status, match
    for player in match["invited"]:
        answer_status, match = Api(creator.base, tokens[player]).post(f"/api/matches/{match['id']}/accept")
        assert answer_status == 200, match
    return status, match


def start_up(data_dir, port, log_path):
    """Start `turnstream up` as a user would, without REDIS_URL."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["PYTHONPATH"] = str(ROOT)
    log = open(log_path, "ab")
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "up", "--port", str(port), "--data", str(data_dir)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
    except AssertionError:
        interrupt(proc)  # never leave a half-started `up` (and its children) behind
        raise
    return proc


def interrupt(proc):
    """Ctrl-C and wait for a clean exit."""
    proc.send_signal(signal.SIGINT)
    return proc.wait(30)
