"""Redis connection factories (nothing connects at import time)."""
from __future__ import annotations

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from service.config import Settings


def make_redis(settings: Settings):
    """The connection for events and read models: a plain Redis, or a cluster with REDIS_CLUSTER=1."""
    common = dict(decode_responses=True, socket_timeout=10, socket_connect_timeout=2,
                  retry=Retry(ExponentialBackoff(cap=0.5, base=0.02), 2),
                  retry_on_error=[redis.exceptions.ConnectionError])
    if settings.redis_cluster:
        from redis.cluster import RedisCluster
        return RedisCluster.from_url(settings.redis_url, decode_responses=True, socket_timeout=10,
                                     socket_connect_timeout=2)
    return redis.Redis.from_url(settings.redis_url, health_check_interval=30, **common)


def make_queue_redis(settings: Settings):
    """The connection RQ uses for its queues (plain Redis, raw bytes as RQ expects)."""
    return redis.Redis.from_url(settings.queue_url, socket_connect_timeout=2, socket_timeout=30,
                                retry=Retry(ExponentialBackoff(cap=0.5, base=0.02), 2),
                                retry_on_error=[redis.exceptions.ConnectionError])


def make_stream_redis(settings: Settings, block_seconds: float):
    """The live-update streams' own connections (apart from commands and reads): one for the blocking
    reader of the partition logs, a few for catch-up reads; a full pool makes a stream wait, never a command."""
    if settings.redis_cluster:
        from redis.cluster import RedisCluster
        return RedisCluster.from_url(settings.redis_url, decode_responses=True, socket_timeout=block_seconds + 10,
                                     socket_connect_timeout=2, max_connections=settings.stream_redis_connections)
    pool = redis.BlockingConnectionPool.from_url(
        settings.redis_url, max_connections=settings.stream_redis_connections, timeout=10, decode_responses=True,
        socket_timeout=block_seconds + 10, socket_connect_timeout=2, health_check_interval=30)
    return redis.Redis(connection_pool=pool)


# -- misconfiguration, said in one line ----------------------------------------------------------------------
CLUSTER_REPLIES = ("MOVED", "ASK", "CROSSSLOT", "CLUSTERDOWN")
EVENTS_ON_A_CLUSTER = ("REDIS_URL names a Redis Cluster node: set REDIS_CLUSTER=1 (and RQ_REDIS_URL to a plain "
                       "Redis for the queues)")
RQ_NEEDS_PLAIN_REDIS = ("RQ needs a plain Redis for its queues, not a Redis Cluster: set RQ_REDIS_URL to a plain "
                        "Redis (REDIS_CLUSTER=1 puts only the events and read models on the cluster)")


class Misconfigured(RuntimeError):
    """The Redis the settings name cannot work as configured (not an outage: waiting will not help)."""


def is_cluster_reply(exc: BaseException) -> bool:
    """True for a reply only a Redis Cluster node gives (a key served by another node, a multi-slot command)."""
    return isinstance(exc, redis.exceptions.ResponseError) and str(exc).split(" ", 1)[0] in CLUSTER_REPLIES


def _cluster_enabled(url: str) -> bool | None:
    """Whether the Redis at `url` runs in cluster mode; None when it does not answer."""
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
    try:
        return bool(client.info("cluster").get("cluster_enabled"))
    except redis.exceptions.RedisError:
        return None
    finally:
        client.close()


def check_topology(settings: Settings, queues: bool = False) -> None:
    """Raise Misconfigured when the events' Redis is a cluster node without REDIS_CLUSTER=1 (or a plain Redis
    with it), or, with `queues`, when RQ would run on a cluster. A Redis that does not answer passes: that is
    an outage, which the processes ride out."""
    if settings.redis_cluster:
        if queues and not settings.rq_redis_url:
            raise Misconfigured(RQ_NEEDS_PLAIN_REDIS)
        if _cluster_enabled(settings.redis_url) is False:
            raise Misconfigured("REDIS_CLUSTER=1 but REDIS_URL names a Redis that is not a cluster node: unset "
                                "REDIS_CLUSTER, or point REDIS_URL at a node of the cluster")
    elif _cluster_enabled(settings.redis_url):
        raise Misconfigured(EVENTS_ON_A_CLUSTER)
    if queues and settings.queue_url != settings.redis_url and _cluster_enabled(settings.queue_url):
        raise Misconfigured(RQ_NEEDS_PLAIN_REDIS)


def redis_problem(exc: BaseException, settings: Settings | None = None) -> str:
    """One line saying what a Redis error means for the operator."""
    if is_cluster_reply(exc):
        return EVENTS_ON_A_CLUSTER if settings is None or not settings.redis_cluster else RQ_NEEDS_PLAIN_REDIS
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        where = f" at {shown_url(settings.redis_url)}" if settings is not None else ""
        return f"cannot reach Redis{where} ({exc}); is it running, and is REDIS_URL right?"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"Redis answered an error: {text}"


def shown_url(url: str) -> str:
    """A Redis URL without its password."""
    import re
    return re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", url)
