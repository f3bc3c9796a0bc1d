"""Per-partition projection leases: one projector (a log follower or a catch-up) per partition at a time."""
from __future__ import annotations

from redis.cluster import RedisCluster

from service.store.keys import Keys


LEASE_MS = 5000  # a holder that stops renewing (killed, frozen) loses its partition after this long
FOLLOWERS_MS = 3000  # a follower that stops saying so is no longer counted alive (its share is recomputed)
PAUSE_KEY = Keys.PROJECTIONS_PAUSED  # set by a rebuild: followers give their leases up and take none
FOLLOWERS_KEY = Keys.PROJECTION_FOLLOWERS  # in the store's Redis: follower -> until when it is counted alive

# renew or release only a lease we hold: another holder may have taken it after ours expired
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    """Takes, renews and releases partition leases on the store's Redis for one owner."""

    def __init__(self, redis_client, keys, owner: str, lease_ms: int = LEASE_MS):
        self.r = redis_client
        self.keys = keys
        self.owner = owner
        self.lease_ms = lease_ms
        self._renew = redis_client.register_script(_RENEW)
        self._release = redis_client.register_script(_RELEASE)

    def take(self, p: int) -> bool:
        """Take partition p's lease if nobody holds it."""
        return bool(self.r.set(self.keys.projector(p), self.owner, nx=True, px=self.lease_ms))

    def renew(self, p: int) -> bool:
        """Extend our lease on p; False when it is no longer ours."""
        return bool(self._renew(keys=[self.keys.projector(p)], args=[self.owner, self.lease_ms]))

    def renew_many(self, partitions: list) -> list:
        """renew() for each of `partitions`: one pipelined round trip on a plain Redis (a cluster routes each
        script call by its key, one at a time)."""
        if isinstance(self.r, RedisCluster):
            return [self.renew(p) for p in partitions]
        pipe = self.r.pipeline(transaction=False)
        for p in partitions:
            self._renew(keys=[self.keys.projector(p)], args=[self.owner, self.lease_ms], client=pipe)
        return [bool(kept) for kept in pipe.execute()]

    def release(self, p: int) -> None:
        """Give p's lease up (only if it is still ours)."""
        self._release(keys=[self.keys.projector(p)], args=[self.owner])

    def holders(self, partitions) -> list:
        """Who holds each partition's lease (None where nobody does), in one pipelined round trip."""
        pipe = self.r.pipeline(transaction=False)
        for p in partitions:
            pipe.get(self.keys.projector(p))
        return pipe.execute()
