"""`turnstream up --replicas 1`: the embedded primary, a replica and three sentinels on this machine, the service
finding the primary through the sentinels and answering a command only once the replica holds it; SIGTERM stops
every process `up` started, a killed replica restarted first."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from service.cli import main
from service.config import from_env
from service.server.embedded_redis import free_port
from service.store.keys import Keys
from tests.e2e.processes import HIGH_LIMITS, ROOT, Api, interrupt, start_invited, wait_http
from tests.waiting import wait_for

OPERATORS_REDIS = ("REDIS_URL", "REDIS_SENTINELS", "REDIS_CLUSTER", "TURNSTREAM_MIN_REPLICAS")


def start_up_replicated(data: Path, port: int, log: Path) -> subprocess.Popen:
    """`turnstream up --replicas 1` as an operator trying it would start it, once its web server answers."""
    env = {k: v for k, v in os.environ.items() if k not in OPERATORS_REDIS}
    env.update(PYTHONPATH=str(ROOT), **HIGH_LIMITS)
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "up", "--replicas", "1", "--port", str(port),
                             "--data", str(data), "--workers", "1"],
                            cwd=ROOT, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", 60)
    except AssertionError:
        interrupt(proc)  # never leave a half-started `up` (and its Redis servers) behind
        raise
    return proc


def parents() -> dict:
    """{pid: parent pid} of every process on the machine (from /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:  # the command name in parentheses may hold spaces: the fields after its ")" are split
                found[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue  # exited meanwhile
    return found


def descendants(root: int) -> set:
    """Every process below `root`, at any depth."""
    tree, found, frontier = parents(), set(), {root}
    while frontier:
        frontier = {pid for pid, parent in tree.items() if parent in frontier} - found
        found |= frontier
    return found


def running(pids) -> list:
    """The processes of `pids` that still run (a zombie awaiting its reaper has ended)."""
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.append(pid)
    return alive


def command_line(pid: int) -> str:
    """A process's command line (redis-server retitles itself "redis-server host:port [sentinel]")."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.slow
def test_up_with_a_replica_answers_a_command_once_the_replica_holds_it_and_stops_everything(tmp_path):
    data, log = tmp_path / "var", tmp_path / "up.log"
    port = free_port()
    proc = start_up_replicated(data, port, log)
    started: set = set()
    try:
        base = f"http://127.0.0.1:{port}"
        ready = Api(base).get("/readyz")[1]
        assert ready["min_replicas"] == 1 and ready["replicas"] == 1 and ready["writes_acknowledged"], ready
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        _, bob = Api(base).post("/api/users", {"name": "bob"})
        api = Api(base, ann["token"])
        status, match = start_invited(api, {"game": "uchronia", "players": [ann["id"], bob["id"]]},
                                      {bob["id"]: bob["token"]})
        assert status == 201, match
        active = api.get(f"/api/matches/{match['id']}/state")[1]["active_players"][0]
        mover = Api(base, next(u["token"] for u in (ann, bob) if u["id"] == active))
        legal = mover.get(f"/api/matches/{match['id']}/legal")[1]
        status, answer = mover.post(f"/api/matches/{match['id']}/commands", legal["commands"][0])
        assert status == 201, answer

        replica_port = int(re.search(r"redis: replica 1 at redis://127\.0\.0\.1:(\d+)/0", log.read_text()).group(1))
        replica = redis.Redis(port=replica_port, decode_responses=True)
        replication = replica.info("replication")
        assert replication["role"] == "slave" and replication["master_link_status"] == "up", replication
        # the 201 came after WAIT: the replica holds the command's event already, no waiting here
        entries = replica.xrange(Keys(from_env().partitions).stream(match["id"]))
        assert int(entries[-1][0].split("-")[1]) == answer["version"], entries[-1]
        replica.close()

        started = descendants(proc.pid)
        servers = [pid for pid in started if "redis-server" in command_line(pid)]
        assert len(servers) == 5, "the primary, the replica and three sentinels"

        os.kill(next(pid for pid in servers if f":{replica_port}" in command_line(pid)), signal.SIGKILL)
        wait_for(lambda: re.search(rf"redis-server on port {replica_port} restarted as a replica of port \d+",
                                   log.read_text()), 30, "the replica restarted")
        replica = redis.Redis(port=replica_port, decode_responses=True)
        wait_for(lambda: replica.info("replication")["master_link_status"] == "up", 30, "the replica to follow again")
        replica.close()
        started |= descendants(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(30)
    assert code == 0
    assert "stopped." in log.read_text()
    assert running(started) == [], "a process `up` started outlived it"


def test_up_with_replicas_refuses_a_redis_of_the_operators(monkeypatch, capsys):
    """--replicas runs its own Redis: with REDIS_URL set it says so in one line and starts nothing (EX_CONFIG)."""
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    for name in ("REDIS_SENTINELS", "REDIS_CLUSTER"):
        monkeypatch.delenv(name, raising=False)
    assert main(["up", "--replicas", "1", "--port", str(free_port())]) == 78
    said = capsys.readouterr().err.strip()
    assert said == "turnstream up: --replicas runs its own Redis primary, replicas and sentinels: unset REDIS_URL"
