"""Figures read from Redis when /metrics is scraped (projection lag, queues, matches by status, webhook
deliveries), added to the processes' own metrics (service/metrics.py)."""
from __future__ import annotations

import os
import time

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from redis.exceptions import RedisError
from rq import Queue

from projections.writer import STATUSES  # the statuses the match-list projection indexes
from service.store.connections import make_queue_redis
from service.store.keys import Keys
from service.store.queues import ALIVE_PREFIX, QUEUES


class StoreCollector:
    """Figures read from Redis at scrape time: one pipelined pass per group."""

    def __init__(self, wiring):
        self.w = wiring
        self._queue_redis = None

    def queue_redis(self):
        """The queue Redis (a plain Redis even when the events live on a cluster), connected on first use."""
        if self._queue_redis is None:
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
        pipe.hgetall(Keys.WEBHOOK_OUTCOMES)
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
        conn = self.queue_redis()
        depth = GaugeMetricFamily("turnstream_queue_jobs", "Jobs waiting in each RQ queue", labels=["queue"])
        failed = GaugeMetricFamily("turnstream_queue_failed_jobs", "Jobs in each RQ queue's failed registry",
                                   labels=["queue"])
        for name in QUEUES:
            queue = Queue(name, connection=conn)
            depth.add_metric([name], queue.count)
            failed.add_metric([name], queue.failed_job_registry.count)
        yield depth
        yield failed
        alive = GaugeMetricFamily("turnstream_workers_alive", "Worker processes whose liveness key is set (each "
                                  "refreshes its ts:worker-alive:<name> every TURNSTREAM_RECONCILE_SECONDS)")
        alive.add_metric([], sum(1 for _ in conn.scan_iter(match=ALIVE_PREFIX + "*", count=1000)))
        yield alive


def exposition(collector: StoreCollector) -> tuple[bytes, str]:
    """The /metrics body and content type: this host's processes' metrics plus the Redis-derived figures."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        local = generate_latest(registry)
    else:
        local = generate_latest(REGISTRY)
    store = CollectorRegistry()
    store.register(collector)
    return local + generate_latest(store), CONTENT_TYPE_LATEST
