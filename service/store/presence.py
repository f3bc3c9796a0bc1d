"""Who is watching live: each signed-in live stream keeps a short-lived mark of its user, so a "your move" mail
is skipped when the player had a stream open as the move happened (they saw it on their page).

One sorted set per user, `ts:presence:<user>`: a member per open stream (`<stream>` for a stream of all the
user's matches, `<stream>@<match>` for one match's), scored with the time (ms) until which it is known alive:
refreshed every REFRESH_SECONDS to now + TTL_SECONDS while open, replaced by `<mark>~` scored with the closing
time when it closes (so a refresh racing the close cannot revive it). A stream of a process that died stays
"alive" for at most TTL_SECONDS."""
from __future__ import annotations

import os
import secrets
import threading
import time

from service.store.keys import Keys

TTL_SECONDS = 30
REFRESH_SECONDS = 10
KEEP_SECONDS = 24 * 3600  # marks older than this are dropped
CLOSED = "~"  # the suffix of a closed stream's mark
PROCESS = f"{os.getpid()}.{secrets.token_hex(3)}"


def presence_key(user_id: str) -> str:
    """A user's live-stream marks."""
    return Keys.presence(user_id)


def member(stream_id: int, match_id: str | None = None) -> str:
    """The mark of one stream (of one match, or of every match of its user)."""
    return f"{PROCESS}.{stream_id}" + (f"@{match_id}" if match_id else "")


def now_ms() -> int:
    """Wall-clock milliseconds."""
    return int(time.time() * 1000)


class Presence:
    """Marks of open signed-in streams, and the question a mail job asks."""

    def __init__(self, redis_client):
        self.r = redis_client

    def mark(self, marks, refresh: bool = False) -> None:
        """Mark these (user, member) streams alive until now + TTL, one round trip; `refresh` only renews marks
        that exist (a stream that closed meanwhile stays closed)."""
        marks = list(marks)
        if not marks:
            return
        until = now_ms() + TTL_SECONDS * 1000
        pipe = self.r.pipeline(transaction=False)
        for user_id in {u for u, _m in marks}:
            pipe.zremrangebyscore(presence_key(user_id), "-inf", now_ms() - KEEP_SECONDS * 1000)
        for user_id, mark in marks:
            pipe.zadd(presence_key(user_id), {mark: until}, xx=refresh)
            pipe.expire(presence_key(user_id), KEEP_SECONDS)
        pipe.execute()

    def closed(self, marks) -> None:
        """These streams closed now: each mark is replaced by a closed one (`~`) scored with this moment."""
        marks = list(marks)
        if not marks:
            return
        at = now_ms()
        pipe = self.r.pipeline(transaction=False)
        for user_id, mark in marks:
            pipe.zrem(presence_key(user_id), mark)
            pipe.zadd(presence_key(user_id), {mark + CLOSED: at})
        pipe.execute()

    def saw(self, user_id: str, match_id: str, at_ms: int) -> bool:
        """True when a live stream of the user that shows this match was open at `at_ms`."""
        for mark in self.r.zrangebyscore(presence_key(user_id), at_ms, "+inf"):
            mark = mark.decode() if isinstance(mark, bytes) else mark
            stream, _, match = mark.removesuffix(CLOSED).partition("@")
            if not match or match == match_id:
                return True
        return False


class InMemoryPresence:
    """Presence kept in this process (the in-memory twin: same marks, same answers)."""

    def __init__(self):
        self._marks: dict = {}  # user -> {mark: alive until / closed at, ms}
        self._lock = threading.Lock()

    def mark(self, marks, refresh: bool = False) -> None:
        """Mark these (user, member) streams alive until now + TTL; `refresh` only renews marks that exist."""
        until, oldest = now_ms() + TTL_SECONDS * 1000, now_ms() - KEEP_SECONDS * 1000
        with self._lock:
            for user_id, mark in marks:
                held = self._marks.setdefault(user_id, {})
                for old in [m for m, at in held.items() if at <= oldest]:
                    del held[old]
                if not refresh or mark in held:
                    held[mark] = until

    def closed(self, marks) -> None:
        """These streams closed now: each mark is replaced by a closed one scored with this moment."""
        at = now_ms()
        with self._lock:
            for user_id, mark in marks:
                held = self._marks.setdefault(user_id, {})
                held.pop(mark, None)
                held[mark + CLOSED] = at

    def saw(self, user_id: str, match_id: str, at_ms: int) -> bool:
        """True when a live stream of the user that shows this match was open at `at_ms`."""
        with self._lock:
            alive = [mark for mark, until in self._marks.get(user_id, {}).items() if until >= at_ms]
        return any(mark.removesuffix(CLOSED).partition("@")[2] in ("", match_id) for mark in alive)
