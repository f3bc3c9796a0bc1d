"""Acknowledged only when replicated: after a request's writes, one pipelined round trip writes a barrier and asks
Redis WAIT how many replicas hold everything the primary had written up to it (TURNSTREAM_MIN_REPLICAS)."""
from __future__ import annotations

import redis

BARRIER_KEY = "ts:replication:barrier"  # a counter whose increment makes WAIT cover every earlier write
NO_REPLICAS = "NOREPLICAS"  # the refusal of a primary below min-replicas-to-write


def refused_for_replicas(exc: BaseException) -> bool:
    """True for a write the primary refused because too few replicas are connected (min-replicas-to-write), also
    from inside a script (`Error running script ...: -NOREPLICAS ...`)."""
    return isinstance(exc, redis.exceptions.ResponseError) and NO_REPLICAS in str(exc)


class Replication:
    """WAIT for `min_replicas` replicas after a request's writes, at most `wait_ms`. WAIT confirms the writes of its
    own connection, so a barrier write on that connection first makes it cover every write the primary took before
    it, whichever connection sent them; a change of primary followed meanwhile (a Sentinel pool's `failovers`)
    voids the confirmation, since the writes may have gone to the old primary."""

    def __init__(self, redis_client, min_replicas: int, wait_ms: int):
        self.r = redis_client
        self.min_replicas = min_replicas
        self.wait_ms = wait_ms

    @property
    def enabled(self) -> bool:
        """True when writes wait for replicas (TURNSTREAM_MIN_REPLICAS > 0)."""
        return self.min_replicas > 0

    def epoch(self) -> int:
        """How many changes of primary the connection pool has followed (0 without Sentinel)."""
        return getattr(self.r.connection_pool, "failovers", 0)

    def acknowledged(self, since_epoch: int) -> int:
        """The replicas holding every write made before this call: 0 when the primary refuses writes for want of
        replicas, or the pool followed a failover since `since_epoch` (RedisError otherwise propagates)."""
        pipe = self.r.pipeline(transaction=False)
        pipe.incr(BARRIER_KEY)
        pipe.execute_command("WAIT", self.min_replicas, self.wait_ms)
        try:
            _count, replicas = pipe.execute()
        except redis.exceptions.ResponseError as exc:
            if refused_for_replicas(exc):
                return 0
            raise
        return int(replicas) if self.epoch() == since_epoch else 0

    def replicated(self, since_epoch: int) -> tuple[bool, int]:
        """(enough replicas hold the writes made so far, how many do)."""
        replicas = self.acknowledged(since_epoch)
        return replicas >= self.min_replicas, replicas
