"""The worker process: an RQ worker on the turnstream queues plus a reconciler timer."""
from __future__ import annotations

import logging
import threading

from redis.exceptions import RedisError

log = logging.getLogger("turnstream.worker")
QUEUES = ("projections", "default", "notifications")


def _reconcile_forever(stop: threading.Event, every: float) -> None:
    from .jobs import reconcile
    while not stop.wait(every):
        try:
            lagging = reconcile()
            if lagging:
                log.info("reconciler: re-enqueued partitions %s", lagging)
        except RedisError as exc:
            log.warning("reconciler: Redis unavailable (%s); will retry", exc)
        except Exception:  # keep the timer alive whatever one round hits; the error is logged
            log.exception("reconciler round failed")


def run_worker(settings, burst: bool = False, name: str | None = None) -> None:
    """Run the RQ worker (SimpleWorker: no fork per job) until stopped; burst=True drains and exits."""
    from rq import Queue, SimpleWorker

    from service.connections import make_queue_redis

    from .jobs import reconcile

    conn = make_queue_redis(settings)
    queues = [Queue(q, connection=conn) for q in QUEUES]
    stop = threading.Event()
    if not burst:
        reconcile()
        threading.Thread(target=_reconcile_forever, args=(stop, settings.reconcile_seconds),
                         name="reconciler", daemon=True).start()
    worker = SimpleWorker(queues, connection=conn, name=name)
    try:
        worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
    finally:
        stop.set()
