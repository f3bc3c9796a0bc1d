"""The worker process: an RQ worker on the turnstream queues plus a reconciler timer."""
from __future__ import annotations

import contextlib
import logging
import threading
import uuid

from redis.exceptions import RedisError

from service.logs import say

from .queues import BOTS, MAIN, PROJECTIONS, alive_key

log = logging.getLogger("turnstream.worker")


def _mark_alive(conn, name: str, every: float) -> None:
    conn.set(alive_key(name), "1", px=int(max(3 * every, 3.0) * 1000))


def _reconcile_forever(stop: threading.Event, every: float, conn=None, name: str = "",
                       reconciles: bool = True) -> None:
    from .jobs import reconcile
    while not stop.wait(every):
        try:
            if conn is not None:
                _mark_alive(conn, name, every)
            if not reconciles:  # a worker without projections only says it is alive (its jobs are not orphans)
                continue
            lagging = reconcile()
            if lagging:
                log.info("reconciler: re-enqueued partitions %s", lagging)
        except RedisError as exc:
            log.warning("reconciler: Redis unavailable (%s); will retry", exc)
        except Exception:  # keep the timer alive whatever one round hits; the error is logged
            log.exception("reconciler round failed")


def wait_for_redis(conn, stop: threading.Event, first_delay: float = 0.5, max_delay: float = 10.0) -> bool:
    """Block until the queue Redis answers PING, backing off between tries; False if `stop` was set."""
    delay = first_delay
    while not stop.is_set():
        try:
            conn.ping()
            return True
        except RedisError as exc:
            log.warning("worker: Redis unreachable (%s); retrying in %.1f s", exc, delay)
            stop.wait(delay)
            delay = min(delay * 2, max_delay)
    return False


def resume_interrupted(worker, queues) -> list:
    """After a lost Redis: put the jobs this worker had started back at the front of their queues (they
    are idempotent) and retire the worker's old registration so the same name can register again."""
    from rq.job import Job
    from rq.registry import StartedJobRegistry

    requeued = []
    for q in queues:
        registry = StartedJobRegistry(queue=q)
        for job_id in registry.get_job_ids(cleanup=False):
            job = Job.fetch(job_id, connection=q.connection) if q.connection.exists(Job.key_for(job_id)) else None
            if job is not None and job.worker_name == worker.name:
                registry.requeue(job, at_front=True)
                requeued.append(job_id)
    with contextlib.suppress(RedisError):
        worker.register_death()
    if requeued:
        log.warning("worker %s: re-queued the jobs a lost Redis interrupted: %s", worker.name, requeued)
    return requeued


def run_worker(settings, burst: bool = False, name: str | None = None, queues=MAIN) -> None:
    """Run the RQ worker on `queues` (SimpleWorker: no fork per job) until stopped; burst=True drains and
    exits. A lost Redis (a restart, a failover) is ridden out: the worker waits for it with backoff and
    serves again, instead of dying on the ConnectionError."""
    from rq import Queue, SimpleWorker

    from service.connections import make_queue_redis

    from .jobs import reconcile

    conn = make_queue_redis(settings)
    rq_queues = [Queue(q, connection=conn) for q in queues]
    if BOTS in queues and not burst:
        from .bot_turns import warm_up
        warm_up()  # imports and wiring before the first bot turn, not during it
    if not burst:
        from service import gc_policy
        gc_policy.install(settings.gc_sweep_seconds)  # the follower's batches and bot turns: no long pauses
    stop = threading.Event()
    name = name or f"turnstream-{uuid.uuid4().hex[:12]}"
    reconciles = PROJECTIONS in queues and not burst
    if not burst:
        threading.Thread(target=_reconcile_forever, args=(stop, settings.reconcile_seconds, conn, name, reconciles),
                         name="reconciler" if reconciles else "alive", daemon=True).start()
    follower = None
    if reconciles and settings.follow_logs:
        from .context import wiring
        from .follower import BLOCK_MS, start_follower
        follower = start_follower(wiring(), conn, name, stop)
    worker = None
    try:
        while True:
            try:
                if not burst:
                    _mark_alive(conn, name, settings.reconcile_seconds)
                if reconciles:
                    reconcile()
                worker = SimpleWorker(rq_queues, connection=conn, name=name)
                worker.work(burst=burst, with_scheduler=True, logging_level="WARNING")
                return  # drained (burst) or asked to stop (SIGTERM/SIGINT)
            except RedisError as exc:
                if burst:
                    raise
                log.warning("worker %s: lost Redis (%s); reconnecting", name, exc)
                say(f"turnstream worker: lost Redis ({exc}); reconnecting with backoff")
                if not wait_for_redis(conn, stop):
                    return
                if worker is not None:
                    resume_interrupted(worker, rq_queues)
                say("turnstream worker: Redis is back; serving again")
    finally:
        stop.set()
        if follower is not None:
            follower.join(BLOCK_MS / 1000 + 2)  # it gives its leases up as it ends
        if not burst:
            with contextlib.suppress(RedisError):
                conn.delete(alive_key(name))
