"""The worker's roles and queues, the liveness key and the queue connections: one home every job module imports."""
from __future__ import annotations

from rq import Queue

from service.store.connections import make_queue_redis
from workers.context import wiring
from service.store.queues import (  # noqa: F401 (the jobs' one import)
    ALIVE_PREFIX, BOTS, DEFAULT, DELIVERIES, MAIN, NOTIFICATIONS, PROJECTIONS)

_CONNECTIONS: dict = {}


def alive_key(worker_name: str) -> str:
    """The key that says a worker process is alive (refreshed by its reconciler thread)."""
    return ALIVE_PREFIX + worker_name


def job_id(*parts) -> str:
    """A job id from parts joined by dashes (RQ allows letters, digits, _ and -: a bot's `:` becomes `_`)."""
    return "-".join(str(part) for part in parts).replace(":", "_")


def queue(name: str):
    """An RQ queue on the worker's queue Redis (one connection pool per process and URL)."""
    settings = wiring().settings
    conn = _CONNECTIONS.get(settings.queue_url)
    if conn is None:
        conn = _CONNECTIONS[settings.queue_url] = make_queue_redis(settings)
    return Queue(name, connection=conn)
