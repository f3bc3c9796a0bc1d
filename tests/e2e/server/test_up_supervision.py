"""`turnstream up` survives crashes: a killed worker or web server is restarted, a killed embedded Redis
comes back with every acknowledged event, and the worker rides the Redis restart out instead of dying."""
from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from service.server.embedded_redis import free_port
from tests.e2e.processes import Api, interrupt, start_up
from tests.waiting import wait_for


def pid_of(log: Path, name: str) -> int:
    """The pid of the latest start of child `name`, as `up` printed it."""
    found = re.findall(rf"turnstream up: {re.escape(name)} (?:started|restarted) \(pid (\d+)\)", log.read_text())
    assert found, f"no start of {name} in the log"
    return int(found[-1])


def redis_pid(port: int) -> int:
    """The pid of the redis-server listening on `port` (found through /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()  # redis-server retitles itself "redis-server host:port"
        except OSError:
            continue
        if b"redis-server" in cmdline and f":{port}".encode() in cmdline:
            return int(entry.name)
    raise AssertionError(f"no redis-server on port {port}")


def healthy(base: str) -> bool:
    """True when /healthz answers 200 (False while nothing listens yet)."""
    try:
        return Api(base).get("/healthz")[0] == 200
    except OSError:
        return False


def listed_open(base: str, match_id: str) -> bool:
    """True when the lobby's open matches list `match_id` (False while the service cannot answer)."""
    try:
        status, body = Api(base).get("/api/matches?status=open")
    except OSError:
        return False
    return status == 200 and any(m["id"] == match_id for m in body["matches"])


def eventually_created(base: str, token: str, body: dict, timeout: float = 60.0) -> dict:
    """POST a match until the service answers 201 (it may be reconnecting to Redis)."""
    last = ["no answer yet"]

    def created():
        try:
            status, answer = Api(base, token).post("/api/matches", body)
        except OSError as exc:
            status, answer = 0, str(exc)
        last[0] = f"{status} {answer}"
        return answer if status == 201 else None
    return wait_for(created, timeout, lambda: f"a match created (the last answer: {last[0]})", interval=0.2)


@pytest.mark.slow
def test_up_restarts_crashed_processes_and_redis(tmp_path):
    data, log = tmp_path / "var", tmp_path / "up.log"
    port = free_port()
    proc = start_up(data, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        api = Api(base, ann["token"])

        worker = pid_of(log, "worker")
        os.kill(worker, signal.SIGKILL)
        wait_for(lambda: pid_of(log, "worker") != worker, 60, "the worker restarted")
        assert "worker (pid %d) exited" % worker in log.read_text()
        first = api.post("/api/matches", {"game": "uchronia", "seats": 2})[1]
        wait_for(lambda: listed_open(base, first["id"]), 60, "the restarted worker projects the new match")

        web = pid_of(log, "web")
        os.kill(web, signal.SIGKILL)
        wait_for(lambda: pid_of(log, "web") != web, 60, "the web server restarted")
        wait_for(lambda: healthy(base), 60, "the restarted web server answers")

        redis_port = int(re.search(r"redis: embedded at redis://127.0.0.1:(\d+)/0", log.read_text()).group(1))
        worker = pid_of(log, "worker")
        os.kill(redis_pid(redis_port), signal.SIGKILL)
        wait_for(lambda: "embedded Redis restarted" in log.read_text(), 60, "Redis restarted")
        second = eventually_created(base, ann["token"], {"game": "uchronia", "seats": 2})
        assert api.get(f"/api/matches/{first['id']}")[0] == 200, "the match acknowledged before the crash is there"
        wait_for(lambda: listed_open(base, second["id"]), 60, "projections carry on after the Redis restart")
        assert pid_of(log, "worker") == worker, "the worker rode the Redis restart out without dying"
    finally:
        code = interrupt(proc)
    assert code == 0
    assert "stopped." in log.read_text()


@pytest.mark.slow
def test_a_second_sigterm_while_stopping_still_stops_every_child_and_redis(tmp_path):
    """A process manager (or `timeout`) signalling twice hurries the stop; nothing is left running."""
    data, log = tmp_path / "var", tmp_path / "up.log"
    proc = start_up(data, free_port(), log)
    port = int(re.search(r"redis: embedded at redis://127\.0\.0\.1:(\d+)/", log.read_text()).group(1))
    server = redis_pid(port)
    children = [pid_of(log, name) for name in ("web", "worker")]
    proc.send_signal(signal.SIGTERM)
    wait_for(lambda: "stopping..." in log.read_text(), 10, "up to say it is stopping")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0

    def gone(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"

    assert all(gone(pid) for pid in children + [server]), "a child or the embedded Redis outlived `up`"
