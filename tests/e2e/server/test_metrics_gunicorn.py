"""/metrics under gunicorn as production runs it (service/server/gunicorn_conf.py: gevent, here two workers, multiprocess mode): prometheus_client's parser reads it and
the command counters add up across the workers after a known number of commands."""
from __future__ import annotations

import os
import signal
import subprocess
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from prometheus_client.parser import text_string_to_metric_families

from service.cli.bench.http import children
from service.server.embedded_redis import free_port
from service.server.web_command import web_command
from tests.e2e.processes import ROOT, Api, start_invited, stop, wait_http
from tests.waiting import wait_for

METRICS_TOKEN = "metrics-secret-for-tests"


def scrape(base: str, token: str | None) -> tuple[int, str]:
    """(status, body) of GET /metrics."""
    req = urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def samples(text: str) -> dict:
    """{(sample name, frozen labels): value} of a text exposition, parsed by prometheus_client."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_add_up_across_gunicorn_workers(redis_url, tmp_path):
    """Commands answered by several gevent worker processes (two at a time; half of the commands before both
    are replaced, half after) are all counted, by game and outcome; the histograms count each command once;
    the Redis-derived figures, the workers' collection pauses and the token guard are there."""
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    multiproc = tmp_path / "prom"
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PYTHONPATH=str(ROOT), PROMETHEUS_MULTIPROC_DIR=str(multiproc),
               TURNSTREAM_METRICS_TOKEN=METRICS_TOKEN, TURNSTREAM_RATE_LIMIT_PER_MINUTE="100000",
               TURNSTREAM_GC_SWEEP_SECONDS="900")
    log = open(tmp_path / "gunicorn.log", "ab")
    proc = subprocess.Popen(web_command("127.0.0.1", port, workers=2), cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(base + "/healthz", timeout=60)
        assert scrape(base, None)[0] == 401 and scrape(base, "wrong")[0] == 401
        ann = Api(base).post("/api/users", {"name": "ann"})[1]
        bob = Api(base).post("/api/users", {"name": "bob"})[1]
        apis = {ann["id"]: Api(base, ann["token"]), bob["id"]: Api(base, bob["token"])}
        matches = [start_invited(apis[ann["id"]], {"game": "uchronia", "players": [ann["id"], bob["id"]]},
                                 {bob["id"]: bob["token"]})[1] for _ in range(4)]
        statuses = []

        def play(match):
            """Six legal commands, one stale one (409) and one unknown command type (400) in one match."""
            out = []
            for _ in range(6):
                actor = Api(base).get(f"/api/matches/{match['id']}")[1]["active_players"][0]
                legal = apis[actor].get(f"/api/matches/{match['id']}/legal")[1]
                cmd = dict(legal["commands"][0], expected_version=legal["version"])
                out.append(apis[actor].post(f"/api/matches/{match['id']}/commands", cmd)[0])
            out.append(apis[actor].post(f"/api/matches/{match['id']}/commands",
                                        dict(legal["commands"][0], expected_version=0))[0])
            out.append(apis[actor].post(f"/api/matches/{match['id']}/commands", {"type": "no_such_command"})[0])
            return out

        with ThreadPoolExecutor(2) as pool:
            for out in pool.map(play, matches[:2]):
                statuses += out
        # the workers that served the first half are replaced (a worker recycled after --max-requests ends the
        # same way); their counts must still add up. With two idle workers the kernel tends to hand every new
        # connection to the same one, so replacing them is what makes several processes count for sure.
        first = children(proc.pid)
        for pid in first:
            os.kill(pid, signal.SIGTERM)
        wait_for(lambda: len(now := children(proc.pid)) == 2 and not set(now) & set(first), 30,
                 f"gunicorn to replace its workers {first} by two new ones", interval=0.1)
        wait_http(base + "/healthz", timeout=30)
        with ThreadPoolExecutor(2) as pool:
            for out in pool.map(play, matches[2:]):
                statuses += out
        assert statuses.count(201) == 24 and statuses.count(409) == 4 and statuses.count(400) == 4, statuses
        status, text = scrape(base, METRICS_TOKEN)
        assert status == 200
        got = samples(text)
        counted = {outcome: got.get(("turnstream_commands_total",
                                     frozenset({"game": "uchronia", "outcome": outcome}.items())), 0)
                   for outcome in ("accepted", "409", "4xx")}
        assert counted == {"accepted": 24, "409": 4, "4xx": 4}, counted
        assert got[("turnstream_command_seconds_count", frozenset({"game": "uchronia"}.items()))] == 32
        assert got[("turnstream_command_redis_round_trips_count", frozenset())] == 32
        assert got[("turnstream_command_redis_round_trips_sum", frozenset())] >= 24
        assert got[("turnstream_redis_up", frozenset())] == 1
        # each worker's gc policy times its collections and reports them every few seconds (service/server/gc_policy.py)
        wait_for(lambda: sum(v for (name, _), v in samples(scrape(base, METRICS_TOKEN)[1]).items()
                             if name == "turnstream_gc_pause_seconds_count"), 20,
                 "a garbage collection pause reported", interval=0.5)
        assert ("turnstream_projection_lag_seconds", frozenset({"partition": "0"}.items())) in got
        assert ("turnstream_queue_jobs", frozenset({"queue": "default"}.items())) in got
        assert got[("turnstream_matches", frozenset({"status": "active"}.items()))] >= 0
        pids = {f.stem.rsplit("_", 1)[-1] for f in multiproc.glob("counter_*.db")}
        assert len(pids) >= 2, f"the counts above add up several worker processes' files: {sorted(pids)}"
        assert pids & {str(pid) for pid in first}, "the replaced workers' counts are among them"
    finally:
        stop(proc)
