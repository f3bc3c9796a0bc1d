"""Redis connection factories (nothing connects at import time): a URL's Redis, a cluster, the primary that
Redis Sentinel names (REDIS_SENTINELS), followed through a failover, or a Redis kept in this process (memory://)."""
from __future__ import annotations

import logging
import os
import re

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.cluster import RedisCluster
from redis.connection import parse_url
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool, SentinelConnectionPoolProxy, SentinelManagedConnection

from service.config import Settings
from service.metrics import FAILOVERS_FOLLOWED

log = logging.getLogger("turnstream.redis")
MEMORY = "memory://"  # a URL naming a Redis kept in this process (fakeredis): the whole service without a server
_MEMORY_SERVERS: dict = {}  # memory:// URL -> its in-process server, shared by every connection to that URL


class _FollowingProxy(SentinelConnectionPoolProxy):
    """The address book of a Sentinel pool (each new connection asks the sentinels for the primary), counting and
    logging every change of primary it follows."""

    def __init__(self, role: str, **kwargs):
        self.role, self.failovers = role, 0
        super().__init__(**kwargs)

    def get_master_address(self):
        """The primary's address as the sentinels give it now; a new one is logged and counted."""
        before = self.master_address
        address = super().get_master_address()
        if before is not None and address != before:
            self.failovers += 1
            FAILOVERS_FOLLOWED.labels(self.role).inc()
            log.warning("Redis failover followed: the primary of %r is now %s:%s (was %s:%s; %s connections)",
                        self.service_name, *address, *before, self.role)
        return address


class FollowingPool(SentinelConnectionPool):
    """A Sentinel pool whose `failovers` counts the changes of primary it has followed (a write and the WAIT that
    confirms it must reach the same primary: service/store/replication.py)."""

    def __init__(self, service_name, sentinel_manager, role: str = "events", **kwargs):
        super().__init__(service_name, sentinel_manager, **kwargs)
        self.proxy = _FollowingProxy(role, connection_pool=self, is_master=self.is_master,
                                     check_connection=self.check_connection, service_name=service_name,
                                     sentinel_manager=sentinel_manager)
        self.connection_kwargs["connection_pool"] = self.proxy

    @property
    def failovers(self) -> int:
        """How many changes of primary this pool has followed."""
        return self.proxy.failovers


class BlockingFollowingPool(FollowingPool, redis.BlockingConnectionPool):
    """A FollowingPool that makes a caller wait for a free connection instead of refusing (the live streams')."""


def _sentinel_master(settings: Settings, role: str, pool_class=FollowingPool, **kwargs):
    """A client of the primary the sentinels name: database, user and password from REDIS_URL (its host is
    ignored); every new connection asks the sentinels, so a failover is followed by reconnecting."""
    url = parse_url(settings.redis_url) if settings.redis_url.startswith(("redis://", "rediss://")) else {}
    auth = {key: url[key] for key in ("db", "username", "password") if url.get(key) is not None}
    asked = {"socket_connect_timeout": 1, "socket_timeout": 2, "retry": Retry(NoBackoff(), 0)}  # a dead sentinel
    manager = Sentinel(list(settings.redis_sentinels), sentinel_kwargs=asked)  # is passed over at once, not retried
    return manager.master_for(settings.redis_sentinel_master, connection_pool_class=pool_class, role=role,
                              **auth, **kwargs)


def sentinels_shown(settings: Settings) -> str:
    """The sentinels' addresses as REDIS_SENTINELS gives them."""
    return ",".join(f"{host}:{port}" for host, port in settings.redis_sentinels)


def in_memory(url: str, **kwargs):
    """A client of the in-process Redis a memory:// URL names (made on first use), for tests and tools."""
    import fakeredis  # a test dependency: imported only when a memory:// URL is used
    server = _MEMORY_SERVERS.setdefault(url, fakeredis.FakeServer())
    return fakeredis.FakeRedis(server=server, **kwargs)


class DirectCalls:
    """One command, one reply, on connections of a client's pool kept apart for a hot command (a match's append):
    past redis-py's pool lock, its per-use readiness poll, retry wrapper and observability (a third of a web worker's
    CPU per command). A connection goes back to the idle list only after a whole reply was read, so none holds a
    stray reply; a connection error sends the command again through the client itself (its retries,
    reconnecting to the current primary: Sentinel's connections ask the sentinels, and a READONLY reply of a demoted
    primary is a connection error), as its own retry would."""

    def __init__(self, client, keep: int = 256):  # idle connections kept: as many as appends in flight at once
        self.client, self.pool, self.keep = client, client.connection_pool, keep
        self.idle: list = []
        self.pid = os.getpid()

    def __call__(self, *args):
        """The reply to one command (a reply error raised as the client raises it)."""
        if self.pid != os.getpid():  # a forked child never shares its parent's sockets
            self.idle, self.pid = [], os.getpid()
        conn = self.idle.pop() if self.idle else self.pool.make_connection()
        try:
            if conn._sock is None:  # its own connect: a Sentinel connection asks the sentinels (a send would not)
                conn.connect()
            conn.send_packed_command(conn.pack_command(*args))
            reply = conn.read_response()
        except redis.exceptions.TimeoutError:  # it may have run: never sent twice (the client retries no timeout either)
            conn.disconnect()
            raise
        except redis.exceptions.ConnectionError:
            conn.disconnect()
            self._put(conn)
            return self.client.execute_command(*args)
        except redis.exceptions.ResponseError:  # a whole reply was read: the connection is ready for the next
            self._put(conn)
            raise
        except BaseException:  # a reply may be left unread (a timeout of the caller's): never reuse the socket
            conn.disconnect()
            raise
        self._put(conn)
        return reply

    def _put(self, conn) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(conn)
        else:
            conn.disconnect()


def direct_calls(client) -> DirectCalls | None:
    """DirectCalls for a plain or Sentinel client of redis-py's own TCP connections (decoded or not), else None
    (a cluster, fakeredis, a client-side cache, a single-connection client: their own path)."""
    pool = getattr(client, "connection_pool", None)
    if type(client) is not redis.Redis or client.connection is not None or pool is None:
        return None
    if pool.connection_class not in (redis.Connection, SentinelManagedConnection) or getattr(pool, "cache", None):
        return None
    return DirectCalls(client)


def make_redis(settings: Settings):
    """The connection for events and read models: a plain Redis, or a cluster with REDIS_CLUSTER=1."""
    if settings.redis_url.startswith(MEMORY):
        return in_memory(settings.redis_url, decode_responses=True)
    common = dict(decode_responses=True, socket_timeout=10, socket_connect_timeout=2,
                  retry=Retry(ExponentialBackoff(cap=0.5, base=0.02), 2),
                  retry_on_error=[redis.exceptions.ConnectionError])
    if settings.redis_cluster:
        return RedisCluster.from_url(settings.redis_url, decode_responses=True, socket_timeout=10,
                                     socket_connect_timeout=2)
    if settings.redis_sentinels:
        return _sentinel_master(settings, "events", health_check_interval=30, **common)
    return redis.Redis.from_url(settings.redis_url, health_check_interval=30, **common)


def make_queue_redis(settings: Settings):
    """The connection RQ uses for its queues (plain Redis, raw bytes as RQ expects): RQ_REDIS_URL's, else the
    events' Redis (through the sentinels when they are set)."""
    common = dict(socket_connect_timeout=2, socket_timeout=30, retry=Retry(ExponentialBackoff(cap=0.5, base=0.02), 2),
                  retry_on_error=[redis.exceptions.ConnectionError])
    if settings.queue_url.startswith(MEMORY):
        return in_memory(settings.queue_url)
    if settings.redis_sentinels and not settings.rq_redis_url:
        return _sentinel_master(settings, "queues", **common)
    return redis.Redis.from_url(settings.queue_url, **common)


def make_stream_redis(settings: Settings, block_seconds: float):
    """The live-update streams' own connections (apart from commands and reads): one for the blocking
    reader of the partition logs, a few for catch-up reads; a full pool makes a stream wait, never a command."""
    if settings.redis_url.startswith(MEMORY):
        return in_memory(settings.redis_url, decode_responses=True)
    if settings.redis_cluster:
        return RedisCluster.from_url(settings.redis_url, decode_responses=True, socket_timeout=block_seconds + 10,
                                     socket_connect_timeout=2, max_connections=settings.stream_redis_connections)
    if settings.redis_sentinels:
        return _sentinel_master(settings, "streams", BlockingFollowingPool,
                                max_connections=settings.stream_redis_connections, timeout=10, decode_responses=True,
                                socket_timeout=block_seconds + 10, socket_connect_timeout=2, health_check_interval=30)
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
    if url.startswith(MEMORY):
        return False
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
    an outage, which the processes ride out. With sentinels REDIS_URL's host is not used: nothing to check."""
    if settings.redis_sentinels:
        if queues and settings.rq_redis_url and _cluster_enabled(settings.rq_redis_url):
            raise Misconfigured(RQ_NEEDS_PLAIN_REDIS)
        return
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
        if settings is not None and settings.redis_sentinels:
            return (f"cannot reach the Redis primary {settings.redis_sentinel_master!r} through the sentinels "
                    f"{sentinels_shown(settings)} ({exc}); are they running, and are REDIS_SENTINELS and "
                    f"REDIS_SENTINEL_MASTER right?")
        where = f" at {shown_url(settings.redis_url)}" if settings is not None else ""
        return f"cannot reach Redis{where} ({exc}); is it running, and is REDIS_URL right?"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"Redis answered an error: {text}"


def shown_url(url: str) -> str:
    """A Redis URL without its password."""
    return re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", url)
