"""The worker queues' names, the liveness key and the queue connections: one home every job module imports."""
from __future__ import annotations

PROJECTIONS = "projections"
DEFAULT = "default"
NOTIFICATIONS = "notifications"
BOTS = "bots"  # bot turns: a bot's search (up to TURNSTREAM_BOT_MS) runs after projections and deadlines
ALL = (PROJECTIONS, DEFAULT, NOTIFICATIONS, BOTS)
# what `turnstream worker` serves unless told otherwise: webhook deliveries run in their own worker
# (`--queues notifications`), so a slow receiver never delays projections or turn deadlines
MAIN = (PROJECTIONS, DEFAULT, BOTS)
DELIVERIES = (NOTIFICATIONS,)
PROJECT_JOB = "workers.jobs.project_partition"
ALIVE_PREFIX = "ts:worker-alive:"  # in the queue Redis: set while a worker process runs (short TTL)

_CONNECTIONS: dict = {}


def alive_key(worker_name: str) -> str:
    """The key that says a worker process is alive (refreshed by its reconciler thread)."""
    return ALIVE_PREFIX + worker_name


def project_now(w) -> None:
    """Enqueue the projection jobs of the partitions this process appended to (a job's own commands are
    otherwise found by the reconciler, up to TURNSTREAM_RECONCILE_SECONDS later)."""
    w.trigger.flush(queue(PROJECTIONS))


def job_id(*parts) -> str:
    """A job id from parts joined by dashes (RQ allows letters, digits, _ and -: a bot's `:` becomes `_`)."""
    return "-".join(str(part) for part in parts).replace(":", "_")


def project_job_id(p: int) -> str:
    """The unique id of partition p's projection job (so a burst of commands coalesces into one)."""
    return f"project-{p}"


def queue(name: str):
    """An RQ queue on the worker's queue Redis (one connection pool per process and URL)."""
    from rq import Queue

    from service.connections import make_queue_redis

    from .context import wiring

    settings = wiring().settings
    conn = _CONNECTIONS.get(settings.queue_url)
    if conn is None:
        conn = _CONNECTIONS[settings.queue_url] = make_queue_redis(settings)
    return Queue(name, connection=conn)
