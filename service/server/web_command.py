"""The command line that starts the production web server (gunicorn + gevent, service/server/gunicorn_conf.py)."""
from __future__ import annotations

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
