"""`python -m service.cli.bench.worker`: a real `turnstream worker` process with the bench's games, which the bench's
phases run beside the service they measure."""
from __future__ import annotations

import sys

from service.bootstrap import build
from service.cli.bench.common import bench_games
from service.config import from_env
from workers import context
from workers.runner import run_worker


def worker_main() -> int:
    """A real `turnstream worker` process on the environment's Redis, with the bench's games."""
    settings = from_env()
    context.use(build(settings, games=bench_games()))
    run_worker(settings)
    return 0


if __name__ == "__main__":
    sys.exit(worker_main())
