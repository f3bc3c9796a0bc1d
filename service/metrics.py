"""Prometheus metrics kept by each process (prometheus_client's multiprocess mode under gunicorn): command
counters and timings, Redis round trips, GC pauses, open streams (webhook outcomes are counted in Redis by
service/store/webhook_outcomes.py)."""
from __future__ import annotations

import threading
import time
from bisect import bisect_left
from collections import deque
from contextlib import contextmanager

from prometheus_client import Counter, Gauge, Histogram


COMMANDS = Counter("turnstream_commands", "Commands by game and outcome (accepted, 409, 422, 4xx, 5xx)",
                   ["game", "outcome"])
COMMAND_SECONDS = Histogram("turnstream_command_seconds", "Time to answer a command, by game", ["game"],
                            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))
COMMAND_ROUND_TRIPS = Histogram("turnstream_command_redis_round_trips", "Redis round trips per command",
                                buckets=(0, 1, 2, 3, 4, 6))
GC_PAUSE_SECONDS = Histogram("turnstream_gc_pause_seconds", "Garbage collection pauses by generation (a pause "
                             "stops every request of its process)", ["generation"],
                             buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))
LIVE_STREAMS = Gauge("turnstream_live_streams", "Open live-update streams (SSE)", multiprocess_mode="livesum")
PARKED_STREAMS = Gauge("turnstream_parked_streams", "Live streams whose request has ended, held by the process's "
                       "writer", multiprocess_mode="livesum")
REPLICAS_ACKNOWLEDGED = Histogram("turnstream_replicas_acknowledged", "Replicas that confirmed holding a "
                                  "request's writes (Redis WAIT) before it was answered (TURNSTREAM_MIN_REPLICAS)",
                                  buckets=(0, 1, 2, 3, 4, 6))
NOT_REPLICATED = Counter("turnstream_not_replicated", "Requests answered 503 not_replicated: fewer replicas than "
                         "TURNSTREAM_MIN_REPLICAS confirmed their writes in time, or the primary changed meanwhile")
FAILOVERS_FOLLOWED = Counter("turnstream_redis_failovers_followed", "Changes of Redis primary followed through "
                             "Sentinel, by connection pool (events, streams, queues)", ["connection"])

_trips = threading.local()  # greenlet-local under gevent's monkey patching


def count_round_trip() -> None:
    """Note one Redis round trip of the current request (the store calls it per pipeline or script call)."""
    _trips.n = getattr(_trips, "n", 0) + 1


def _outcome(status: int) -> str:
    if status < 300:
        return "accepted"
    if status in (409, 422):
        return str(status)
    return "4xx" if status < 500 else "5xx"


FLUSH_SECONDS = 0.05  # while commands are in flight, finished ones are written by the next to end after this long


class _Tally:
    """The figures of finished commands not yet written: written together when no command of this process is in
    flight (so a client that has its answer finds its command counted) or every FLUSH_SECONDS under load. Each value
    written to prometheus' multiprocess files takes a lock and an mmap write: five per command, one by one."""

    def __init__(self):
        self.active: set = set()  # the commands in flight (set.add and discard are atomic, also across threads)
        self.done: deque = deque()  # (game, outcome, seconds, round trips) of finished commands
        self.since = time.perf_counter()  # the last write
        self.counters: dict = {}  # (game, outcome) -> counter child; game -> latency child: labels() costs more
        self.latencies: dict = {}

    def finished(self, command, figures: tuple) -> None:
        """Take one finished command's figures; write everything taken when it was the last in flight or the
        oldest waits too long."""
        self.active.discard(command)
        if not self.active and not self.done:  # alone: written as it is, nothing to add up
            self.since = time.perf_counter()
            self.write(figures)
            return
        self.done.append(figures)
        if not self.active or time.perf_counter() - self.since > FLUSH_SECONDS:
            self.flush()

    def write(self, figures: tuple) -> None:
        """Write one command's figures."""
        game, outcome, seconds, round_trips = figures
        self.counter((game, outcome)).inc()
        self.latency(game).observe(seconds)
        COMMAND_ROUND_TRIPS.observe(round_trips)

    def flush(self) -> None:
        """Write every finished command's figures: one increment per counter, bucket and sum touched."""
        self.since = time.perf_counter()
        counts, latencies, trips = {}, {}, _Sums(COMMAND_ROUND_TRIPS)
        while True:  # popleft until empty: a figure appended meanwhile by another thread is taken or left, never lost
            try:
                game, outcome, seconds, round_trips = self.done.popleft()
            except IndexError:
                break
            counts[(game, outcome)] = counts.get((game, outcome), 0) + 1
            if game not in latencies:
                latencies[game] = _Sums(self.latency(game))
            latencies[game].add(seconds)
            trips.add(round_trips)
        for key, n in counts.items():
            self.counter(key).inc(n)
        for sums in (*latencies.values(), trips):
            sums.write()

    def counter(self, key: tuple):
        """The outcome counter's child of (game, outcome)."""
        child = self.counters.get(key)
        if child is None:
            child = self.counters[key] = COMMANDS.labels(*key)
        return child

    def latency(self, game: str):
        """The latency histogram's child of `game`."""
        child = self.latencies.get(game)
        if child is None:
            child = self.latencies[game] = COMMAND_SECONDS.labels(game)
        return child


class _Sums:
    """Observations of one histogram (child) added up: its sum and a count per bucket, written as observe() would."""

    __slots__ = ("histogram", "total", "buckets")

    def __init__(self, histogram):
        self.histogram, self.total, self.buckets = histogram, 0.0, [0] * len(histogram._upper_bounds)

    def add(self, amount: float) -> None:
        """One observation (in the first bucket whose bound holds it, as observe() counts it)."""
        self.total += amount
        self.buckets[bisect_left(self.histogram._upper_bounds, amount)] += 1

    def write(self) -> None:
        """Add the sums to the histogram's values (nothing when nothing was observed)."""
        if not any(self.buckets):
            return
        self.histogram._sum.inc(self.total)
        for i, n in enumerate(self.buckets):
            if n:
                self.histogram._buckets[i].inc(n)


_tally = _Tally()


class command_observed:
    """Count and time one command (a `with` block); `game_of()` names its game afterwards (from the cache),
    `status_of(exc)` the HTTP status an error answers. A class, not a generator context manager: this runs on
    every command, so it stays a few attribute sets; the figures are written by _Tally."""

    __slots__ = ("game_of", "status_of", "started")

    def __init__(self, game_of, status_of):
        self.game_of = game_of
        self.status_of = status_of

    def __enter__(self):
        _trips.n = 0
        _tally.active.add(self)
        self.started = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        elapsed = time.perf_counter() - self.started
        try:
            outcome = _outcome(201 if exc is None else self.status_of(exc))
            game = self.game_of() or "unknown"
        except BaseException:
            _tally.active.discard(self)
            raise
        _tally.finished(self, (game, outcome, elapsed, _trips.n))
        return False


_gc_pauses = {}  # generation -> histogram child


def observe_gc_pause(generation: int, seconds: float) -> None:
    """Record one garbage collection pause (called by the process's gc policy after every collection)."""
    child = _gc_pauses.get(generation)
    if child is None:
        child = _gc_pauses[generation] = GC_PAUSE_SECONDS.labels(str(generation))
    child.observe(seconds)


@contextmanager
def live_stream():
    """Count an open live-update stream while the block runs."""
    LIVE_STREAMS.inc()
    try:
        yield
    finally:
        LIVE_STREAMS.dec()
