"""The RQ queues on the queue Redis: their names, shared by the workers that serve them and /metrics."""
from __future__ import annotations

DEFAULT = "default"  # turn deadlines, dispute expiries
NOTIFICATIONS = "notifications"  # webhook deliveries (their own worker: a slow receiver delays nothing else)
BOTS = "bots"  # bot turns: a bot's search (up to TURNSTREAM_BOT_MS) runs after deadlines
QUEUES = (DEFAULT, NOTIFICATIONS, BOTS)
ALIVE_PREFIX = "ts:worker-alive:"  # + a worker's name: set while that worker process runs (short TTL)
