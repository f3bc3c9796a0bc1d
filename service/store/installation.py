"""The installation's own webhook signing key, made once and kept beside the events (service/app/installation.py
says when it is used)."""
from __future__ import annotations

from typing import Callable

from service.store.keys import Keys


def own_webhook_secret(redis_client, make: Callable[[], str]) -> str:
    """The key, `make()` the first time (atomically: two processes starting together agree on one)."""
    redis_client.set(Keys.WEBHOOK_SECRET, make(), nx=True)
    value = redis_client.get(Keys.WEBHOOK_SECRET)
    return value.decode() if isinstance(value, bytes) else value
