"""The RQ queues on the queue Redis: their names, shared by the workers that serve them, the CLI and /metrics."""
from __future__ import annotations

DEFAULT = "default"  # turn deadlines, dispute expiries
NOTIFICATIONS = "notifications"  # webhook deliveries (their own worker: a slow receiver delays nothing else)
BOTS = "bots"  # bot turns: a bot's search (up to TURNSTREAM_BOT_MS) runs after deadlines
QUEUES = (DEFAULT, NOTIFICATIONS, BOTS)
ALIVE_PREFIX = "ts:worker-alive:"  # + a worker's name: set while that worker process runs (short TTL)
PROJECTIONS = "projections"  # not a queue: the role of following the partition logs (projections/follower.py)
# what `turnstream worker` serves unless told otherwise: webhook deliveries run in their own worker
# (`--queues notifications`), so a slow receiver never delays projections or turn deadlines
MAIN = (PROJECTIONS, DEFAULT, BOTS)
DELIVERIES = (NOTIFICATIONS,)


def queue_factory(settings, name: str):
    """A factory of the RQ queue `name` on a new queue connection (nothing connects until a job is queued)."""
    def factory():
        # the queue library and redis-py load only when a job is queued (the command line's start-up cost)
        from rq import Queue

        from service.store.connections import make_queue_redis
        return Queue(name, connection=make_queue_redis(settings))
    return factory
