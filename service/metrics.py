"""Prometheus metrics: command counters and timings kept by each web process (prometheus_client's multiprocess
mode under gunicorn), and figures read from Redis when /metrics is scraped (projection lag, queues, matches
by status, webhook deliveries)."""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, \
    generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from redis.exceptions import RedisError

from projections.writer import STATUSES  # the statuses the match-list projection indexes

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
WEBHOOK_OUTCOMES_KEY = "ts:metrics:webhooks"  # hash outcome -> count, kept in Redis by the delivering workers

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


_counted: dict = {}  # (game, outcome) -> counter child; game -> latency child: labels() costs more than inc()
_timed: dict = {}


class command_observed:
    """Count and time one command (a `with` block); `game_of()` names its game afterwards (from the cache).
    A class, not a generator context manager: this runs on every command, so it stays a few attribute sets."""

    __slots__ = ("game_of", "started")

    def __init__(self, game_of):
        self.game_of = game_of

    def __enter__(self):
        _trips.n = 0
        self.started = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        elapsed = time.perf_counter() - self.started
        status = 201 if exc is None else getattr(exc, "status", None) or getattr(exc, "code", None)
        outcome = _outcome(status if isinstance(status, int) else 500)
        game = self.game_of() or "unknown"
        counter = _counted.get((game, outcome))
        if counter is None:
            counter = _counted[(game, outcome)] = COMMANDS.labels(game, outcome)
        latency = _timed.get(game)
        if latency is None:
            latency = _timed[game] = COMMAND_SECONDS.labels(game)
        counter.inc()
        latency.observe(elapsed)
        COMMAND_ROUND_TRIPS.observe(_trips.n)
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


def record_webhook(redis_client, outcome: str) -> None:
    """Count one webhook delivery attempt by outcome (delivered, rejected, unreachable, refused...)."""
    try:
        redis_client.hincrby(WEBHOOK_OUTCOMES_KEY, outcome, 1)
    except RedisError:
        pass  # a lost count must never fail a delivery


class StoreCollector:
    """Figures read from Redis at scrape time: one pipelined pass per group."""

    def __init__(self, wiring):
        self.w = wiring
        self._queue_redis = None

    def queue_redis(self):
        """The queue Redis (a plain Redis even when the events live on a cluster), connected on first use."""
        if self._queue_redis is None:
            from .connections import make_queue_redis
            self._queue_redis = make_queue_redis(self.w.settings)
        return self._queue_redis

    def collect(self):
        """Yield the metric families (a family whose source is unreachable is left out)."""
        up = GaugeMetricFamily("turnstream_redis_up", "1 when the event store answered this scrape")
        try:
            yield from self._store_families()
            up.add_metric([], 1)
        except RedisError:
            up.add_metric([], 0)
        yield up
        try:
            yield from self._queue_families()
        except RedisError:
            pass

    def _store_families(self):
        r, keys = self.w.redis, self.w.store.keys
        parts = range(keys.partitions)
        pipe = r.pipeline(transaction=False)
        for p in parts:
            pipe.get(keys.checkpoint(p))
        checkpoints = pipe.execute()
        pipe = r.pipeline(transaction=False)
        for p, ckpt in zip(parts, checkpoints):
            pipe.xrange(keys.log(p), f"({ckpt}" if ckpt else "-", "+", count=1)
        for status in STATUSES:
            pipe.zcard(keys.status_index(status))
        pipe.hgetall(WEBHOOK_OUTCOMES_KEY)
        replies = pipe.execute()
        now_ms = time.time() * 1000
        lag = GaugeMetricFamily("turnstream_projection_lag_seconds",
                                "Age of the oldest change a partition's projection has not applied yet (0: none)",
                                labels=["partition"])
        for p, pending in zip(parts, replies[:len(parts)]):
            oldest = int(pending[0][0].split("-")[0]) if pending else now_ms
            lag.add_metric([str(p)], max(0.0, (now_ms - oldest) / 1000))
        yield lag
        matches = GaugeMetricFamily("turnstream_matches", "Matches by status (from the read models)", labels=["status"])
        for status, count in zip(STATUSES, replies[len(parts):len(parts) + len(STATUSES)]):
            matches.add_metric([status], count)
        yield matches
        hooks = CounterMetricFamily("turnstream_webhook_deliveries", "Webhook delivery attempts by outcome",
                                    labels=["outcome"])
        for outcome, count in sorted(replies[-1].items()):
            hooks.add_metric([outcome], int(count))
        yield hooks

    def _queue_families(self):
        from rq import Queue

        from workers.queues import ALL
        conn = self.queue_redis()
        depth = GaugeMetricFamily("turnstream_queue_jobs", "Jobs waiting in each RQ queue", labels=["queue"])
        failed = GaugeMetricFamily("turnstream_queue_failed_jobs", "Jobs in each RQ queue's failed registry",
                                   labels=["queue"])
        for name in ALL:
            queue = Queue(name, connection=conn)
            depth.add_metric([name], queue.count)
            failed.add_metric([name], queue.failed_job_registry.count)
        yield depth
        yield failed


def exposition(collector: StoreCollector) -> tuple[bytes, str]:
    """The /metrics body and content type: this host's processes' metrics plus the Redis-derived figures."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        local = generate_latest(registry)
    else:
        local = generate_latest(REGISTRY)
    store = CollectorRegistry()
    store.register(collector)
    return local + generate_latest(store), CONTENT_TYPE_LATEST
