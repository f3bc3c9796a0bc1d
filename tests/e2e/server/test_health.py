"""Health, asked of real processes: the web server's /livez (the process serves) and /readyz (its Redis answers)
beside /healthz, both in the OpenAPI document; a worker's own /livez, /readyz and /metrics with --health-port;
the workers' liveness keys counted in the web's /metrics. A Redis outage makes them unready, never dead."""
from __future__ import annotations

import json
import socket
import subprocess
import urllib.error
import urllib.request

import redis
from prometheus_client.parser import text_string_to_metric_families
from rq import Queue
from rq.job import JobStatus

from service.server.embedded_redis import EmbeddedRedis, free_port
from service.server.supervisor import EX_CONFIG
from tests.e2e.processes import spawn, stop, wait_http
from tests.waiting import wait_for
from workers.queues import DEFAULT


def get(url: str) -> tuple[int, bytes]:
    """(status, body) of a GET (an HTTP error status too; 0 when nothing answers)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except OSError:
        return 0, b""


def samples(text: bytes) -> dict:
    """{sample name: value} of a Prometheus text exposition (labels dropped)."""
    return {s.name: s.value for family in text_string_to_metric_families(text.decode()) for s in family.samples}


def test_web_liveness_and_readiness_through_a_redis_outage(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="everysec").start()
    port = free_port()
    web = spawn(["web", "--port", str(port), "--workers", "1"], server.url, tmp_path / "web.log")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base + "/livez")
        status, body = get(base + "/livez")
        assert status == 200 and json.loads(body) == {"ok": True}
        assert get(base + "/readyz")[0] == 200 and json.loads(get(base + "/readyz")[1])["redis"] == "ok"
        paths = json.loads(get(base + "/api/openapi.json")[1])["paths"]
        assert {"/livez", "/readyz", "/healthz"} <= set(paths) and "get" in paths["/readyz"]
        assert "503" in paths["/readyz"]["get"]["responses"]
        server.kill()
        status, body = wait_for(lambda: (lambda a: a if a[0] == 503 else None)(get(base + "/readyz")), 30,
                                "/readyz saying 503")
        assert json.loads(body)["error"]["code"] == "redis_unavailable"
        assert get(base + "/livez")[0] == 200  # alive: a restart would not bring Redis back
        server.start()
        wait_for(lambda: get(base + "/readyz")[0] == 200, 30, "/readyz back to 200")
    finally:
        stop(web)
        server.stop()


def test_a_worker_answers_livez_readyz_and_metrics(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="everysec").start()
    health_port, web_port = free_port(), free_port()
    worker = spawn(["worker", "--health-port", str(health_port)], server.url, tmp_path / "worker.log")
    web = spawn(["web", "--port", str(web_port), "--workers", "1"], server.url, tmp_path / "web.log")
    base = f"http://127.0.0.1:{health_port}"
    try:
        wait_for(lambda: get(base + "/readyz")[0] == 200, 60, "the worker ready")
        live = json.loads(get(base + "/livez")[1])
        assert live["ok"] and live["worker"].startswith("turnstream-") and live["heartbeat_age_seconds"] < 5
        job = Queue(DEFAULT, connection=redis.Redis.from_url(server.url)).enqueue("workers.reconciler.reconcile")
        wait_for(lambda: job.get_status(refresh=True) == JobStatus.FINISHED, 30, "a job run")
        figures = wait_for(lambda: (lambda f: f if f.get("turnstream_worker_partitions") else None)(
            samples(get(base + "/metrics")[1])), 30, "the follower's partitions in the metrics")
        assert figures["turnstream_worker_up"] == 1 and figures["turnstream_worker_redis_up"] == 1
        assert figures["turnstream_worker_partitions"] == 64 and figures["turnstream_worker_heartbeat_age_seconds"] < 5
        assert figures["turnstream_worker_jobs_total"] >= 1
        wait_http(f"http://127.0.0.1:{web_port}/livez")
        scraped = samples(get(f"http://127.0.0.1:{web_port}/metrics")[1])
        assert scraped["turnstream_workers_alive"] == 1  # the liveness key, as the web server sees it

        server.kill()
        wait_for(lambda: get(base + "/readyz")[0] == 503, 30, "the worker unready while Redis is down")
        assert get(base + "/livez")[0] == 200 and worker.poll() is None  # waiting for Redis is not dead
        assert samples(get(base + "/metrics")[1])["turnstream_worker_redis_up"] == 0
        server.start()
        wait_for(lambda: get(base + "/readyz")[0] == 200, 60, "the worker ready again")
    finally:
        stop(web)
        stop(worker)
        server.stop()
    assert get(base + "/livez")[0] == 0  # gone with the process


def test_a_busy_health_port_is_refused_in_one_line(redis_url, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        log = tmp_path / "worker.log"
        worker = spawn(["worker", "--health-port", str(port)], redis_url, log)
        try:
            assert worker.wait(60) == EX_CONFIG
        except subprocess.TimeoutExpired:
            stop(worker)
            raise
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert lines[-1] == (f"turnstream worker: health endpoint: port {port} is in use on 127.0.0.1 (another server "
                         f"listens there): stop it or choose another port with --health-port")
    assert "Traceback" not in log.read_text()
