"""Acknowledged only when replicated (TURNSTREAM_MIN_REPLICAS): a request that changed something is answered as done
only once Redis WAIT confirms enough replicas hold its writes; else 503 not_replicated with Retry-After. Installed only
when the setting is above 0, so the single-host path runs no code of it."""
from __future__ import annotations

import logging

from flask import Flask, g, request
from redis.exceptions import RedisError

from service.metrics import NOT_REPLICATED, REPLICAS_ACKNOWLEDGED
from service.store.replication import Replication
from service.web.errors import ApiError

log = logging.getLogger("turnstream.web")

READS = frozenset(("GET", "HEAD", "OPTIONS"))
RETRY_AFTER_SECONDS = 1


def not_replicated(wanted: int) -> ApiError:
    """The refusal of a write fewer than `wanted` replicas confirmed: its retry (same command id) is safe."""
    return ApiError(503, "not_replicated",
                    f"not confirmed by {wanted} Redis replica{'s' if wanted != 1 else ''} in time, so not acknowledged: "
                    f"it may or may not have been kept; retry (a command with the same command_id returns its stored "
                    f"answer)", retry_after=RETRY_AFTER_SECONDS)


def install(app: Flask, replication: Replication, answer) -> None:
    """Note the primary at each request's start; after a successful change, WAIT for the replicas, and answer
    `answer(not_replicated)` when too few confirm (a Redis error then counts as none confirming)."""

    @app.before_request
    def note_primary():
        g.primary_epoch = replication.epoch()

    @app.after_request
    def confirm_replicated(response):
        if request.method in READS or response.status_code >= 400:
            return response
        since = g.get("primary_epoch", replication.epoch())
        try:
            enough, replicas = replication.replicated(since)
        except RedisError as exc:
            log.warning("replication not confirmed: %s", exc)
            enough, replicas = False, 0
        REPLICAS_ACKNOWLEDGED.observe(replicas)
        if enough:
            return response
        NOT_REPLICATED.inc()
        return app.make_response(answer(not_replicated(replication.min_replicas)))
