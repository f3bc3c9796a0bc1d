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
