"""What each person has seen of each match: the last version shown to them on a page, kept per account so that
"new since your last visit" is the same on a phone and a desktop."""
from __future__ import annotations

from service.store.keys import Keys

KEEP_SECONDS = 400 * 24 * 3600  # an account untouched this long forgets what it saw

# the version only ever moves forward: a page left open on an older version cannot take it back
_MARK = """
local cur = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
local new = tonumber(ARGV[2])
if new > cur then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return math.max(cur, new)
"""


class SeenVersions:
    """The last version of each match shown to each signed-in person (one small hash per account)."""

    def __init__(self, redis_client):
        self.r = redis_client
        self._mark = redis_client.register_script(_MARK)

    def get(self, user_id: str, match_id: str) -> int | None:
        """The last version `user_id` was shown of the match, None before their first visit."""
        found = self.r.hget(Keys.seen(user_id), match_id)
        return int(found) if found is not None else None

    def mark(self, user_id: str, match_id: str, version: int) -> int:
        """`user_id` has been shown the match up to `version`; the version kept now (never lower than before)."""
        return int(self._mark(keys=[Keys.seen(user_id)], args=[match_id, version, KEEP_SECONDS]))
