"""Webhook delivery outcomes counted in Redis by the delivering workers (the /metrics scrape reads them)."""
from __future__ import annotations

from redis.exceptions import RedisError

from service.store.keys import Keys


def record_webhook(redis_client, outcome: str) -> None:
    """Count one webhook delivery attempt by outcome (delivered, rejected, unreachable, refused...)."""
    try:
        redis_client.hincrby(Keys.WEBHOOK_OUTCOMES, outcome, 1)
    except RedisError:
        pass  # a lost count must never fail a delivery
