"""What an outage of the store looks like to the layers above it (they catch this, never a driver's error)."""
from __future__ import annotations

from redis.exceptions import RedisError as StoreUnavailable  # noqa: F401 (the store's outage, by its one name)
