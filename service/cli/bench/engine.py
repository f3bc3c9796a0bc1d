"""`turnstream bench`: measures the command path against raw Redis round trips, all on one Redis."""
from __future__ import annotations

import argparse
import contextlib
import copy
import http.client
import json
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from service.app.invitations import accept_for_all

ROOT = Path(__file__).resolve().parents[3]
COLD_EVENTS = 10_000
SEEK_EVENTS = 5_000
PLAYERS = 3


def add_commands(sub) -> None:
    """Register `turnstream bench`."""
    p = sub.add_parser("bench", help="measure command throughput and latency, replay, projection lag, memory",
                       description="Benchmark the service on its own embedded redis-server in a temporary "
                                   "directory (REDIS_URL is never used: the bench writes matches and users), or on "
                                   "the Redis given with --redis. Progress goes to stderr.")
    p.add_argument("--json", action="store_true", help="print one JSON object with every figure last")
    p.add_argument("--matches", type=int, default=0, help="concurrent Uchronia matches (default: enough for --commands)")
    p.add_argument("--commands", type=int, default=0, help="in-process commands to time (default 6000, quick 2000)")
    p.add_argument("--clients", type=int, default=8, help="concurrent HTTP clients (default 8)")
    p.add_argument("--threads", type=int, default=1,
                   help="submitting threads per process (default 1: on few cores the GIL makes more threads slower)")
    p.add_argument("--processes", type=int, default=min(4, os.cpu_count() or 1),
                   help="processes running the command path at once (default: the CPU count, at most 4)")
    p.add_argument("--appendfsync", choices=("always", "everysec", "no"), default="everysec",
                   help="AOF fsync policy of the embedded Redis (default everysec)")
    p.add_argument("--quick", action="store_true", help="fewer commands and shorter phases")
    p.add_argument("--redis", metavar="URL", default="",
                   help="measure on this Redis instead of an embedded one; it must be empty (the bench writes "
                        "matches and users into it and leaves them) unless --redis-allow-nonempty")
    p.add_argument("--redis-allow-nonempty", action="store_true",
                   help="with --redis: write into a database that already holds keys")
    from service.cli.bench import bots
    bots.add_arguments(p)
    p.add_argument("--http", action="store_true",
                   help="instead: the production web server (gunicorn) in separate processes, driven over HTTP by "
                        "a separate load generator at 1, 8, 16 and 32 clients, against the in-process command path")
    p.add_argument("--web-workers", type=int, default=0,
                   help="with --http: gunicorn workers (default: the server configuration's)")
    p.add_argument("--worker-class", default="",
                   help="with --http: another gunicorn worker class to compare (e.g. gthread; default: the configuration's)")
    p.add_argument("--seconds", type=float, default=0,
                   help="with --http: measured seconds per phase and client count (default 4, quick 2)")
    p.add_argument("--streams", type=int, default=0,
                   help="instead: hold N live streams from a separate process against the production web server "
                        "while commands are submitted: streams held, delivery p50/p99, command p99, memory per stream")
    p.add_argument("--stream-matches", type=int, default=10,
                   help="with --streams: the matches the streams watch (default 10)")
    p.add_argument("--command-rate", type=float, default=100.0,
                   help="with --streams: commands a second submitted while the streams are open (default 100)")
    p.add_argument("--archive", action="store_true",
                   help="instead: Redis bytes of finished matches (every game) live and archived, bytes per event, "
                        "matches per GiB, and cold page and replay times of archived matches")
    p.add_argument("--archive-matches", type=int, default=0,
                   help="with --archive: finished matches played per game (default 6, quick 3)")
    p.add_argument("--versus", action="store_true",
                   help="instead: the production server against a peer already running (--peer) and an earlier build "
                        "(--baseline), one load generator at 1, 8 and 16 clients, phases interleaved: requests/s, "
                        "p50/p99, server CPU per request (docs/performance.md)")
    p.add_argument("--peer", metavar="URL", default="",
                   help="with --versus: a running boardgame.io server with the bench game (its note move)")
    p.add_argument("--baseline", metavar="DIR", default="",
                   help="with --versus: a checkout of an earlier build, served beside this one on the same Redis")
    p.add_argument("--rounds", type=int, default=3, help="with --versus: rounds of every phase (default 3)")
    p.add_argument("--kinds", default="", help="with --versus: phases, of note,commands,state (default all)")
    p.add_argument("--failover", action="store_true",
                   help="instead: a Redis primary with two replicas and three sentinels; the web server and a worker "
                        "with TURNSTREAM_MIN_REPLICAS=1 under load; the replicas paused, the primary's host lost, a "
                        "replica promoted: acknowledged, lost, refused while unreplicated, seconds to recover")
    p.add_argument("--replica-cost", action="store_true",
                   help="instead: commands/s and p50/p99 over HTTP with TURNSTREAM_MIN_REPLICAS 0 and 1 (a primary "
                        "and two replicas; --clients, --seconds, --web-workers)")
    p.set_defaults(func=cmd_bench)


def progress(message: str) -> None:
    """One progress line on stderr."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def percentile(values: list, q: float) -> float:
    """The q-quantile (0..1) of `values`, nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def bench_games() -> dict:
    """The games the bench plays: Uchronia, plus the dice-race test game (for the 10,000-event match)."""
    from domain.games.dice_race import GAME as RACE
    from domain.games.uchronia import GAME as UCHRONIA
    return {UCHRONIA.id: UCHRONIA, RACE.id: RACE}


# -- plans: legal Uchronia command sequences, decided ahead on the real seed -------------------------------
class Plan:
    """A match and the commands that play it to its end: [(player, command)], consumed in order."""

    def __init__(self, match_id: str, steps: list):
        self.match_id = match_id
        self.steps = steps
        self.next = 0

    def take(self):
        """The next (player, command), or None when the match is over."""
        if self.next >= len(self.steps):
            return None
        self.next += 1
        return self.steps[self.next - 1]


def plan_match(service, game, players: list, seed: int) -> Plan:
    """Create a Uchronia match and decide a random legal playout on its real seed (no store writes)."""
    from domain.engine import HmacRng
    options = game.options_schema.load({})
    match = accept_for_all(service, service.create(players[0], game.id, options, players=list(players)))
    cached_match, secret = service.cache.get(match.id)
    state = copy.deepcopy(cached_match.game_state)
    rng = HmacRng(bytes.fromhex(secret), match.id, cached_match.draws)
    chooser = random.Random(seed)
    steps = []
    while game.result(state) is None and len(steps) < 2000:
        player = chooser.choice(sorted(game.active_players(state)))
        cmd = chooser.choice(game.legal_commands(state, player))
        for ev in game.decide(state, player, copy.deepcopy(cmd), rng):
            state = game.evolve(state, ev)
        steps.append((player, cmd))
    return Plan(match.id, steps)


def make_plans(service, game, count: int, players: list, seed: int) -> list:
    """`count` planned matches."""
    return [plan_match(service, game, players, seed * 100_000 + i) for i in range(count)]


# -- phases ------------------------------------------------------------------------------------------------
def raw_roundtrips(url: str, seconds: float) -> float:
    """PINGs per second from one redis-py client."""
    import redis
    r = redis.Redis.from_url(url)
    r.ping()
    n, start = 0, time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(200):
            r.ping()
        n += 200
        now = time.perf_counter()
        if now >= end:
            r.close()
            return n / (now - start)


def run_threads(plans: list, threads: int, budget: int, submit_one) -> tuple[list, float, int]:
    """Drive `plans` from `threads` threads until `budget` commands; return (latencies s, wall s, events)."""
    lock = threading.Lock()
    state = {"left": budget, "events": 0}
    latencies: list = []
    errors: list = []

    def worker(mine):
        local, events = [], 0
        live = list(mine)
        while live:
            with lock:
                if state["left"] <= 0:
                    break
                state["left"] -= 1
            plan = live.pop(0)
            step = plan.take()
            if step is None:
                with lock:
                    state["left"] += 1
                continue
            t0 = time.perf_counter()
            try:
                events += submit_one(plan, step)
            except Exception as exc:  # a failed command is a bench failure: report it after the phase
                errors.append(repr(exc))
                break
            local.append(time.perf_counter() - t0)
            live.append(plan)
        with lock:
            latencies.extend(local)
            state["events"] += events

    pool = [threading.Thread(target=worker, args=(plans[i::threads],)) for i in range(threads)]
    start = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise RuntimeError(f"{len(errors)} commands failed, first: {errors[0]}")
    return latencies, wall, state["events"]


def submit_plans(w, plans: list, threads: int, budget: int) -> tuple[list, float, int]:
    """Drive planned matches through MatchService.submit: (latencies s, wall s, events appended)."""
    service = w.matches

    def submit_one(plan, step):
        player, cmd = step
        answer = service.submit(player, plan.match_id, cmd["type"], cmd["payload"])
        return len(answer["events"])

    return run_threads(plans, threads, budget, submit_one)


def _process_main(url: str, matches: int, threads: int, budget: int, seed: int, ready, go, results) -> None:
    """One bench process: its own wiring and planned matches; submits when `go` is set."""
    from service.config import Settings
    from service.bootstrap import build
    w = build(Settings(redis_url=url, rate_limit_per_minute=10 ** 9, cache_size=100_000), games=bench_games())
    plans = make_plans(w.matches, w.games["uchronia"], matches, ["bench_p1", "bench_p2", "bench_p3"], seed)
    ready.put(seed)
    go.wait()
    start = time.time()
    latencies, _wall, events = submit_plans(w, plans, threads, budget)
    results.put((latencies, events, start, time.time()))


def in_processes(url: str, redis_client, processes: int, matches: int, threads: int, budget: int) -> dict:
    """The command path in `processes` processes at once (each `threads` threads over its own matches):
    commands per second over the whole run, latency percentiles, and Redis memory per 1,000 events."""
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    procs = [ctx.Process(target=_process_main, daemon=True,
                         args=(url, max(4, matches // processes), threads, budget // processes, 10 + i, ready, go,
                               results)) for i in range(processes)]
    for proc in procs:
        proc.start()
    try:
        for _ in procs:
            ready.get(timeout=300)
        used_before = redis_client.info("memory")["used_memory"]
        go.set()
        outcomes = [results.get(timeout=600) for _ in procs]
        used_after = redis_client.info("memory")["used_memory"]
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
    latencies = [x for o in outcomes for x in o[0]]
    events = sum(o[1] for o in outcomes)
    wall = max(o[3] for o in outcomes) - min(o[2] for o in outcomes)
    return {"processes": processes, "commands": len(latencies), "events": events, "seconds": wall,
            "commands_per_s": len(latencies) / wall, "p50_ms": percentile(latencies, 0.5) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000,
            "memory_per_1000_events_bytes": (used_after - used_before) * 1000 / max(events, 1)}


def start_http(w):
    """Serve the real app with werkzeug's threaded server in a thread; return (server, port)."""
    from werkzeug.serving import make_server

    from service import create_app
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, create_app(wiring=w), threaded=True)
    threading.Thread(target=server.serve_forever, name="bench-http", daemon=True).start()
    return server, server.server_port


def over_http(w, game, clients: int, budget: int, seed: int) -> dict:
    """Commands submitted over HTTP by `clients` concurrent keep-alive clients: throughput, p50/p99."""
    server, port = start_http(w)
    try:
        tokens, plans = {}, []
        for c in range(clients):
            users = [w.users.create(f"bench{c}_{i}") for i in range(PLAYERS)]
            tokens.update({u["id"]: u["token"] for u in users})
            plans += make_plans(w.matches, game, 2, [u["id"] for u in users], seed + c)
        local = threading.local()
        counter = iter(range(10 ** 9))

        def submit_one(plan, step):
            player, cmd = step
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            body = json.dumps({"type": cmd["type"], "payload": cmd["payload"], "command_id": f"b{next(counter)}"})
            conn.request("POST", f"/api/matches/{plan.match_id}/commands", body=body,
                         headers={"Authorization": f"Bearer {tokens[player]}", "Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read()
            if resp.status != 201:
                raise RuntimeError(f"HTTP {resp.status}: {data[:200]!r}")
            return len(json.loads(data)["events"])

        latencies, wall, _events = run_threads(plans[::2] + plans[1::2], clients, budget, submit_one)
    finally:
        server.shutdown()
    return {"clients": clients, "commands": len(latencies), "commands_per_s": len(latencies) / wall,
            "p50_ms": percentile(latencies, 0.5) * 1000, "p99_ms": percentile(latencies, 0.99) * 1000}


def replay_fold(w, match_ids: list, seconds: float) -> dict:
    """Events per second folded by the match aggregate (from decoded envelopes, no Redis)."""
    from domain.engine import aggregate as agg
    histories = [(mid, w.store.read_range(mid, 1)) for mid in match_ids]
    total = sum(len(h) for _mid, h in histories)
    folded, elapsed = 0, 0.0
    while elapsed < seconds:
        fresh = json.loads(json.dumps(histories))
        t0 = time.perf_counter()
        for mid, envs in fresh:
            agg.fold(mid, envs, w.games)
        elapsed += time.perf_counter() - t0
        folded += total
    return {"events": folded, "events_per_s": folded / elapsed}


def long_match(w, events: int):
    """A dice-race match of `events` events, built with batches of its `note` command; returns it."""
    from domain.engine import aggregate as agg

    game = w.games["dice-race"]
    match = accept_for_all(w.matches, w.matches.create("bench_a", game.id, game.options_schema.load({}),
                                                       players=["bench_a", "bench_b"]))
    note = {"type": "note", "payload": {"text": "bench"}}

    def notes(count):
        def decide(m, rng):
            return [ev for _ in range(count) for ev in agg.game_events(m.game, m.game_state, "bench_a", note, rng)]
        return decide

    while match.version < events:
        w.matches.execute(match.id, "bench_a", notes(min(500, events - match.version)))
        match = w.matches.load(match.id)
    return match


def cold_load(w, events: int) -> dict:
    """Build one dice-race match of `events` events (its `note` command), then time cold loads of it:
    folding every event, and starting from the latest replay snapshot."""
    from projections.delivery import catch_up
    from service.app.matches import MatchService
    match = long_match(w, events)
    catch_up(w.projector, w.store.keys.partition(match.id))  # writes the due snapshots
    timings, snapped, reads = [], [], []
    for _ in range(3):
        t0 = time.perf_counter()
        w.store.read(match.id, 0, with_secret=True)
        reads.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        loaded = MatchService(w.store, w.games).load(match.id)
        timings.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        MatchService(w.store, w.games, snapshots=w.matches.snapshots).load(match.id)
        snapped.append(time.perf_counter() - t0)
    return {"game": "dice-race (note command)", "events": loaded.version,
            "load_ms": statistics.median(timings) * 1000, "read_ms": statistics.median(reads) * 1000,
            "load_from_snapshot_ms": statistics.median(snapped) * 1000}


def replay_seek(w, events: int) -> dict:
    """Seek time at 50 versions of a dice-race match of `events` events, with and without snapshots."""
    from projections.delivery import catch_up
    from service.app.history import History
    from service.cli.bench.seek import measure_seek
    match = long_match(w, events)
    catch_up(w.projector, w.store.keys.partition(match.id))  # writes the due snapshots
    return measure_seek(History.from_wiring(w), match.id)


def worker_main(argv: list) -> int:
    """A real `turnstream worker` process, with the bench's games (used by the projection-lag phase)."""
    from workers import context
    from workers.runner import run_worker

    from service.config import from_env
    from service.bootstrap import build
    settings = from_env()
    context.use(build(settings, games=bench_games()))
    run_worker(settings)
    return 0


# the operator's Redis settings never reach the bench's processes: they would write the bench's matches there
BENCH_DROPS = ("REDIS_CLUSTER", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "TURNSTREAM_MIN_REPLICAS")


def bench_env(w, url: str) -> dict:
    """The environment of a service process started by the bench: its Redis, partitions, no rate limit."""
    env = {k: v for k, v in os.environ.items() if k not in BENCH_DROPS}  # the bench's Redis is a plain one
    return dict(env, REDIS_URL=url, RQ_REDIS_URL=w.settings.queue_url,
                TURNSTREAM_PARTITIONS=str(w.settings.partitions), TURNSTREAM_RECONCILE_SECONDS="1",
                TURNSTREAM_RATE_LIMIT_PER_MINUTE=str(10 ** 9),
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def start_worker(w, url: str) -> subprocess.Popen:
    """A real worker process (projections, with the bench's games) on the bench's Redis."""
    return subprocess.Popen([sys.executable, "-m", "service.cli.bench.engine", "worker"], env=bench_env(w, url),
                            cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_caught_up(w, worker: subprocess.Popen, seconds: float = 120) -> None:
    """Wait until no partition's projections lag (the worker is alive and has caught up)."""
    from projections.delivery import lagging_partitions
    deadline = time.monotonic() + seconds
    while lagging_partitions(w.redis, w.store.keys):
        if worker.poll() is not None:
            raise RuntimeError(f"the worker exited: {worker.stderr.read().decode(errors='replace')[-500:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not catch up within {seconds:.0f} s")
        time.sleep(0.05)


def stop_process(proc: subprocess.Popen) -> None:
    """SIGTERM a child, then SIGKILL it if it has not exited after 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def projection_lag(w, plans: list, samples: int, url: str) -> dict:
    """Append-to-read-model lag with a real worker process: p50/p99 over `samples` commands."""
    worker = start_worker(w, url)
    try:
        wait_caught_up(w, worker)
        lags = []
        live = [p for p in plans if p.next < len(p.steps)]
        while len(lags) < samples and live:
            plan = live[len(lags) % len(live)]
            step = plan.take()
            if step is None:
                live.remove(plan)
                continue
            player, cmd = step
            version = w.matches.submit(player, plan.match_id, cmd["type"], cmd["payload"])["version"]
            t0 = time.perf_counter()
            key = w.store.keys.summary(plan.match_id)
            while True:
                raw = w.redis.get(key)
                if raw and json.loads(raw)["version"] >= version:
                    break
                if time.perf_counter() - t0 > 30:
                    raise RuntimeError("a read model lagged more than 30 s")
                time.sleep(0.0005)
            lags.append(time.perf_counter() - t0)
    finally:
        stop_process(worker)
    return {"samples": len(lags), "p50_ms": percentile(lags, 0.5) * 1000, "p99_ms": percentile(lags, 0.99) * 1000}


# -- the command -------------------------------------------------------------------------------------------
def run(args, url: str, redis_note: str) -> dict:
    """Every phase on the Redis at `url`; return the figures."""
    from service.config import Settings
    from service.bootstrap import build
    quick = args.quick
    budget = args.commands or (2000 if quick else 6000)
    settings = Settings(redis_url=url, rate_limit_per_minute=10 ** 9, cache_size=100_000)
    w = build(settings, games=bench_games())
    uchronia = w.games["uchronia"]
    players = ["bench_p1", "bench_p2", "bench_p3"]
    n_matches = args.matches or max(16, budget // 80 + 8)
    progress(f"redis: {redis_note}")
    progress(f"planning {n_matches} Uchronia matches ({PLAYERS} players, random legal playouts on their real seeds)")
    plans = make_plans(w.matches, uchronia, n_matches, players, seed=1)
    lag_plans = make_plans(w.matches, uchronia, 4, players, seed=2)
    progress("raw redis-py round trips (PING, one client), before and after the command path")
    raw_before = raw_roundtrips(url, 1.0 if quick else 2.0)
    progress(f"  {raw_before:,.0f} round trips/s")
    progress(f"in-process command path, one process: {budget} commands, {args.threads} threads, "
             f"{n_matches} matches")
    lat, wall, _events = submit_plans(w, plans, args.threads, budget)
    single = {"commands_per_s": len(lat) / wall, "p50_ms": percentile(lat, 0.5) * 1000,
              "p99_ms": percentile(lat, 0.99) * 1000}
    progress(f"  {single['commands_per_s']:,.0f} commands/s, p50 {single['p50_ms']:.2f} ms, "
             f"p99 {single['p99_ms']:.2f} ms")
    progress(f"in-process command path, {args.processes} processes at once: {budget} commands, "
             f"{args.threads} threads each")
    inproc = in_processes(url, w.redis, args.processes, n_matches, args.threads, budget)
    progress(f"  {inproc['commands_per_s']:,.0f} commands/s, p50 {inproc['p50_ms']:.2f} ms, "
             f"p99 {inproc['p99_ms']:.2f} ms")
    raw_after = raw_roundtrips(url, 1.0 if quick else 2.0)
    raw = (raw_before + raw_after) / 2
    progress(f"  raw round trips after: {raw_after:,.0f}/s; mean {raw:,.0f}/s")
    http_budget = max(200, budget // (4 if quick else 3))
    progress(f"HTTP: {http_budget} commands, {args.clients} concurrent clients")
    over = over_http(w, uchronia, args.clients, http_budget, seed=3)
    progress(f"  {over['commands_per_s']:,.0f} commands/s, p50 {over['p50_ms']:.2f} ms, p99 {over['p99_ms']:.2f} ms")
    progress("replay fold speed")
    fold = replay_fold(w, [p.match_id for p in plans[:16]], 0.5 if quick else 1.5)
    progress(f"  {fold['events_per_s']:,.0f} events/s")
    samples = 40 if quick else 150
    progress(f"projection lag with a real worker process: {samples} commands")
    lag = projection_lag(w, lag_plans, samples, url)
    progress(f"  p50 {lag['p50_ms']:.1f} ms, p99 {lag['p99_ms']:.1f} ms")
    progress(f"cold load of a {COLD_EVENTS:,}-event match")
    cold = cold_load(w, COLD_EVENTS)
    progress(f"  {cold['load_ms']:.0f} ms (of which XRANGE + decode {cold['read_ms']:.0f} ms); "
             f"{cold['load_from_snapshot_ms']:.1f} ms from the latest snapshot")
    progress(f"replay seek in a {SEEK_EVENTS:,}-event match, with and without snapshots")
    seek = replay_seek(w, SEEK_EVENTS)
    progress(f"  {seek['with_snapshots']['ms_per_seek']:.2f} ms per seek with snapshots (K="
             f"{seek['snapshot_every']}), {seek['without_snapshots']['ms_per_seek']:.2f} ms without")
    ratio = inproc["commands_per_s"] / raw
    return {"redis": redis_note, "raw_roundtrips_per_s": round(raw, 1),
            "commands_per_s": round(inproc["commands_per_s"], 1), "ratio": round(ratio, 3),
            "p50_ms": round(inproc["p50_ms"], 3), "p99_ms": round(inproc["p99_ms"], 3),
            "in_process": {"game": "uchronia", "matches": n_matches, "processes": args.processes,
                           "threads_per_process": args.threads, "commands": inproc["commands"],
                           "events": inproc["events"], "seconds": round(inproc["seconds"], 3),
                           "projections": "not followed in this phase (no worker runs)"},
            "single_process": {k: round(v, 3) for k, v in single.items()},
            "single_process_ratio": round(single["commands_per_s"] / raw, 3),
            "http": {k: round(v, 3) if isinstance(v, float) else v for k, v in over.items()},
            "replay_fold_events_per_s": round(fold["events_per_s"], 1),
            "cold_load": {k: round(v, 2) if isinstance(v, float) else v for k, v in cold.items()},
            "replay_seek": seek,
            "projection_lag": {k: round(v, 2) if isinstance(v, float) else v for k, v in lag.items()},
            "memory_per_1000_events_bytes": round(inproc["memory_per_1000_events_bytes"])}


def report(figures: dict) -> str:
    """The figures as readable lines."""
    http_ = figures["http"]
    cold = figures["cold_load"]
    lines = [
        f"redis:                 {figures['redis']}",
        f"raw round trips:       {figures['raw_roundtrips_per_s']:,.0f}/s (PING, one redis-py client)",
        f"command path:          {figures['commands_per_s']:,.0f} commands/s, p50 {figures['p50_ms']:.2f} ms, "
        f"p99 {figures['p99_ms']:.2f} ms ({figures['in_process']['processes']} processes x "
        f"{figures['in_process']['threads_per_process']} threads, {figures['in_process']['matches']} Uchronia matches)",
        f"ratio:                 {figures['ratio']:.3f} (commands/s over raw round trips/s)",
        f"one process:           {figures['single_process']['commands_per_s']:,.0f} commands/s, p50 "
        f"{figures['single_process']['p50_ms']:.2f} ms, p99 {figures['single_process']['p99_ms']:.2f} ms, "
        f"ratio {figures['single_process_ratio']:.3f}",
        f"HTTP:                  {http_['commands_per_s']:,.0f} commands/s, p50 {http_['p50_ms']:.2f} ms, "
        f"p99 {http_['p99_ms']:.2f} ms ({http_['clients']} clients)",
        f"replay fold:           {figures['replay_fold_events_per_s']:,.0f} events/s",
        f"cold load:             {cold['load_ms']:.0f} ms for {cold['events']:,} events ({cold['game']}), "
        f"{cold['load_from_snapshot_ms']:.1f} ms from the latest snapshot",
        f"replay seek:           {figures['replay_seek']['with_snapshots']['ms_per_seek']:.2f} ms with snapshots "
        f"(K={figures['replay_seek']['snapshot_every']}), "
        f"{figures['replay_seek']['without_snapshots']['ms_per_seek']:.2f} ms without, "
        f"{figures['replay_seek']['events']:,}-event match",
        f"projection lag:        p50 {figures['projection_lag']['p50_ms']:.1f} ms, "
        f"p99 {figures['projection_lag']['p99_ms']:.1f} ms",
        f"redis memory:          {figures['memory_per_1000_events_bytes']:,} bytes per 1,000 events",
    ]
    return "\n".join(lines)


class BenchRefused(RuntimeError):
    """The bench will not write into the database it was given."""


@contextlib.contextmanager
def bench_redis(appendfsync: str, url: str = "", allow_nonempty: bool = False):
    """(url, description) of the Redis given with --redis (refused when it holds keys, unless allowed), else of
    an embedded redis-server in a temporary directory. REDIS_URL is never read: it may name real data."""
    if url:
        import redis
        from redis.exceptions import RedisError
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
            keys = client.dbsize()
            client.close()
        except (RedisError, ValueError) as exc:
            raise BenchRefused(f"--redis {url}: {exc}") from None
        if keys and not allow_nonempty:
            raise BenchRefused(f"--redis {url} holds {keys} keys; the bench writes matches and users into the "
                               f"database it measures and leaves them there: give an empty database, or add "
                               f"--redis-allow-nonempty to write into this one on purpose")
        yield url, f"{url} (--redis; its own persistence settings)"
        return
    from service.server.embedded_redis import EmbeddedRedis
    tmp = tempfile.mkdtemp(prefix="turnstream-bench-")
    try:
        server = EmbeddedRedis(tmp, appendfsync=appendfsync).start()
        try:
            yield server.url, f"embedded redis-server, AOF appendfsync {appendfsync}, data in {tmp}"
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cmd_bench(args) -> int:
    """Run the benchmark on an embedded Redis in a temporary directory, or on --redis URL (--bots: the bot
    levels; --http: the production web server)."""
    if args.bots:
        from service.cli.bench.bots import cmd_bench_bots
        return cmd_bench_bots(args)
    if args.failover or args.replica_cost:  # on a Redis group of their own
        from service.cli.bench.failover import cmd_failover
        return cmd_failover(args)
    measure, describe = run, report
    if args.http:
        from service.cli.bench import http
        measure, describe = http.run_http, http.report
    if args.streams:
        from service.cli.bench import streams
        measure, describe = streams.run_streams, streams.report
    if args.archive:
        from service.cli.bench import archive
        measure, describe = archive.run_archive_bench, archive.report_archive
    if args.versus:
        from service.cli.bench import versus
        measure, describe = versus.run_versus, versus.report
    try:
        with bench_redis(args.appendfsync, args.redis, args.redis_allow_nonempty) as (url, note):
            figures = measure(args, url, note)
    except RuntimeError as exc:
        print(f"turnstream bench: {exc}", file=sys.stderr)
        return 2
    print(describe(figures), flush=True)
    if args.json:
        print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        sys.exit(worker_main(sys.argv[2:]))
    parser = argparse.ArgumentParser(prog="python -m service.cli.bench.engine")
    add_commands(parser.add_subparsers(dest="command", required=True))
    parsed = parser.parse_args()
    sys.exit(parsed.func(parsed))
