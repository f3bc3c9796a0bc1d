"""A per-process cache of token digest -> user, and revocation that is synchronous across processes.

Every process that caches tokens runs one listener (a thread; a greenlet under gevent) that follows the revocation
notes, a Redis Stream (`NOTES`: one entry per user whose tokens changed), with `XREAD BLOCK`, and after each read
records in `LISTENERS` how far it has read, stamped with Redis's clock. A cached entry is trusted only within
TRUST_SECONDS of the start of the listener's last complete read (every note appended before that start was in
it, and applied): a cache hit costs a lock, a clock read and a dict lookup, no round trip and no socket read.

A rotation or sign-out writes the user's new token digest, appends a note, then waits until every listener that
has recorded itself within STALE_SECONDS has read past the note (a few ms), or until TRUST_SECONDS have passed
(a listener that cannot answer stops trusting its cache by then). So once the rotation has answered, no process
accepts the old token. A listener silent for longer than STALE_SECONDS is not waited for: when it records itself
again it sees the gap and empties its cache first. Notes are never lost (unlike pub/sub across a reconnection):
a listener resumes from its position.
"""
from __future__ import annotations

import atexit
import logging
import os
import secrets
import threading
import time
import weakref

from redis.exceptions import RedisError

log = logging.getLogger("turnstream.auth")

NOTES = "ts:{auth}:revocations"  # stream: one entry {u: user id} per rotation or sign-out
LISTENERS = "ts:{auth}:listeners"  # hash: listener id -> "<position read> <Redis time in microseconds>"
BLOCK_MS = 500  # a listener's XREAD BLOCK: an idle listener records itself twice a second
TRUST_SECONDS = 2.0  # a cache is trusted this long after its listener's last complete read began
STALE_SECONDS = 5.0  # a listener not recorded for this long (Redis time) is not waited for by a rotation
FORGET_SECONDS = 3600.0  # a listener entry this old is removed by the next rotation
IDLE_SECONDS = 5.0  # a listener stops when its cache was not asked for this long beyond its TTL (every entry has
# expired by then anyway; the next lookup starts it again with one round trip)
RETRY_SECONDS = 1.0
NOTES_KEPT = 10_000  # the notes stream is trimmed to about this many entries
POLL_SECONDS = 0.003  # how often a rotation looks whether every listener has read its note

# KEYS: listeners hash, notes stream; ARGV: listener id, position read ('' = the stream's last entry now).
# Records the listener; answers {position, Redis time in µs, what was recorded before ('' if nothing)}.
RECORD_SCRIPT = """
local t = redis.call('TIME')
local now = t[1] .. string.sub('00000' .. t[2], -6)
local pos = ARGV[2]
if pos == '' then
  local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
  if last[1] then pos = last[1][1] else pos = '0-0' end
end
local before = redis.call('HGET', KEYS[1], ARGV[1]) or ''
redis.call('HSET', KEYS[1], ARGV[1], pos .. ' ' .. now)
return {pos, now, before}
"""
# KEYS: listeners hash. Answers {Redis time in µs, the hash as a flat list}.
LISTENERS_SCRIPT = """
local t = redis.call('TIME')
return {t[1] .. string.sub('00000' .. t[2], -6), redis.call('HGETALL', KEYS[1])}
"""


def _stream_id(entry_id: str) -> tuple:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


class AuthCache:
    """Remembers authenticated tokens for `ttl_seconds`, trusted only while this process's listener is in step
    with the revocation notes (see the module docstring); `announce` is the rotation's side."""

    def __init__(self, redis_client, ttl_seconds: float = 10.0, max_entries: int = 50_000, clock=time.monotonic):
        self.r = redis_client
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self.clock = clock
        self._entries: dict = {}  # digest -> (user, expires at)
        self._lock = threading.Lock()
        self._record = redis_client.register_script(RECORD_SCRIPT)
        self._listeners = redis_client.register_script(LISTENERS_SCRIPT)
        self._watchers: dict = {}  # user id -> {handle: callback} (open streams to wake on a note)
        self.generation = 0  # moves on with every note applied; a stale fill is not stored
        self._trusted_until = 0.0  # clock time until which the cached entries may be answered from
        self._listener_id: str | None = None
        self._position = "0-0"
        self._stop: threading.Event | None = None
        self._pid = None
        self._starting = False
        self._retry_at = 0.0
        self._used_at = 0.0
        self._exit_hook = False

    # -- the request side ------------------------------------------------------------------------
    def lookup(self, digest: str) -> tuple[dict | None, int | None]:
        """(the cached user or None, the generation to pass to `remember`; None: do not cache now)."""
        if self.ttl <= 0:
            return None, None
        now = self.clock()
        with self._lock:
            self._used_at = now
            running = self._stop is not None and self._pid == os.getpid()
            if running and now < self._trusted_until:
                entry = self._entries.get(digest)
                if entry is not None and entry[1] > now:
                    return entry[0], self.generation
                return None, self.generation
            start = not running and not self._starting and now >= self._retry_at
            if start:
                self._starting = True
        if start:
            self._start()
        with self._lock:
            return None, (self.generation if self.clock() < self._trusted_until else None)

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

    def synced(self) -> bool:
        """True while this process hears every revocation note within the trust window (open streams are then
        woken by the notes themselves)."""
        with self._lock:
            return self._stop is not None and self._pid == os.getpid() and self.clock() < self._trusted_until

    def watch(self, user_id: str, callback):
        """Call `callback()` (from the listener) when a note says `user_id`'s tokens changed; a handle for
        `unwatch`."""
        handle = object()
        with self._lock:
            self._watchers.setdefault(user_id, {})[handle] = callback
        return user_id, handle

    def unwatch(self, handle) -> None:
        """Stop calling a watcher (idempotent)."""
        user_id, key = handle
        with self._lock:
            found = self._watchers.get(user_id)
            if found is not None:
                found.pop(key, None)
                if not found:
                    del self._watchers[user_id]

    # -- the rotation side -----------------------------------------------------------------------
    def announce(self, user_id: str) -> float:
        """Tell every process that `user_id`'s tokens changed (the new digest is already written) and return once
        every listener has dropped them, or could no longer trust its cache anyway; the seconds it waited."""
        self._apply([user_id])
        note = None
        for attempt in range(3):
            try:
                note = self.r.xadd(NOTES, {"u": user_id}, maxlen=NOTES_KEPT, approximate=True)
                break
            except RedisError:
                if attempt == 2:
                    raise
                time.sleep(0.05 * (attempt + 1))
        started = time.monotonic()
        deadline = started + TRUST_SECONDS
        target = _stream_id(note)
        while True:
            waiting = self._behind(target)
            if not waiting:
                return time.monotonic() - started
            if time.monotonic() >= deadline:
                log.warning("token revocation: %d listener(s) did not confirm within %.1f s; they no longer trust "
                            "their caches", len(waiting), TRUST_SECONDS)
                return time.monotonic() - started
            time.sleep(POLL_SECONDS)

    def _behind(self, target: tuple) -> list:
        """The listeners recorded within STALE_SECONDS that have not read the note `target` yet."""
        now_raw, flat = self._listeners(keys=[LISTENERS])
        now = int(now_raw)
        waiting, gone = [], []
        for listener, value in zip(flat[::2], flat[1::2]):
            position, _, at = value.partition(" ")
            age = (now - int(at or 0)) / 1e6
            if age > FORGET_SECONDS:
                gone.append(listener)
            elif age <= STALE_SECONDS and _stream_id(position) < target:
                waiting.append(listener)
        if gone:
            self.r.hdel(LISTENERS, *gone)
        return waiting

    def close(self) -> None:
        """Stop this process's listener and forget its record; nothing is trusted from the cache afterwards."""
        with self._lock:
            stop, listener = self._stop, self._listener_id
            self._stop, self._trusted_until = None, 0.0
            self._entries.clear()
            self.generation += 1
        if stop is not None:
            stop.set()
            try:
                self.r.hdel(LISTENERS, listener)
            except Exception:  # noqa: BLE001 - unreachable: its record goes stale by itself within 5 s
                pass

    # -- the listener ----------------------------------------------------------------------------
    def _start(self) -> None:
        """Record a new listener at the notes' end (the cache starts empty), trust the cache from here and
        follow the notes in a thread; on failure nothing is trusted and a start is tried again later."""
        listener = f"{os.getpid()}-{secrets.token_hex(4)}"
        began = self.clock()
        try:
            position, _now, _before = self._record(keys=[LISTENERS, NOTES], args=[listener, ""])
        except Exception as exc:  # noqa: BLE001 - RedisError, OSError, a cluster with no reachable node...
            log.warning("token revocation notes unavailable, not caching tokens: %s", exc)
            with self._lock:
                self._starting, self._retry_at = False, self.clock() + RETRY_SECONDS
            return
        stop = threading.Event()
        with self._lock:
            self._entries.clear()
            self.generation += 1
            self._listener_id, self._position, self._stop, self._pid = listener, position, stop, os.getpid()
            self._trusted_until = began + TRUST_SECONDS
            self._starting = False
            self._used_at = self.clock()
        threading.Thread(target=_follow, args=(weakref.ref(self), stop), name="auth-revocations",
                         daemon=True).start()
        if not self._exit_hook:  # a rotation need not wait for a process that has ended
            self._exit_hook = True
            atexit.register(_close_at_exit, weakref.ref(self))

    def _step(self, stop: threading.Event) -> bool:
        """One read of the notes, applied, then this listener recorded; False once it should stop."""
        with self._lock:
            if stop.is_set() or self._stop is not stop:
                return False
            if self.clock() - self._used_at > self.ttl + IDLE_SECONDS:  # nobody asks: stop (a lookup restarts it)
                self._stop, self._trusted_until = None, 0.0
                idle = True
            else:
                idle = False
            listener, position = self._listener_id, self._position
        if idle:
            stop.set()
            self.r.hdel(LISTENERS, listener)
            return False
        began = self.clock()
        replies = self.r.xread({NOTES: position}, count=1000, block=BLOCK_MS) or []
        users = []
        for _key, entries in replies:
            for entry_id, fields in entries:
                users.append(fields.get("u"))
                position = entry_id
        self._apply(users)
        _pos, now, before = self._record(keys=[LISTENERS, NOTES], args=[listener, position])
        with self._lock:
            closed = self._stop is not stop
        if closed:  # closed while reading: its record (just written again) must not hold rotations up
            self.r.hdel(LISTENERS, listener)
            return False
        with self._lock:
            if self._stop is not stop:  # closed just now (close removed the record after it was written)
                return False
            self._position = position
            previous = before.partition(" ")[2]
            if not previous or (int(now) - int(previous)) / 1e6 > STALE_SECONDS:
                # silent for a while (or forgotten): a rotation may have stopped waiting for this listener
                self._entries.clear()
                self.generation += 1
            self._trusted_until = began + TRUST_SECONDS
        return True

    def _apply(self, users: list) -> None:
        """Drop every cached token of these users and wake what watches them."""
        if not users:
            return
        with self._lock:
            self.generation += 1
            gone = set(users)
            for digest in [d for d, (user, _) in self._entries.items() if user["id"] in gone]:
                del self._entries[digest]
            callbacks = [cb for u in gone for cb in self._watchers.get(u, {}).values()]
        for callback in callbacks:
            try:
                callback()
            except Exception:  # noqa: BLE001 - a watcher's failure must not stop the notes
                log.exception("token revocation: a watcher failed")

    def _lost(self, stop: threading.Event, exc: Exception) -> None:
        with self._lock:
            if self._stop is not stop:
                return
            first = self._trusted_until > 0  # once per outage, and only while tokens are being looked up
            used = self.clock() - self._used_at <= self.ttl
            self._trusted_until = 0.0
        if first and used:
            log.warning("token revocation notes unavailable, not trusting cached tokens: %s", exc)


def _close_at_exit(ref) -> None:
    cache = ref()
    if cache is not None and cache.synced():  # (Redis answering: no wait at exit otherwise)
        try:
            cache.close()
        except Exception:  # noqa: BLE001 - the process is ending
            pass


def _follow(ref, stop: threading.Event) -> None:
    """The listener's loop: steps of its cache (held weakly: a cache nobody holds any more ends it)."""
    while not stop.is_set():
        cache = ref()
        if cache is None:
            return
        try:
            if not cache._step(stop):
                return
        except Exception as exc:  # noqa: BLE001 - RedisError, OSError, a cluster with no reachable node...
            if stop.is_set():  # closed while reading
                return
            cache._lost(stop, exc)
            del cache
            stop.wait(RETRY_SECONDS)
            continue
        del cache
