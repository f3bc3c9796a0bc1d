"""A configuration that cannot work is said in one line, with no traceback, and the process exits non-zero
at once: RQ on a Redis Cluster, a cluster without REDIS_CLUSTER=1, a REDIS_URL that is no Redis URL, `up` on a
busy port, `check-game` on a folder that is no package. A MOVED reply is never taken for an outage."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
import redis

from service.server.embedded_redis import free_port
from service.server.supervisor import EX_CONFIG, Child, Supervisor
from service.store.connections import is_cluster_reply, redis_problem
from tests.e2e.processes import ROOT

NO_REDIS = ("REDIS_URL", "RQ_REDIS_URL", "REDIS_CLUSTER")


def turnstream(args, env_extra: dict, timeout: float = 60) -> subprocess.CompletedProcess:
    """`turnstream <args>` as a separate process with these settings (and no others of the shell's)."""
    env = {k: v for k, v in os.environ.items() if k not in NO_REDIS}
    env.update(env_extra, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def one_line(done: subprocess.CompletedProcess) -> str:
    """The one line a refused command wrote (and nothing that looks like a traceback)."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert len(lines) == 1, done.stderr
    return lines[0]


def node_url(cluster) -> str:  # noqa: F811
    return cluster[0].url


def test_a_worker_without_rq_redis_url_on_a_cluster_exits_saying_rq_needs_a_plain_redis(cluster):  # noqa: F811
    started = time.monotonic()
    done = turnstream(["worker"], {"REDIS_URL": node_url(cluster), "REDIS_CLUSTER": "1"})
    assert done.returncode == EX_CONFIG and time.monotonic() - started < 30
    line = one_line(done)
    assert line.startswith("turnstream worker: RQ needs a plain Redis") and "RQ_REDIS_URL" in line
    assert "lost Redis" not in done.stdout + done.stderr


def test_a_worker_with_its_queues_on_a_cluster_node_is_refused(cluster, redis_url):  # noqa: F811
    done = turnstream(["worker"], {"REDIS_URL": redis_url, "RQ_REDIS_URL": node_url(cluster)})
    assert done.returncode == EX_CONFIG
    assert "RQ needs a plain Redis" in one_line(done)


@pytest.mark.parametrize("args", [["export", "--all", "-o", "{tmp}/backup"], ["worker"], ["replay", "m_x"],
                                  ["projections", "rebuild"]])
def test_a_cluster_without_redis_cluster_is_named(cluster, tmp_path, args):  # noqa: F811
    done = turnstream([a.format(tmp=tmp_path) for a in args], {"REDIS_URL": node_url(cluster)})
    assert done.returncode != 0
    line = one_line(done)
    assert "names a Redis Cluster node: set REDIS_CLUSTER=1" in line and "cannot reach" not in line
    assert not (tmp_path / "backup").exists()


def test_a_cluster_reply_is_not_an_outage():
    moved = redis.exceptions.ResponseError("MOVED 3999 127.0.0.1:7001")
    assert is_cluster_reply(moved) and not is_cluster_reply(redis.exceptions.ResponseError("WRONGTYPE x"))
    assert "set REDIS_CLUSTER=1" in redis_problem(moved)
    assert "cannot reach Redis" in redis_problem(redis.exceptions.ConnectionError("Error 111"))


@pytest.mark.parametrize("args", [["worker"], ["export", "m_x"], ["web", "--port", "0"], ["up"]])
def test_a_redis_url_that_is_no_redis_url_is_one_line(args):
    done = turnstream(args, {"REDIS_URL": "http://user:hunter2@example.org:6379/0"})
    assert done.returncode == EX_CONFIG
    line = one_line(done)
    assert "REDIS_URL='http://user:***@example.org:6379/0' is not a Redis URL" in line and "hunter2" not in line


def procfile_web(env_extra: dict) -> subprocess.CompletedProcess:
    """The Procfile's web line (gunicorn) with these settings, until it exits."""
    env = {k: v for k, v in os.environ.items() if k not in NO_REDIS}
    env.update(env_extra, PYTHONPATH=str(ROOT), PORT=str(free_port()), WEB_CONCURRENCY="1",
               PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""))
    return subprocess.run(["/bin/sh", "-c", 'exec gunicorn -c service/server/gunicorn_conf.py "service:create_app()"'],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_the_procfile_web_server_refuses_a_bad_redis_url_in_one_line():
    done = procfile_web({"REDIS_URL": "localhost:6379"})
    assert done.returncode == EX_CONFIG and "Traceback" not in done.stderr
    said = [line for line in done.stderr.splitlines() if "turnstream web:" in line]
    assert said == ["turnstream web: REDIS_URL='localhost:6379' is not a Redis URL: it starts with redis://, "
                    "rediss:// or unix:// (e.g. redis://127.0.0.1:6379/0)"]


def test_the_procfile_web_server_on_a_cluster_without_redis_cluster_stops(cluster):  # noqa: F811
    done = procfile_web({"REDIS_URL": node_url(cluster)})
    assert done.returncode == 3  # gunicorn's "worker failed to boot": the server stops, no restart loop
    assert "Traceback" not in done.stderr
    said = [line for line in done.stderr.splitlines() if "turnstream web:" in line]
    assert len(said) == 1 and "names a Redis Cluster node: set REDIS_CLUSTER=1" in said[0], done.stderr


def test_up_on_a_busy_port_fails_fast_and_starts_nothing(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = turnstream(["up", "--port", str(port), "--data", str(tmp_path / "var")], {}, timeout=30)
    assert done.returncode == EX_CONFIG and time.monotonic() - started < 15
    assert one_line(done) == (f"turnstream up: port {port} is in use on 127.0.0.1 (another server listens there): "
                              f"stop it or choose another port with --port")
    assert "turnstream is up" not in done.stdout
    assert not (tmp_path / "var").exists()  # no Redis was started


def test_up_stops_instead_of_restarting_a_child_that_cannot_run_as_configured():
    """A child exiting with EX_CONFIG (its web port taken meanwhile, RQ on a cluster) stops `up`: restarting it
    would only say the same again, for ever; `up` never says it is up."""
    refused = Child("web", [sys.executable, "-c", f"import sys; sys.exit({EX_CONFIG})"], dict(os.environ))
    # a child that runs on (sleeps) until stopped: `up` must stop it, not wait for it
    steady = Child("worker", [sys.executable, "-c", "import time; time.sleep(60)"], dict(os.environ))
    said = []
    supervisor = Supervisor([refused, steady], poll_seconds=0.05, ready=lambda: said.append("asked") and False)
    started = time.monotonic()
    assert supervisor.run() == EX_CONFIG
    assert time.monotonic() - started < 15 and refused.restarts == 0 and steady.proc.poll() is not None


def test_check_game_on_a_folder_without_init_is_one_line(tmp_path):
    (tmp_path / "mygame").mkdir()
    (tmp_path / "mygame" / "game.py").write_text("GAME = None\n")
    done = turnstream(["check-game", str(tmp_path / "mygame")], {})
    assert done.returncode == 2
    assert one_line(done) == (f"turnstream check-game: cannot import {tmp_path / 'mygame'}: {tmp_path / 'mygame'} is "
                              f"a folder without __init__.py: give a game package's folder (the one holding "
                              f"__init__.py with GAME = Game(...)), a .py file or a module name")
