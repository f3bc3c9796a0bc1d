"""What belongs to one installation rather than to a process: the key that signs webhooks registered before
each player had a secret of their own. There is no built-in default (it would be the same, public, key on
every installation that never set one): TURNSTREAM_WEBHOOK_SECRET when the operator sets it, else a random
secret generated the first time a process of this installation asks, kept in its Redis beside the events, so
every process and every restart signs with the same key."""
from __future__ import annotations

import secrets

from service.logs import remember_secret
from service.store.installation import own_webhook_secret


def webhook_secret(settings, redis) -> str:
    """TURNSTREAM_WEBHOOK_SECRET, else this installation's own (created once, atomically: two processes starting
    together agree on one)."""
    if settings.webhook_secret:
        return settings.webhook_secret
    value = own_webhook_secret(redis, lambda: secrets.token_urlsafe(32))
    remember_secret(value)  # masked in every log line, as a configured secret is
    return value
