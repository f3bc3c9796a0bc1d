"""Health check."""
from __future__ import annotations

from flask import Blueprint
from redis.exceptions import RedisError

from service.web.openapi import documented
from service.web.http import wiring

bp = Blueprint("health", __name__)


@bp.get("/healthz")
@documented("health of the service and its Redis")
def healthz():
    """200 when Redis answers, 503 otherwise; `streams`: the live streams this process holds."""
    try:
        wiring().redis.ping()
    except RedisError:
        return {"ok": False, "redis": "unreachable",
                "error": {"code": "redis_unavailable", "message": "Redis is unreachable"}}, 503
    return {"ok": True, "redis": "ok", "streams": wiring().live.open_streams()}
