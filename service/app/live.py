"""One reader per process follows the partition logs and wakes the live-update streams of the touched matches."""
from __future__ import annotations

import logging
import threading
import time
from collections import deque

from domain.engine.json_codec import compact_json

from service.store.errors import StoreUnavailable
from service.store import presence as live_presence
from service.store.log_feed import LogFeed

log = logging.getLogger("turnstream.live")

BLOCK_MS = 5000  # the reader's XREAD BLOCK; below the stream connections' socket timeout
BATCH = 500  # log entries per partition per read
SEATS_CACHE = 100_000  # matches whose players the reader remembers
RESUME_SCAN_LIMIT = 2000  # log entries per partition a resuming user stream may replay before it is told to reset
PRESENCE_SLICE = 500  # presence marks renewed per round trip
MAX_QUEUED = 2000  # a stream this far behind (its client stopped reading) is ended; the client resumes


def now_ms() -> int:
    """Wall-clock milliseconds (the unit of Redis stream ids)."""
    return int(time.time() * 1000)


def entry_ms(entry_id: str) -> int:
    """The millisecond part of a Redis stream entry id."""
    return int(entry_id.split("-", 1)[0])


class TooFarBehind(Exception):
    """A stream's catch-up is larger than its budget: the client reloads instead (`version`: a match stream's
    version now, where it resumes after reloading)."""

    def __init__(self, version: int | None = None):
        super().__init__(version)
        self.version = version


class StreamsFull(Exception):
    """A cap on open streams is reached: `which` is "process", "user" or "address"."""

    def __init__(self, which: str):
        super().__init__(which)
        self.which = which


class Subscriber:
    """One open stream: who watches which matches, and the messages waiting to be written to it. A stream whose
    connection was handed to the process's writer (service/server/stream_parking.py) has a `sink` instead of a
    queue: what reaches it goes straight there."""

    __slots__ = ("user", "address", "matches", "everything_of_user", "queue", "wake", "closed", "recheck", "sink")

    def __init__(self, user: str | None, address: str, matches=(), everything_of_user: bool = False):
        self.user = user
        self.address = address
        self.matches = frozenset(matches)  # matches watched explicitly
        self.everything_of_user = everything_of_user  # also every match `user` plays, and their inbox
        self.queue: deque | None = deque()
        self.wake = threading.Event()
        self.closed = False
        self.recheck = False  # the user's tokens changed: check the stream's credential before sending more
        self.sink = None  # the parked connection's writer, once the request that opened the stream has ended

    def push(self, item: tuple) -> None:
        """Queue a message and wake the stream (end it instead when its client has stopped reading)."""
        if self.sink is not None:
            self.sink.deliver(item)
            return
        if len(self.queue) >= MAX_QUEUED:
            self.close()
            return
        self.queue.append(item)
        self.wake.set()

    def take(self, timeout: float) -> list:
        """The queued messages, waiting up to `timeout` seconds for one."""
        if not self.queue and not self.closed:
            self.wake.wait(timeout)
        self.wake.clear()
        items = list(self.queue)
        self.queue.clear()
        return items

    def hand_over(self, sink) -> list:
        """From now on deliver to `sink` (the queue and its event are dropped: a parked stream keeps little);
        the messages queued until now."""
        items = list(self.queue)
        self.sink, self.queue, self.wake = sink, None, None
        return items

    def recheck_credential(self) -> None:
        """The user's tokens were rotated or revoked: wake the stream to check its credential now."""
        self.recheck = True
        if self.sink is not None:
            self.sink.recheck()
        else:
            self.wake.set()

    def close(self) -> None:
        """End the stream (the server stops, or the process is told to)."""
        self.closed = True
        if self.sink is not None:
            self.sink.end()
        else:
            self.wake.set()


class StreamCaps:
    """Counts open streams: per process, per client address (every stream, signed in or not: accounts are
    cheap to make, so one address cannot hold more by signing each stream in as another user), and per
    signed-in user (whatever address each comes from)."""

    def __init__(self, per_process: int, per_user: int, per_address: int):
        self.per_process, self.per_user, self.per_address = per_process, per_user, per_address
        self.total = 0
        self.users: dict = {}
        self.addresses: dict = {}

    def admit(self, sub: Subscriber) -> None:
        """Count a new stream in, or raise StreamsFull (the caller holds the hub's lock)."""
        if self.total >= self.per_process:
            raise StreamsFull("process")
        if sub.user and self.users.get(sub.user, 0) >= self.per_user:
            raise StreamsFull("user")
        if self.addresses.get(sub.address, 0) >= self.per_address:
            raise StreamsFull("address")
        if sub.user:
            self.users[sub.user] = self.users.get(sub.user, 0) + 1
        self.addresses[sub.address] = self.addresses.get(sub.address, 0) + 1
        self.total += 1

    def release(self, sub: Subscriber) -> None:
        """Count a stream out."""
        if sub.user:
            self._down(self.users, sub.user)
        self._down(self.addresses, sub.address)
        self.total -= 1

    @staticmethod
    def _down(counts: dict, key: str) -> None:
        left = counts.get(key, 1) - 1
        if left > 0:
            counts[key] = left
        else:
            counts.pop(key, None)


class LiveHub:
    """The process's single follower of the partition logs (and read-model change feeds): it folds each
    touched match once, redacts its new events once per viewer, and queues them on the watching streams."""

    def __init__(self, feed: LogFeed, matches, read_models, caps: StreamCaps, presence: live_presence.Presence,
                 log_keep_hours: float = -1.0):
        self.feed = feed  # on the streams' own connections, apart from commands and reads
        self.log_keep_hours = log_keep_hours  # the partition logs keep this much (< 0: everything)
        self.matches = matches  # a MatchService on those connections, sharing the command path's cache
        self.read_models = read_models
        self.caps = caps
        self._lock = threading.Lock()
        self._by_match: dict = {}  # match id -> subscribers watching it explicitly
        self._by_user: dict = {}  # user id -> subscribers following all of that user's matches
        self._positions: dict = {}  # log key -> last entry id read
        self._seats: dict = {}  # match id -> (its players, still open for seats): skip matches nobody follows
        self._thread = None
        self._stopping = False
        self.watermark_ms = 0  # every log entry appended before this time has been queued on its streams
        self.healthy = True
        self.presence = presence  # signed-in streams mark their user as watching

    # -- streams come and go -------------------------------------------------------------------------
    def subscribe(self, sub: Subscriber) -> Subscriber:
        """Register an open stream (StreamsFull when a cap is reached); starts the reader on first use."""
        with self._lock:
            if self._stopping:
                raise StreamsFull("process")
            self.caps.admit(sub)
            for m in sub.matches:
                self._by_match.setdefault(m, set()).add(sub)
            if sub.everything_of_user and sub.user:
                self._by_user.setdefault(sub.user, set()).add(sub)
        try:
            self.start()
        except BaseException:
            self.unsubscribe(sub)
            raise
        self._mark_presence([sub])
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a closed stream (idempotent)."""
        with self._lock:
            found = False
            for m in sub.matches:
                subs = self._by_match.get(m)
                if subs is not None and sub in subs:
                    found = True
                    subs.discard(sub)
                    if not subs:
                        del self._by_match[m]
            subs = self._by_user.get(sub.user) if sub.everything_of_user else None
            if subs is not None and sub in subs:
                found = True
                subs.discard(sub)
                if not subs:
                    del self._by_user[sub.user]
            if found:
                self.caps.release(sub)
        if found:
            self._mark_presence([sub], closed=True)

    @staticmethod
    def _presence_marks(subs) -> list:
        return [(sub.user, live_presence.member(id(sub), None if sub.everything_of_user else next(iter(sub.matches))))
                for sub in subs if sub.user and (sub.everything_of_user or len(sub.matches) == 1)]

    def _mark_presence(self, subs, closed: bool = False, refresh: bool = False) -> None:
        """Mark signed-in streams as watching (or, closed, as gone now); a Redis error only loses a mark."""
        try:
            marks = self._presence_marks(subs)
            self.presence.closed(marks) if closed else self.presence.mark(marks, refresh=refresh)
        except StoreUnavailable as exc:
            log.debug("presence marks not written: %s", exc)

    def _refresh_presence(self) -> None:
        """Every REFRESH_SECONDS, renew the marks of every open signed-in stream, PRESENCE_SLICE at a time with a
        pause between (in its own thread: a crowd's marks never hold up deliveries)."""
        while not self._stopping:
            time.sleep(live_presence.REFRESH_SECONDS)
            with self._lock:
                subs = list({s for group in (*self._by_match.values(), *self._by_user.values()) for s in group})
            for i in range(0, len(subs), PRESENCE_SLICE):
                self._mark_presence(subs[i:i + PRESENCE_SLICE], refresh=True)
                time.sleep(0)  # under gevent: let commands and deliveries run between slices

    def open_streams(self) -> int:
        """How many streams this process holds."""
        return self.caps.total

    # -- the reader ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the reader thread (a greenlet under gevent) once; the logs' positions are taken first, here,
        so nothing appended after a first stream subscribed can slip past the reader."""
        if self._thread is not None or self._stopping:
            return
        if not self._positions:
            self._start_positions()
        with self._lock:
            if self._thread is not None or self._stopping:
                return
            self._thread = threading.Thread(target=self._run, name="live-reader", daemon=True)
        self._thread.start()
        threading.Thread(target=self._refresh_presence, name="live-presence", daemon=True).start()

    def stop(self) -> None:
        """Stop reading and end every open stream."""
        with self._lock:
            self._stopping = True
            subs = {s for group in (*self._by_match.values(), *self._by_user.values()) for s in group}
        for sub in subs:
            sub.close()

    def _start_positions(self) -> None:
        """Each followed key's last entry id now (so nothing appended from here on is missed)."""
        found = self.feed.latest()
        if not self._positions:
            self._positions = found

    def _run(self) -> None:
        backoff = 0.1
        while not self._stopping:
            try:
                if not self._positions:
                    self._start_positions()
                started = now_ms()
                for key, entries in self.feed.read(self._positions):
                    for entry_id, fields in entries:
                        self._positions[key] = entry_id
                        self._dispatch(key, entry_id, fields)
                self.watermark_ms = started
                if not self.healthy:
                    log.warning("live reader: the event store answers again; streams resume")
                self.healthy, backoff = True, 0.1
            except StoreUnavailable as exc:
                if self.healthy:
                    log.warning("live reader: the event store is unreachable (%s); retrying", exc)
                self.healthy = False
                time.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
            except Exception:  # never let one bad entry stop every stream of the process
                log.exception("live reader: an entry could not be delivered")
                time.sleep(0.1)

    def _dispatch(self, key: str, entry_id: str, fields: dict) -> None:
        match_id = fields.get("m")
        if not match_id:
            return
        if self.feed.is_changes(key):
            self._deliver_changes(match_id, fields)
            return
        version, count = int(fields["v"]), int(fields.get("n", 1))
        with self._lock:
            explicit = list(self._by_match.get(match_id, ()))
            seats = self._seats.get(match_id)
            followed = bool(self._by_user) and (seats is None or seats[1]
                                                 or any(p in self._by_user for p in seats[0]))
        if not explicit and not followed:
            return  # a match whose players have no stream open here: not even folded
        for sub, item in self.events_for(match_id, version - count, entry_ms(entry_id), explicit):
            sub.push(item)

    def _user_subscribers(self, users) -> list:
        with self._lock:
            return [s for u in users for s in self._by_user.get(u, ())]

    def events_for(self, match_id: str, after: int, at_ms: int, explicit=(), only=None,
                   budget: int | None = None) -> list:
        """[(subscriber, ("event", match, version, redacted JSON, at_ms))] for the events after version
        `after` of a match: to `explicit` subscribers and to the user streams of its players (or to `only`);
        TooFarBehind once their JSON exceeds `budget` bytes."""
        return self.matches.read(match_id, lambda match: self._collect(match, after, at_ms, explicit, only, budget))

    def match_backlog(self, sub: Subscriber, match_id: str, after: int | None,
                      budget: int | None = None) -> tuple[int, list]:
        """(the match's version, the messages of its events after `after`; none when `after` is None);
        TooFarBehind (with the version) when they exceed `budget` bytes."""
        def collect(match):
            start = match.version if after is None else after
            try:
                items = self._collect(match, start, now_ms(), (), [sub], budget)
            except TooFarBehind:
                raise TooFarBehind(match.version) from None
            return match.version, [item for _s, item in items]
        return self.matches.read(match_id, collect)

    def _collect(self, match, after: int, at_ms: int, explicit, only, budget: int | None = None) -> list:
        if len(self._seats) > SEATS_CACHE:
            self._seats.clear()
        self._seats[match.id] = (frozenset(match.players), match.status == "open")
        if only is not None:
            subs = [s for s in only if match.id in s.matches or (s.user and s.user in match.players)]
        else:
            subs = list(dict.fromkeys(list(explicit) + self._user_subscribers(match.players)))
        if not subs:
            return []
        envs = self._envelopes_after(match, after)
        by_viewer: dict = {}
        for sub in subs:
            by_viewer.setdefault(match.viewer_for(sub.user), []).append(sub)
        out, size = [], 0
        for viewer, group in by_viewer.items():
            for env in envs:
                item = ("event", match.id, env["version"], compact_json(match.redact(env, viewer)), at_ms)
                size += len(item[3])
                if budget is not None and size > budget:
                    raise TooFarBehind()  # stop before the rest is redacted: a catch-up never costs more
                out.extend((sub, item) for sub in group)
        return out

    def _envelopes_after(self, match, after: int) -> list:
        if after >= match.version:
            return []
        if after >= match.base:
            return match.envelopes[after - match.base:]
        return self.matches.store.read_range(match.id, after + 1, match.version)

    def _deliver_changes(self, match_id: str, fields: dict) -> None:
        """A match's read-model row was rewritten: a summary to its players' user streams, and a fresh inbox
        to those whose inbox changed."""
        players = [p for p in fields.get("players", "").split(",") if p]
        changed = {p for p in fields.get("inbox", "").split(",") if p}
        summary = compact_json({"match": match_id, "version": int(fields.get("v", 0)), "status": fields.get("status")})
        for sub in self._user_subscribers(players):
            sub.push(("summary", summary))
        for user in changed:
            subs = self._user_subscribers([user])
            if subs:
                inbox = self.inbox_message(user)
                for sub in subs:
                    sub.push(("inbox", inbox))

    def inbox_message(self, user_id: str) -> str:
        """The user's current inbox as a stream message body."""
        return compact_json({"matches": self.read_models.inbox(user_id)})

    # -- catching up -------------------------------------------------------------------------------
    def _followed(self, sub: Subscriber, match_ids: set) -> set:
        """Which of these matches the subscriber follows: those it watches, and, for a signed-in user's stream,
        those the user plays (their match index, one pipelined round trip, or the seats seen live)."""
        followed = match_ids & sub.matches
        rest = sorted(match_ids - followed) if sub.user and sub.everything_of_user else []
        if rest:
            for match_id, plays in zip(rest, self.feed.played_by(sub.user, rest)):
                seats = self._seats.get(match_id)
                if plays or (seats is not None and sub.user in seats[0]):
                    followed.add(match_id)
        return followed

    def replay_since(self, sub: Subscriber, since_ms: int, budget: int | None = None) -> list | None:
        """The messages of the events appended since `since_ms` to the subscriber's matches, in log order;
        None when there are too many log entries to scan (the client should reload instead), TooFarBehind when
        their JSON exceeds `budget` bytes."""
        if not sub.matches and not (sub.user and sub.everything_of_user):
            return []  # follows no match: nothing to scan for
        if self.log_keep_hours >= 0 and since_ms < time.time() * 1000 - self.log_keep_hours * 3_600_000:
            return None  # the logs may be trimmed since then: the client reloads
        entries = self.feed.since(since_ms, RESUME_SCAN_LIMIT)
        if entries is None:
            return None
        entries.sort(key=lambda e: tuple(int(x) for x in e[0].split("-")))
        followed = self._followed(sub, {fields["m"] for _id, fields in entries})
        out, size = [], 0
        for entry_id, fields in entries:
            if fields["m"] not in followed:  # another match: not loaded, not folded
                continue
            version, count = int(fields["v"]), int(fields.get("n", 1))
            left = None if budget is None else budget - size
            items = [item for _sub, item in
                     self.events_for(fields["m"], version - count, entry_ms(entry_id), only=[sub], budget=left)]
            size += sum(len(item[3]) for item in items)
            out.extend(items)
        return out
