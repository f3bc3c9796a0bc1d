"""The command line that starts the production web server (gunicorn + gevent, service/server/gunicorn_conf.py)."""
from __future__ import annotations

import errno
import socket
import sys
from pathlib import Path

CONFIG = Path(__file__).with_name("gunicorn_conf.py")
APP = "service:create_app()"


def web_command(host: str, port: int, workers: int | None = None) -> list[str]:
    """`python -m gunicorn` with the one shared config, bound to host:port (workers: the config's default)."""
    cmd = [sys.executable, "-m", "gunicorn", "-c", str(CONFIG), "--bind", f"{host}:{port}"]
    if workers:
        cmd += ["--workers", str(workers)]
    return cmd + [APP]


def port_problem(host: str, port: int) -> str | None:
    """Why the web server could not listen on host:port (another server has the port, the host is not this
    machine's, the port needs privileges), in one line; None when it can. Checked as gunicorn binds: with
    SO_REUSEADDR, so a port left in TIME_WAIT by a server that just stopped is free."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"cannot listen on {host}: {exc.strerror or exc}"
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} is in use on {host} (another server listens there): stop it or choose " \
                       f"another port with --port"
            if exc.errno == errno.EADDRNOTAVAIL:
                return f"cannot listen on {host}: not an address of this machine"
            if exc.errno == errno.EACCES:
                return f"port {port} needs privileges: choose one above 1023 with --port"
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None
