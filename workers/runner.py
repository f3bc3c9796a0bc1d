"""The worker process: an RQ worker on the turnstream queues plus a reconciler timer."""
from __future__ import annotations

import logging
import threading
import uuid

from redis.exceptions import RedisError

from .queues import ALL as QUEUES
from .queues import alive_key

log = logging.getLogger("turnstream.worker")


def _mark_alive(conn, name: str, every: float) -> None:
    conn.set(alive_key(name), "1", px=int(max(3 * every, 3.0) * 1000))


def _reconcile_forever(stop: threading.Event, every: float, conn=None, name: str = "") -> None:
    from .jobs import reconcile
    while not stop.wait(every):
        try:
            if conn is not None:
                _mark_alive(conn, name, every)
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
    name = name or f"turnstream-{uuid.uuid4().hex[:12]}"
    if not burst:
        _mark_alive(conn, name, settings.reconcile_seconds)
        reconcile()
        threading.Thread(target=_reconcile_forever, args=(stop, settings.reconcile_seconds, conn, name),
                         name="reconciler", daemon=True).start()
    worker = SimpleWorker(queues, connection=conn, name=name)
    try:
        worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
    finally:
        stop.set()
        if not burst:
            conn.delete(alive_key(name))
