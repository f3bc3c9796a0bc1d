"""`turnstream bench`: measures the command path against raw Redis round trips, all on one Redis."""
from __future__ import annotations

import copy
import http.client
import json
import logging
import multiprocessing
import random
import statistics
import threading
import time

import redis
from werkzeug.serving import make_server

from domain.engine import HmacRng
from domain.engine import aggregate as agg
from projections.delivery import catch_up
from service import create_app
from service.app.history import History
from service.app.invitations import accept_for_all
from service.app.matches import MatchService
from service.bootstrap import build
from service.cli.bench.common import (
    PLAYERS, bench_games, percentile, progress, start_worker, stop_process, wait_caught_up)
from service.cli.bench.seek import measure_seek
from service.config import Settings

COLD_EVENTS = 10_000
SEEK_EVENTS = 5_000


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
    match = long_match(w, events)
    catch_up(w.projector, w.store.keys.partition(match.id))  # writes the due snapshots
    return measure_seek(History.from_wiring(w), match.id)


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
