"""The Procfile's web line, run as a process manager runs it, listens on loopback unless TURNSTREAM_BIND asks for
more: a bare host (`0.0.0.0`) takes $PORT, a full gunicorn address is used as it is."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from service.server.embedded_redis import free_port
from tests.e2e.processes import ROOT, stop, wait_http
from tests.waiting import wait_for


def procfile_command(name: str) -> str:
    """The command of one Procfile process type."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        kind, _, command = line.partition(":")
        if kind.strip() == name:
            return command.strip()
    raise AssertionError(f"no {name} line in the Procfile")


def outward_address() -> str | None:
    """This machine's address on its default route (not loopback), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent for a UDP connect
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def answers(host: str, port: int) -> bool:
    """True when something accepts a TCP connection at host:port."""
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def start_web(redis_url: str, log: Path, **env_extra) -> subprocess.Popen:
    """The Procfile's web line through a shell, as honcho or foreman run it."""
    env = {k: v for k, v in os.environ.items() if k not in ("TURNSTREAM_BIND", "PORT")}
    env.update(REDIS_URL=redis_url, PYTHONPATH=str(ROOT), WEB_CONCURRENCY="1",
               PATH=str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""), **env_extra)
    return subprocess.Popen(["/bin/sh", "-c", "exec " + procfile_command("web")], cwd=ROOT, env=env,
                            stdout=open(log, "ab"), stderr=subprocess.STDOUT)


def listening_at(log: Path) -> str:
    """The address gunicorn says it listens at."""
    found = []
    wait_for(lambda: found.extend(re.findall(r"Listening at: (\S+)", log.read_text())) or found, 60,
             "gunicorn listening")
    return found[0]


@pytest.mark.parametrize("bind, expected", [
    (None, "http://127.0.0.1:{port}"),
    ("0.0.0.0", "http://0.0.0.0:{port}"),
    ("127.0.0.1:{port}", "http://127.0.0.1:{port}"),
])
def test_the_procfile_web_line_binds_loopback_unless_asked(redis_url, tmp_path, bind, expected):
    port = free_port()
    env = {"PORT": str(port)}
    if bind is not None:
        env["TURNSTREAM_BIND"] = bind.format(port=port)
    log = tmp_path / "web.log"
    proc = start_web(redis_url, log, **env)
    try:
        assert listening_at(log) == expected.format(port=port)
        wait_http(f"http://127.0.0.1:{port}/healthz")
        outward = outward_address()
        if outward is not None:
            assert answers(outward, port) == (bind == "0.0.0.0"), outward
    finally:
        stop(proc)
