"""The RQ queues on the queue Redis: their names, shared by the workers that serve them and /metrics."""
from __future__ import annotations

DEFAULT = "default"  # turn deadlines, dispute expiries
NOTIFICATIONS = "notifications"  # webhook deliveries (their own worker: a slow receiver delays nothing else)
BOTS = "bots"  # bot turns: a bot's search (up to TURNSTREAM_BOT_MS) runs after deadlines
QUEUES = (DEFAULT, NOTIFICATIONS, BOTS)
ALIVE_PREFIX = "ts:worker-alive:"  # + a worker's name: set while that worker process runs (short TTL)


def queue_factory(settings, name: str):
    """A factory of the RQ queue `name` on a new queue connection (nothing connects until a job is queued)."""
    def factory():
        from rq import Queue  # the queue library loads only when a job is queued (start-up cost of the CLI)

        from service.store.connections import make_queue_redis
        return Queue(name, connection=make_queue_redis(settings))
    return factory
