"""The worker process: the projection follower, an RQ worker on the turnstream queues, and a reconciler timer."""
from __future__ import annotations

import contextlib
import logging
import sys
import threading
import uuid

from redis.exceptions import RedisError
from rq import Queue, SimpleWorker, scheduler
from rq.job import Job
from rq.registry import StartedJobRegistry

from projections.delivery import catch_up, lagging_partitions
from projections.follower import BLOCK_MS, start_follower
from projections.projector import Projector
from service.app.installation import webhook_secret
from service.logs import say
from service.server import gc_policy
from service.server.web_command import port_problem
from service.store.connections import (RQ_NEEDS_PLAIN_REDIS, Misconfigured, check_topology, is_cluster_reply,
                                       make_queue_redis)

from .bot_turns import warm_up
from .context import wiring
from .followups import after_projection
from .health import WorkerHealth, serve
from .queues import BOTS, MAIN, PROJECTIONS, alive_key
from .reconciler import reconcile

log = logging.getLogger("turnstream.worker")


def _quiet_scheduler_exit() -> None:
    """RQ's scheduler process logs its crash (one line: service/logs.py) and re-raises, and multiprocessing then
    prints the traceback again, raw, on standard error (once per Redis outage). Exit it with a status instead:
    the worker starts a new scheduler once Redis answers."""
    if getattr(scheduler.run, "turnstream_quiet", False):
        return
    original = scheduler.run

    def run(rq_scheduler):
        try:
            original(rq_scheduler)
        except Exception:  # logged by `original` already
            sys.exit(1)
    run.turnstream_quiet = True
    scheduler.run = run


def _mark_alive(conn, name: str, every: float) -> None:
    conn.set(alive_key(name), "1", px=int(max(3 * every, 3.0) * 1000))


def revive_scheduler(worker) -> bool:
    """Start RQ's scheduler (turn deadlines, retries) again when its process has died: a lost Redis or a failover
    ends it, and RQ starts it again only at its ten-minute maintenance. The lock the dead process held is released
    first (a failover's survivor keeps it for a minute); True when a new scheduler process was started."""
    if getattr(worker, "_shutdown_requested_date", None) is not None or getattr(worker, "_stop_requested", False):
        return False  # stopping: RQ ended its scheduler itself, and would wait for ever for one started now
    scheduler = getattr(worker, "scheduler", None)
    process = getattr(scheduler, "_process", None)
    if scheduler is None or process is None or process.is_alive():
        return False
    scheduler.release_locks()
    scheduler.acquire_locks(auto_start=True)
    started = scheduler._process is not process and scheduler._process is not None
    if started:
        log.warning("worker %s: RQ's scheduler had stopped; started it again", worker.name)
    return started


def _reconcile_forever(stop: threading.Event, every: float, conn=None, name: str = "",
                       reconciles: bool = True, health=None, current: dict | None = None) -> None:
    while not stop.wait(every):
        try:
            if conn is not None:
                _mark_alive(conn, name, every)
            if current is not None and current.get("worker") is not None:
                revive_scheduler(current["worker"])
            if health is not None:
                health.round(redis_ok=True)
            if not reconciles:  # a worker without projections only says it is alive (its jobs are not orphans)
                continue
            recovered = reconcile()
            if recovered:
                log.info("reconciler: scheduled again the bot turns %s", recovered)
        except RedisError as exc:
            if health is not None:
                health.round(redis_ok=False)
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
        if getattr(worker, "scheduler", None) is not None:  # a new worker's scheduler takes the lock at once, not a minute later
            worker.scheduler.release_locks()
    if requeued:
        log.warning("worker %s: re-queued the jobs a lost Redis interrupted: %s", worker.name, requeued)
    return requeued


def drain(projector: Projector, rq_queues, conn, name: str) -> None:
    """Project every partition to the end of its log and run the queued jobs, until neither has work left
    (a job's commands are projected, and the projection's follow-ups run, before the drain ends)."""


    while True:
        for p in range(projector.keys.partitions):
            catch_up(projector, p, owner=name, followups=after_projection)
        if rq_queues:
            SimpleWorker(rq_queues, connection=conn, name=name).work(burst=True, logging_level="WARNING")
        if not lagging_partitions(projector.redis, projector.keys) and not any(q.count for q in rq_queues):
            return


def _counting(worker_class, health):
    """`worker_class` counting each job's outcome into `health` (for the worker's /metrics)."""
    if health is None:
        return worker_class

    class CountingWorker(worker_class):
        def handle_job_success(self, *args, **kwargs):
            health.job_done(True)
            return super().handle_job_success(*args, **kwargs)

        def handle_job_failure(self, *args, **kwargs):
            health.job_done(False)
            return super().handle_job_failure(*args, **kwargs)
    return CountingWorker


def _health_server(settings, name: str, queues, host: str, port: int):
    """The worker's /livez, /readyz and /metrics (workers/health.py) on host:port; Misconfigured when it cannot
    listen there."""

    health = WorkerHealth(name, queues, settings.reconcile_seconds)
    try:
        return health, serve(health, host, port)
    except OSError:
        problem = port_problem(host, port) or f"cannot listen on {host}:{port}"
        raise Misconfigured(f"health endpoint: {problem.replace('--port', '--health-port')}") from None


def run_worker(settings, burst: bool = False, name: str | None = None, queues=MAIN, health_host: str = "127.0.0.1",
               health_port: int | None = None) -> None:
    """Serve `queues` until stopped: follow the partition logs (the projections role) and run the RQ jobs
    (SimpleWorker: no fork per job); burst=True drains both and exits. A lost Redis (a restart, a failover)
    is ridden out: the worker waits for it with backoff and serves again, instead of dying on the error."""



    check_topology(settings, queues=True)  # Misconfigured: said in one line by the command, exit non-zero
    conn = make_queue_redis(settings)
    projects = PROJECTIONS in queues
    rq_queues = [Queue(q, connection=conn) for q in queues if q != PROJECTIONS]
    name = name or f"turnstream-{uuid.uuid4().hex[:12]}"
    if burst:
        drain(wiring().projector, rq_queues, conn, name)
        return
    if BOTS in queues:
        warm_up()  # imports and wiring before the first bot turn, not during it
    _quiet_scheduler_exit()
    with contextlib.suppress(RedisError):  # the installation's webhook key exists from the first start on
        webhook_secret(settings, wiring().redis)
    gc_policy.install(settings.gc_sweep_seconds)  # the follower's batches and bot turns: no long pauses
    health, server = (None, None) if health_port is None else \
        _health_server(settings, name, queues, health_host, health_port)
    stop = threading.Event()
    current: dict = {}  # the RQ worker of the moment, whose scheduler the reconciler keeps alive
    threading.Thread(target=_reconcile_forever, args=(stop, settings.reconcile_seconds, conn, name, projects, health,
                                                      current),
                     name="reconciler" if projects else "alive", daemon=True).start()
    follower = None
    if projects:
        follower = start_follower(wiring().projector, name, stop, cluster=bool(settings.redis_cluster),
                                  gather_seconds=settings.follow_gather_ms / 1000, followups=after_projection)
        if health is not None:
            health.follower = follower
    worker_class = _counting(SimpleWorker, health)
    worker = None
    try:
        while True:
            try:
                _mark_alive(conn, name, settings.reconcile_seconds)
                if health is not None:
                    health.round(redis_ok=True)
                worker = current["worker"] = worker_class(rq_queues, connection=conn, name=name)
                worker.work(with_scheduler=True, logging_level="WARNING")
                if worker._shutdown_requested_date is not None or worker._stop_requested or stop.is_set():
                    return  # a SIGTERM/SIGINT asked RQ to stop (RQ notes when)
                # RQ's loop quits by itself on an error it does not retry (a lost Redis in its maintenance or
                # heartbeat): serve again once Redis answers, as when the error reaches us
                log.warning("worker %s: RQ's loop ended on an error; serving again once Redis answers", name)
                if not wait_for_redis(conn, stop):
                    return
                resume_interrupted(worker, rq_queues)
            except RedisError as exc:
                if is_cluster_reply(exc):  # not an outage: RQ on a cluster node can never work
                    raise Misconfigured(RQ_NEEDS_PLAIN_REDIS) from None
                if health is not None:
                    health.outage()
                log.warning("worker %s: lost Redis (%s); reconnecting", name, exc)
                say(f"turnstream worker: lost Redis ({exc}); reconnecting with backoff")
                if not wait_for_redis(conn, stop):
                    return
                if worker is not None:
                    resume_interrupted(worker, rq_queues)
                say("turnstream worker: Redis is back; serving again")
    finally:
        stop.set()
        if server is not None:
            server.shutdown()
        if follower is not None:
            follower.join(BLOCK_MS / 1000 + 2)  # it gives its leases up as it ends
        with contextlib.suppress(RedisError):
            conn.delete(alive_key(name))
