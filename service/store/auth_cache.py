"""A per-process cache of token digest -> user, emptied of a user's tokens by revocation notes on pub/sub."""
from __future__ import annotations

import logging
import threading
import time

from redis.exceptions import RedisError

log = logging.getLogger("turnstream.auth")

CHANNEL = "ts:auth:revoked"  # a message is a user id whose tokens changed (rotated or revoked)
RETRY_SECONDS = 1.0


class AuthCache:
    """Remembers authenticated tokens for `ttl_seconds`. Every process subscribes to CHANNEL; before a
    cached entry is trusted, the notes already delivered to this process are applied (a non-blocking
    read of the subscription's socket, no round trip). Redis queues a PUBLISH for every subscriber
    before it answers the publisher, so once a rotation has answered, no process trusts the old token.
    Without a working subscription nothing is trusted from the cache."""

    def __init__(self, redis_client, ttl_seconds: float = 10.0, max_entries: int = 50_000, clock=time.monotonic):
        self.r = redis_client
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self.clock = clock
        self._entries: dict = {}  # digest -> (user, expires at)
        self._lock = threading.Lock()
        self._pubsub = None
        self._retry_at = 0.0
        self.generation = 0  # moves on with every note applied; a stale fill is not stored

    def lookup(self, digest: str) -> tuple[dict | None, int | None]:
        """(the cached user or None, the generation to pass to `remember`; None: do not cache now)."""
        if self.ttl <= 0:
            return None, None
        with self._lock:
            if not self._drain():
                return None, None
            entry = self._entries.get(digest)
            if entry is not None and entry[1] > self.clock():
                return entry[0], self.generation
            return None, self.generation

    def remember(self, digest: str, user: dict, generation: int | None) -> None:
        """Cache a user read from Redis, unless a note arrived since `lookup` gave `generation`."""
        if generation is None:
            return
        with self._lock:
            if generation != self.generation:
                return
            if len(self._entries) >= self.max_entries:
                now = self.clock()
                self._entries = {d: e for d, e in self._entries.items() if e[1] > now}
                if len(self._entries) >= self.max_entries:
                    self._entries.clear()
            self._entries[digest] = (user, self.clock() + self.ttl)

    def announce(self, user_id: str) -> None:
        """Tell every process (this one at once) that `user_id`'s tokens changed."""
        with self._lock:
            self._forget(user_id)
        self.r.publish(CHANNEL, user_id)

    def close(self) -> None:
        """Drop the subscription."""
        with self._lock:
            self._disconnect()

    # -- under self._lock ------------------------------------------------------------------------
    def _forget(self, user_id: str) -> None:
        self.generation += 1
        for digest in [d for d, (user, _) in self._entries.items() if user["id"] == user_id]:
            del self._entries[digest]

    def _drain(self) -> bool:
        """Apply every delivered note; False when the subscription is down (notes may be missed)."""
        try:
            if self._pubsub is None:
                if self.clock() < self._retry_at:
                    return False
                self._subscribe()
            while True:
                message = self._pubsub.get_message(timeout=0)
                if message is None:
                    return True
                if message["type"] == "message":
                    self._forget(message["data"])
        except (RedisError, OSError) as exc:
            log.warning("token revocation notes unavailable, not caching tokens: %s", exc)
            self._disconnect()
            self._retry_at = self.clock() + RETRY_SECONDS
            return False

    def _subscribe(self) -> None:
        """Subscribe and wait for the confirmation, so no later note can be missed; start empty."""
        pubsub = self.r.pubsub()
        self._pubsub = pubsub
        pubsub.subscribe(CHANNEL)
        deadline = time.monotonic() + 2.0
        while True:
            message = pubsub.get_message(timeout=max(0.0, deadline - time.monotonic()))
            if message is not None and message["type"] == "subscribe":
                break
            if time.monotonic() >= deadline:
                raise RedisError("no subscription confirmation")
        self._entries.clear()
        self.generation += 1

    def _disconnect(self) -> None:
        self._entries.clear()
        self.generation += 1
        if self._pubsub is not None:
            try:
                self._pubsub.close()
            except (RedisError, OSError):
                pass
            self._pubsub = None
