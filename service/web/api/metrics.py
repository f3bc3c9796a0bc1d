"""GET /metrics: Prometheus text format, guarded by TURNSTREAM_METRICS_TOKEN when it is set."""
from __future__ import annotations

import hmac

from flask import Blueprint, current_app

from service.web.errors import ApiError
from service.web.http import bearer_token, wiring
from service.web.store_metrics import StoreCollector, exposition
from service.web.openapi import documented

bp = Blueprint("metrics", __name__)


def collector() -> StoreCollector:
    """The app's Redis-derived metrics collector (one queue connection per process)."""
    ext = current_app.extensions
    if "turnstream.metrics" not in ext:
        ext["turnstream.metrics"] = StoreCollector(wiring())
    return ext["turnstream.metrics"]


@bp.get("/metrics")
@documented("Prometheus metrics (text format); Bearer TURNSTREAM_METRICS_TOKEN when that is set",
            auth="optional", content="text/plain", store=False)
def metrics():
    """Every metric of this host's web processes plus the figures read from Redis now."""
    token = wiring().settings.metrics_token
    if token and not hmac.compare_digest((bearer_token() or "").encode(), token.encode()):
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <TURNSTREAM_METRICS_TOKEN>")
    body, content_type = exposition(collector())
    return body, 200, {"Content-Type": content_type}
