"""Keeps `turnstream up`'s processes running: restarts a crashed child or embedded Redis with backoff."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from service.logs import say as console

EX_CONFIG = 78  # sysexits.h: a child that cannot run as configured (busy port, wrong Redis) is not restarted


@dataclass
class Child:
    """One supervised process: its name, command line and environment, and its restart bookkeeping."""

    name: str
    argv: list
    env: dict
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    restart_at: float | None = None
    backoff: float = 0.0
    restarts: int = 0

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None


def say(message: str) -> None:
    """A console line for the operator (a JSON log line when logs are JSON)."""
    console(f"turnstream up: {message}")


class Supervisor:
    """Starts children (and an embedded Redis), restarts whatever exits until asked to stop.

    A child that ran for less than `stable_seconds` before exiting waits twice as long as last time
    (from `min_backoff` up to `max_backoff`); one that ran longer is restarted after `min_backoff`. A child
    that exits with EX_CONFIG said why it cannot run as configured: restarting it would only repeat that, so
    everything stops. `ready()` is asked until it says yes; then `ready_message` is said, once."""

    def __init__(self, children: list, redis=None, min_backoff: float = 0.5, max_backoff: float = 30.0,
                 stable_seconds: float = 10.0, poll_seconds: float = 0.2, ready=None, ready_message: str = ""):
        self.children = children
        self.redis = redis
        self.ready, self.ready_message = ready, ready_message
        self.failed: Child | None = None
        self.redis_restart_at: float | None = None
        self.redis_backoff = 0.0
        self.min_backoff, self.max_backoff = min_backoff, max_backoff
        self.stable_seconds, self.poll_seconds = stable_seconds, poll_seconds

    # -- children ------------------------------------------------------------------------------
    def start(self, child: Child) -> None:
        """Start (or restart) one child."""
        # its own process group: when it dies, whatever it forked (RQ's scheduler) goes with it
        child.proc = subprocess.Popen(child.argv, env=child.env, start_new_session=True)
        child.started_at = time.monotonic()
        child.restart_at = None
        verb = "restarted" if child.restarts else "started"
        say(f"{child.name} {verb} (pid {child.proc.pid})")

    def _next_backoff(self, previous: float, ran_for: float) -> float:
        if ran_for >= self.stable_seconds or previous <= 0:
            return self.min_backoff
        return min(previous * 2, self.max_backoff)

    def _check_child(self, child: Child, now: float) -> None:
        if child.restart_at is None and not child.alive():
            ran_for = now - child.started_at
            if child.proc.returncode == EX_CONFIG:
                self.failed = child
                say(f"{child.name} cannot run as configured (it said why above); stopping everything")
                return
            child.backoff = self._next_backoff(child.backoff, ran_for)
            child.restart_at = now + child.backoff
            child.restarts += 1
            kill_group(child.proc.pid)  # orphans would keep the dead child's Redis connections open
            say(f"{child.name} (pid {child.proc.pid}) exited with code {child.proc.returncode} after "
                f"{ran_for:.1f} s; restarting in {child.backoff:.1f} s")
        elif child.restart_at is not None and now >= child.restart_at and self._redis_up():
            self.start(child)

    # -- embedded Redis ------------------------------------------------------------------------
    def _redis_up(self) -> bool:
        return self.redis is None or (self.redis.proc is not None and self.redis.proc.poll() is None)

    def _check_redis(self, now: float) -> None:
        if self.redis is None:
            return
        if self.redis_restart_at is None and not self._redis_up():
            self.redis_backoff = self._next_backoff(self.redis_backoff, 0.0)
            self.redis_restart_at = now + self.redis_backoff
            say(f"embedded Redis exited with code {self.redis.proc.returncode}; restarting in "
                f"{self.redis_backoff:.1f} s (its AOF keeps every acknowledged event)")
        elif self.redis_restart_at is not None and now >= self.redis_restart_at:
            try:
                self.redis.start()
            except RuntimeError as exc:
                self.redis_backoff = self._next_backoff(self.redis_backoff, 0.0)
                self.redis_restart_at = time.monotonic() + self.redis_backoff
                say(f"embedded Redis did not start ({exc}); retrying in {self.redis_backoff:.1f} s")
                return
            self.redis_restart_at = None
            say(f"embedded Redis restarted at {self.redis.url}")

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Start everything and supervise until SIGINT/SIGTERM; then stop children, then Redis."""
        signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
        # Ctrl-C stops `up` even when it was started from a shell that ignores SIGINT for background jobs
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for child in self.children:
            self.start(child)
        try:
            while self.failed is None:
                now = time.monotonic()
                self._check_redis(now)
                for child in self.children:
                    self._check_child(child, now)
                if self.ready is not None and self.failed is None and self.ready():
                    self.ready = None
                    console(self.ready_message)
                time.sleep(self.poll_seconds)
        except KeyboardInterrupt:
            say("stopping...")
        finally:
            self.stop()
        return EX_CONFIG if self.failed is not None else 0

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM every child, wait (then kill), and stop the embedded Redis last. A second Ctrl-C or
        SIGTERM meanwhile (a process manager signalling the whole group) hurries it: the children still
        waited for are killed at once, and Redis is stopped all the same."""
        hurry = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: hurry.append(True))
        try:
            for child in self.children:
                if child.alive():
                    child.proc.send_signal(signal.SIGTERM)
            for child in self.children:
                if child.proc is None:
                    continue
                deadline = time.monotonic() + timeout
                while child.proc.poll() is None and not hurry and time.monotonic() < deadline:
                    time.sleep(0.05)
                if child.proc.poll() is None:
                    child.proc.kill()
                    child.proc.wait()
                kill_group(child.proc.pid)
        finally:
            if self.redis is not None:
                self.redis.stop()
        say("stopped.")


def kill_group(pgid: int) -> None:
    """SIGKILL whatever is left of a child's process group (it is the group's leader)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def python_child(name: str, args: list, env: dict) -> Child:
    """A child running `python -m service.cli <args>` with this interpreter."""
    return Child(name, [sys.executable, "-m", "service.cli"] + list(args), env)
