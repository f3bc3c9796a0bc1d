"""Health: /livez (the process serves), /readyz (and Redis answers), /healthz (both, with the open streams)."""
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


@bp.get("/livez")
@documented("liveness: 200 while this web process serves requests (Redis is not asked)", store=False)
def livez():
    """200 as long as the process answers at all: a process manager restarts a web process only when this fails."""
    return {"ok": True}


@bp.get("/readyz")
@documented("readiness: 200 when this process can serve (its Redis answers), else 503")
def readyz():
    """200 when Redis answers PING; 503 otherwise, so a load balancer sends requests elsewhere meanwhile."""
    try:
        wiring().redis.ping()
    except RedisError:
        return {"ok": False, "redis": "unreachable",
                "error": {"code": "redis_unavailable", "message": "Redis is unreachable"}}, 503
    return {"ok": True, "redis": "ok"}
