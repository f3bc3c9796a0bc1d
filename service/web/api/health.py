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
@documented("readiness: 200 when this process can serve (its Redis answers), else 503; with Sentinel or "
            "TURNSTREAM_MIN_REPLICAS, the primary and its replicas too")
def readyz():
    """200 when Redis answers; 503 otherwise, so a load balancer sends requests elsewhere meanwhile."""
    try:
        return {"ok": True, **redis_state()}
    except RedisError:
        return {"ok": False, "redis": "unreachable",
                "error": {"code": "redis_unavailable", "message": "Redis is unreachable"}}, 503


def redis_state() -> dict:
    """{"redis": "ok"} once Redis answers; with sentinels or TURNSTREAM_MIN_REPLICAS also the primary this process
    writes to, its replicas in step (`replicas`) and whether writes are acknowledged now (`writes_acknowledged`)."""
    w = wiring()
    if not (w.settings.redis_sentinels or w.settings.min_replicas):
        w.redis.ping()
        return {"redis": "ok"}
    info = w.redis.info("replication")
    replicas = int(info.get("min_slaves_good_slaves", info.get("connected_slaves", 0)))
    state = {"redis": "ok", "role": info.get("role"), "replicas": replicas}
    address = getattr(w.redis.connection_pool, "master_address", None)
    if address:
        state["primary"] = f"{address[0]}:{address[1]}"
    if w.settings.min_replicas:
        state.update(min_replicas=w.settings.min_replicas, writes_acknowledged=replicas >= w.settings.min_replicas)
    return state
