"""Keep-alive connections opened in one burst are spread over gunicorn's gevent workers (service/server/accept_balance.py),
and a replaced worker's slot is freed so the survivors keep accepting."""
from __future__ import annotations

import http.client
import os
import signal
import subprocess
import threading
from collections import Counter

import pytest

from service.cli.bench.http import children
from service.server.embedded_redis import free_port
from service.server.web_command import web_command
from tests.e2e.processes import ROOT, stop, wait_http
from tests.waiting import wait_for

CLIENTS = 16


def connections_per_worker(pids: list, port: int) -> Counter:
    """{pid: established connections to `port` it holds}, read from /proc (which socket inode each pid owns)."""
    established = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in open(table).read().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                established.add(fields[9])
    held = Counter()
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in established:
                held[pid] += 1
    return held


def two_workers(master: int) -> list | None:
    """gunicorn's worker pids when it runs two, else None."""
    found = children(master)
    return found if len(found) == 2 else None


def burst(port: int, count: int) -> list:
    """`count` keep-alive connections opened at once, each with one answered request; left open."""
    conns, go = [], threading.Barrier(count)

    def one():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        go.wait()
        conn.request("GET", "/healthz")
        assert conn.getresponse().read()
        conns.append(conn)
    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return conns


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads socket owners from /proc")
def test_a_burst_of_keep_alive_connections_is_spread_over_the_workers(redis_url, tmp_path):
    """16 clients connecting at once end up 8 and 8 (±2) on two workers; after both workers are replaced, a
    new burst is spread over the new pair too (the old slots were freed)."""
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PYTHONPATH=str(ROOT))
    log = open(tmp_path / "gunicorn.log", "ab")
    proc = subprocess.Popen(web_command("127.0.0.1", port, workers=2), cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", timeout=60)
        for round_ in range(2):
            workers = wait_for(lambda: two_workers(proc.pid), 30, "gunicorn's two workers", interval=0.1)
            ready = lambda: all(f"web worker {pid}: up to" in (tmp_path / "gunicorn.log").read_text()  # noqa: E731
                                for pid in workers)
            wait_for(ready, 30, "both workers ready (each logs its stream cap last, once its balance is installed)",
                     interval=0.1)
            wait_http(f"http://127.0.0.1:{port}/healthz", timeout=30)
            wait_for(lambda: not connections_per_worker(workers, port), 10, "the probe's connection closed",
                     interval=0.05)
            conns = burst(port, CLIENTS)
            held = connections_per_worker(workers, port)
            assert sum(held.values()) == CLIENTS, held
            assert all(CLIENTS // 2 - 2 <= held[pid] <= CLIENTS // 2 + 2 for pid in workers), held
            for conn in conns:
                conn.close()
            if round_ == 0:
                for pid in workers:
                    os.kill(pid, signal.SIGTERM)
                wait_for(lambda: not set(children(proc.pid)) & set(workers), 30, "gunicorn to replace its workers",
                         interval=0.1)
    finally:
        stop(proc)
