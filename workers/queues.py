"""The worker queues' names, the liveness key and the queue connections: one home every job module imports."""
from __future__ import annotations

PROJECTIONS = "projections"
DEFAULT = "default"
NOTIFICATIONS = "notifications"
ALL = (PROJECTIONS, DEFAULT, NOTIFICATIONS)
# what `turnstream worker` serves unless told otherwise: webhook deliveries run in their own worker
# (`--queues notifications`), so a slow receiver never delays projections or turn deadlines
MAIN = (PROJECTIONS, DEFAULT)
DELIVERIES = (NOTIFICATIONS,)
PROJECT_JOB = "workers.jobs.project_partition"
ALIVE_PREFIX = "ts:worker-alive:"  # in the queue Redis: set while a worker process runs (short TTL)

_CONNECTIONS: dict = {}


def alive_key(worker_name: str) -> str:
    """The key that says a worker process is alive (refreshed by its reconciler thread)."""
    return ALIVE_PREFIX + worker_name


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
