"""Per-user rate limiting of command submission (a token bucket per web process)."""
from __future__ import annotations

import math
import threading
import time

from .errors import ApiError


class RateLimiter:
    """Allows `per_minute` commands per user per minute, with bursts up to that many."""

    def __init__(self, per_minute: int, clock=time.monotonic):
        self.rate = per_minute / 60.0
        self.capacity = float(per_minute)
        self.clock = clock
        self._buckets: dict = {}
        self._lock = threading.Lock()

    def check(self, key: str) -> None:
        """Take one token for `key` or raise 429 with a Retry-After."""
        if self.rate <= 0:
            return
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                wait = math.ceil((1.0 - tokens) / self.rate)
                raise ApiError(429, "rate_limited", f"too many commands; retry in {wait} s", retry_after=wait)
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > 100_000:
                self._buckets.clear()
