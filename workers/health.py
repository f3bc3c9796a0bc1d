"""A worker's own health and metrics over HTTP, for a process manager or Prometheus to ask
(`turnstream worker --health-port P`, on 127.0.0.1 unless `--health-host`):

- `GET /livez`: 200 while the process works: its reconciler loop (which also refreshes the worker's liveness key
  in Redis, `ts:worker-alive:<name>`) ran within the last max(3 periods, 10 s), and its projection follower (if it
  has the projections role) still runs; 503 with the reason otherwise. A Redis outage does not make a worker
  dead: it waits for Redis and serves again.
- `GET /readyz`: 200 when, besides, the last round reached Redis; 503 otherwise.
- `GET /metrics`: Prometheus text: whether it is up, since when, the age of its last round, Redis reachability,
  jobs finished and failed, Redis outages ridden out, partitions it projects and batches projected.

Figures are read when asked (a collector, no metric objects): prometheus_client's multiprocess mode, which the
web server uses, is never involved."""
from __future__ import annotations

import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

log = logging.getLogger("turnstream.worker")


class WorkerHealth:
    """What the worker's threads report about themselves, and what /livez, /readyz and /metrics answer."""

    def __init__(self, name: str, queues, period: float):
        self.name, self.queues, self.period = name, tuple(queues), period
        self.started = time.time()
        self.last_round = time.monotonic()
        self.redis_ok: bool | None = None
        self.jobs = {"finished": 0, "failed": 0}
        self.outages = 0
        self.follower = None  # the projection follower's thread, when this worker projects
        self.lock = threading.Lock()

    def round(self, redis_ok: bool) -> None:
        """The reconciler loop ran (reaching Redis or not)."""
        with self.lock:
            self.last_round, self.redis_ok = time.monotonic(), redis_ok

    def job_done(self, ok: bool) -> None:
        """An RQ job ended (a failed attempt counts, also when RQ retries it)."""
        with self.lock:
            self.jobs["finished" if ok else "failed"] += 1

    def outage(self) -> None:
        """The RQ loop lost Redis and waits for it."""
        with self.lock:
            self.outages += 1
            self.redis_ok = False

    def round_age(self) -> float:
        """Seconds since the reconciler loop last ran."""
        return time.monotonic() - self.last_round

    def live(self) -> tuple[bool, str]:
        """(alive, why not)."""
        limit = max(3 * self.period, 10.0)
        if self.round_age() > limit:
            return False, f"the reconciler loop has not run for {self.round_age():.0f} s (limit {limit:.0f} s)"
        if self.follower is not None and not self.follower.is_alive():
            return False, "the projection follower has stopped"
        return True, ""

    def ready(self) -> tuple[bool, str]:
        """(ready, why not): alive and Redis answered the last round."""
        alive, why = self.live()
        if not alive:
            return False, why
        if not self.redis_ok:
            return False, "Redis did not answer the last round" if self.redis_ok is False else "not checked yet"
        return True, ""

    def collect(self):
        """Prometheus metric families, read now."""
        labels = ["worker", "queues"]
        values = [self.name, ",".join(self.queues)]
        alive, _ = self.live()
        up = GaugeMetricFamily("turnstream_worker_up", "1 while the worker's loops run (as /livez)", labels=labels)
        up.add_metric(values, 1 if alive else 0)
        yield up
        started = GaugeMetricFamily("turnstream_worker_start_time_seconds", "When the worker started (Unix time)")
        started.add_metric([], self.started)
        yield started
        age = GaugeMetricFamily("turnstream_worker_heartbeat_age_seconds",
                                "Seconds since the reconciler loop (and the liveness key) last ran")
        age.add_metric([], self.round_age())
        yield age
        redis_up = GaugeMetricFamily("turnstream_worker_redis_up", "1 when Redis answered the last round")
        redis_up.add_metric([], 1 if self.redis_ok else 0)
        yield redis_up
        with self.lock:
            jobs, outages = dict(self.jobs), self.outages
        counted = CounterMetricFamily("turnstream_worker_jobs", "RQ jobs this worker ran, by outcome",
                                      labels=["outcome"])
        for outcome, count in sorted(jobs.items()):
            counted.add_metric([outcome], count)
        yield counted
        lost = CounterMetricFamily("turnstream_worker_redis_outages", "Redis outages this worker waited out")
        lost.add_metric([], outages)
        yield lost
        follower = getattr(self.follower, "follower", None)
        if follower is not None:
            held = GaugeMetricFamily("turnstream_worker_partitions", "Partitions this worker projects now")
            held.add_metric([], len(follower.positions))
            yield held
            batches = CounterMetricFamily("turnstream_worker_projection_batches", "Batches this worker projected")
            batches.add_metric([], follower.batches)
            yield batches

    def metrics_text(self) -> bytes:
        """The Prometheus text exposition of `collect`."""
        registry = CollectorRegistry(auto_describe=False)
        registry.register(self)
        return generate_latest(registry)


def serve(health: WorkerHealth, host: str, port: int) -> ThreadingHTTPServer:
    """Answer /livez, /readyz and /metrics on host:port from a daemon thread; return the server."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            path = self.path.split("?", 1)[0]
            if path == "/metrics":
                self.answer(200, health.metrics_text(), CONTENT_TYPE_LATEST)
            elif path in ("/livez", "/readyz"):
                ok, why = health.live() if path == "/livez" else health.ready()
                body = {"ok": ok, "worker": health.name, "heartbeat_age_seconds": round(health.round_age(), 3),
                        "redis": "ok" if health.redis_ok else "unreachable"}
                if not ok:
                    body["error"] = why
                self.answer(200 if ok else 503, json.dumps(body).encode(), "application/json")
            else:
                self.answer(404, b'{"error": "not found: /livez, /readyz, /metrics"}', "application/json")

        def answer(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # a probe every few seconds is not worth a log line
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="health", daemon=True).start()
    log.info("worker health on http://%s:%d (/livez, /readyz, /metrics)", host, server.server_address[1])
    return server
