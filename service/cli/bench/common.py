"""What every benchmark shares: the checkout's folder, progress lines, percentiles, the games it plays, and the real
worker process it runs beside the service (its environment, start, catch-up and stop)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from domain.games.dice_race import GAME as RACE
from domain.games.uchronia import GAME as UCHRONIA
from projections.delivery import lagging_partitions

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = 3


def progress(message: str) -> None:
    """One progress line on stderr."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def percentile(values: list, q: float) -> float:
    """The q-quantile (0..1) of `values`, nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def bench_games() -> dict:
    """The games the bench plays: Uchronia, plus the dice-race test game (for the 10,000-event match)."""
    return {UCHRONIA.id: UCHRONIA, RACE.id: RACE}


# the operator's Redis settings never reach the bench's processes: they would write the bench's matches there
BENCH_DROPS = ("REDIS_CLUSTER", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "TURNSTREAM_MIN_REPLICAS")


def bench_env(w, url: str) -> dict:
    """The environment of a service process started by the bench: its Redis, partitions, no rate limit."""
    env = {k: v for k, v in os.environ.items() if k not in BENCH_DROPS}  # the bench's Redis is a plain one
    return dict(env, REDIS_URL=url, RQ_REDIS_URL=w.settings.queue_url,
                TURNSTREAM_PARTITIONS=str(w.settings.partitions), TURNSTREAM_RECONCILE_SECONDS="1",
                TURNSTREAM_RATE_LIMIT_PER_MINUTE=str(10 ** 9),
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def start_worker(w, url: str) -> subprocess.Popen:
    """A real worker process (projections, with the bench's games) on the bench's Redis."""
    return subprocess.Popen([sys.executable, "-m", "service.cli.bench.worker"], env=bench_env(w, url),
                            cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_caught_up(w, worker: subprocess.Popen, seconds: float = 120) -> None:
    """Wait until no partition's projections lag (the worker is alive and has caught up)."""
    deadline = time.monotonic() + seconds
    while lagging_partitions(w.redis, w.store.keys):
        if worker.poll() is not None:
            raise RuntimeError(f"the worker exited: {worker.stderr.read().decode(errors='replace')[-500:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not catch up within {seconds:.0f} s")
        time.sleep(0.05)


def stop_process(proc: subprocess.Popen) -> None:
    """SIGTERM a child, then SIGKILL it if it has not exited after 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
