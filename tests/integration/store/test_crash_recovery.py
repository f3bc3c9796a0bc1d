"""Crashes with real processes and kill -9: a worker mid-job, Redis itself, a reply lost on the wire."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from domain.engine.hashing import verify_chain
from service import create_app
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis, free_port
from service.bootstrap import build
from domain.games.dice_race import GAME as RACE
from tests.invites import create_started, start_http
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[3]

# A real `turnstream worker` process (workers.runner.run_worker) on the dice-race game, whose follower's
# batches are small and (with SLOW) slow, recording every (match, version) row it writes.
WORKER = """
import sys, time
sys.path.insert(0, {root!r})
from projections.writer import ProjectionWriter
from service.config import from_env
from service.bootstrap import build
from domain.games.dice_race import GAME
from projections import delivery, follower
from workers import context
from workers.runner import run_worker

delivery.BATCH = follower.BATCH = 4
apply = ProjectionWriter.apply

def recorded_apply(self, p, matches, checkpoint, *rest):
    rows = apply(self, p, matches, checkpoint, *rest)
    if rows:
        self.r.rpush("crashtest:applied", *[f"{{row['id']}}:{{row['version']}}" for _prev, row in rows])
    time.sleep({slow})  # the slowness under test: a kill lands mid-projection, with partitions still behind
    return rows

ProjectionWriter.apply = recorded_apply
settings = from_env()
context.use(build(settings, games={{GAME.id: GAME}}))
run_worker(settings)
"""


def start_worker(redis_url: str, slow: float, log: Path) -> subprocess.Popen:
    """Start a worker process on `redis_url` with 4 partitions and a fast reconciler."""
    env = dict(os.environ, REDIS_URL=redis_url, TURNSTREAM_PARTITIONS="4", TURNSTREAM_RECONCILE_SECONDS="0.3",
               PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", WORKER.format(root=str(ROOT), slow=slow)], cwd=ROOT, env=env,
                            stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)


def race_wiring(redis_url: str, **settings):
    """Wiring with the dice-race game only (4 partitions unless told otherwise)."""
    settings.setdefault("partitions", 4)
    return build(Settings(redis_url=redis_url, rate_limit_per_minute=10 ** 6, **settings),
                 games={RACE.id: RACE})


def play_notes(w, matches: int, notes: int) -> list:
    """Create dice-race matches and append `notes` notes to each; return their ids."""
    ids = []
    for i in range(matches):
        mid = create_started(w, f"a{i}", RACE, [f"a{i}", f"b{i}"])
        for k in range(notes):
            w.matches.submit(f"a{i}", mid, "note", {"text": f"n{k}"})
        ids.append(mid)
    return ids


def test_a_worker_killed_mid_batch_is_caught_up_by_a_new_one_and_nothing_applies_twice(redis_url, redis_client,
                                                                                   tmp_path):
    """kill -9 a worker while its follower projects; once the dead one's leases lapse a new worker takes its
    partitions from their checkpoints, brings every read model to its match's version, and writes no
    (match, version) row twice."""
    from projections.delivery import lagging_partitions

    w = race_wiring(redis_url)
    ids = play_notes(w, matches=24, notes=6)
    first = start_worker(redis_url, slow=0.15, log=tmp_path / "worker1.log")
    try:
        wait_for(lambda: redis_client.llen("crashtest:applied") >= 3, 20, "the first worker to start projecting")
        # the whole process group, as a crashed host or container loses it: RQ's forked scheduler would
        # otherwise keep the dead worker's blocked BLPOP socket open and swallow a later test's jobs
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(5)
    finally:
        if first.poll() is None:
            first.kill()
    assert lagging_partitions(w.redis, w.store.keys), "the worker finished before it was killed: nothing to recover"
    second = start_worker(redis_url, slow=0, log=tmp_path / "worker2.log")
    try:
        wait_for(lambda: not lagging_partitions(w.redis, w.store.keys), 30,
                 "the new worker to catch every partition up")
    finally:
        second.terminate()
        second.wait(10)
    for mid in ids:
        row = json.loads(w.redis.get(w.store.keys.summary(mid)))
        assert row["version"] == w.store.version(mid)
    applied = redis_client.lrange("crashtest:applied", 0, -1)
    assert len(applied) == len(set(applied)), "a read-model row was applied twice"


def test_redis_killed_with_aof_always_keeps_every_acknowledged_command(tmp_path):
    """kill -9 Redis (AOF appendfsync always) while a client submits commands: after a restart every
    acknowledged command is stored exactly once at its acknowledged version, the chain holds, and the
    same service (no restart) answers again by itself."""
    port = free_port()
    server = EmbeddedRedis(tmp_path / "redis", port=port, appendfsync="always").start()
    w = race_wiring(server.url)
    client = create_app(wiring=w).test_client()
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    auth = {"Authorization": f"Bearer {users[0]['token']}"}
    mid = start_http(client, auth, {"game": RACE.id, "players": [u["id"] for u in users]},
                     {"Authorization": f"Bearer {users[1]['token']}"})
    acked: dict = {}
    failures = []
    stop = threading.Event()

    def submitter():
        k = 0
        while not stop.is_set():
            body = {"type": "note", "payload": {"text": f"n{k}"}, "command_id": f"c{k}"}
            resp = client.post(f"/api/matches/{mid}/commands", json=body, headers=auth)
            if resp.status_code == 201:
                acked[f"n{k}"] = resp.get_json()["version"]
                k += 1
            else:
                assert resp.status_code == 503 and "error" in resp.get_json(), resp.get_json()
                failures.append(resp.status_code)

    thread = threading.Thread(target=submitter)
    thread.start()
    try:
        wait_for(lambda: len(acked) >= 30, 20, "30 acknowledged commands")
        server.kill()
        wait_for(lambda: failures, 20, "the service to notice Redis is gone")
        before_restart = len(acked)
        server = EmbeddedRedis(tmp_path / "redis", port=port, appendfsync="always").start()
        wait_for(lambda: len(acked) >= before_restart + 20, 30, "commands to be acknowledged after the restart")
    finally:
        stop.set()
        thread.join(30)
    try:
        assert client.get("/healthz").status_code == 200
        envs = w.store.read_range(mid, 1)
        assert verify_chain(envs, bytes.fromhex(w.store.secret(mid))) is None
        stored = {e["data"]["text"]: e["version"] for e in envs if e["type"] == "noted"}
        texts = [e["data"]["text"] for e in envs if e["type"] == "noted"]
        assert len(texts) == len(set(texts)), "a command landed twice"
        assert all(stored.get(text) == version for text, version in acked.items())
    finally:
        server.stop()


class ReplyDropper:
    """A TCP proxy to Redis that forwards everything but can swallow the replies to the next N
    EVALSHA requests (after Redis ran them) and cut the connection: a reply lost on the wire."""

    def __init__(self, port: int):
        self.upstream = port
        self.drops = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream))
            state = {"drop": False}
            threading.Thread(target=self._to_server, args=(client, upstream, state), daemon=True).start()
            threading.Thread(target=self._to_client, args=(upstream, client, state), daemon=True).start()

    def _to_server(self, client, upstream, state):
        with contextlib.suppress(OSError):  # either side closing ends the copy
            while data := client.recv(65536):
                with self.lock:
                    if self.drops and b"EVALSHA" in data.upper():
                        self.drops -= 1
                        state["drop"] = True
                upstream.sendall(data)

    def _to_client(self, upstream, client, state):
        with contextlib.suppress(OSError):
            while data := upstream.recv(65536):
                if state["drop"]:  # Redis has run the script; its answer never arrives
                    break
                client.sendall(data)
        for sock in (client, upstream):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self):
        self.listener.close()


@pytest.fixture
def dropper(redis_url, redis_client):
    proxy = ReplyDropper(int(redis_url.rsplit(":", 1)[1].split("/")[0]))
    yield proxy
    proxy.close()


@pytest.mark.parametrize("command_id", [None, "c-1"])
def test_a_command_whose_reply_was_lost_and_is_resent_lands_once(dropper, command_id):
    """The append's reply is lost after Redis ran it; the client library sends it again on a new
    connection: the command lands once and its caller gets the normal answer."""
    w = race_wiring(f"redis://127.0.0.1:{dropper.port}/0")
    mid = create_started(w, "ann", RACE, ["ann", "bob"])
    dropper.drops = 1
    answer = w.matches.submit("ann", mid, "note", {"text": "once"}, command_id=command_id)
    assert dropper.drops == 0
    envs = w.store.read_range(mid, 1)
    assert [e["data"]["text"] for e in envs if e["type"] == "noted"] == ["once"]
    assert answer["version"] == envs[-1]["version"]
    assert verify_chain(envs, bytes.fromhex(w.store.secret(mid))) is None


def test_a_command_retried_by_its_client_after_an_error_lands_once(dropper):
    """Every reply lost until the library gives up: the caller sees an error, sends the command again
    with its command id (through another web process), and gets the one stored answer."""
    w = race_wiring(f"redis://127.0.0.1:{dropper.port}/0")
    mid = create_started(w, "ann", RACE, ["ann", "bob"])
    dropper.drops = 10
    with pytest.raises(RedisConnectionError):
        w.matches.submit("ann", mid, "note", {"text": "once"}, command_id="c-9")
    dropper.drops = 0
    again = w.matches.submit("ann", mid, "note", {"text": "once"}, command_id="c-9")
    other = race_wiring(f"redis://127.0.0.1:{dropper.port}/0").matches.submit("ann", mid, "note", {"text": "once"},
                                                                            command_id="c-9")
    envs = w.store.read_range(mid, 1)
    assert [e["data"]["text"] for e in envs if e["type"] == "noted"] == ["once"]
    assert again == other and again["version"] == envs[-1]["version"]
