"""`turnstream bench --versus`: the production server against a peer server already running (boardgame.io in memory,
docs/performance.md says how to start it) and, with `--baseline DIR`, against an earlier build of turnstream, all
driven by one load generator in one run, their phases interleaved so that the machine's changing speed falls on
each alike. Per phase: moves/s, p50/p99 and the CPU per move of each server's processes (from /proc)."""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from service.bootstrap import build
from service.cli.bench import common, http as bench_http
from service.cli.bench.common import progress
from service.cli.bench.http import LoadGenerator, Request
from service.config import Settings
from service.server.embedded_redis import free_port

CLIENT_COUNTS = (1, 8, 16)
KINDS = {"note": "dice-race note", "commands": "Uchronia command", "state": "GET /state"}
PEER_GAME = "bench"  # the peer's game name: POST /games/bench/create, /join, /<match>/move


# -- the peer: a boardgame.io server with the bench game (docs/performance.md) -----------------------------------
def _post(port: int, path: str, body: dict) -> dict:
    """POST a JSON body to the peer; its JSON answer (a RuntimeError unless 200)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
    finally:
        conn.close()
    if resp.status != 200:
        raise RuntimeError(f"the peer answered POST {path} with HTTP {resp.status}: {data[:200]!r}")
    return json.loads(data)


def peer_matches(port: int, count: int) -> list:
    """`count` matches created on the peer with player 0 seated: [(match id, player id, credentials)]."""
    matches = []
    for _ in range(count):
        match_id = _post(port, f"/games/{PEER_GAME}/create", {"numPlayers": 2})["matchID"]
        joined = _post(port, f"/games/{PEER_GAME}/{match_id}/join", {"playerID": "0", "playerName": "bench"})
        matches.append((match_id, "0", joined["playerCredentials"]))
    return matches


def listening_pids(port: int) -> list:
    """The pids of this user's processes holding a socket that listens on TCP `port` (the peer's server)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(f"socket:[{fields[9]}]")
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if any(os.readlink(f"/proc/{entry}/fd/{fd}") in inodes for fd in os.listdir(f"/proc/{entry}/fd")):
                pids.append(int(entry))
        except OSError:
            continue
    return pids


# -- the load generator --------------------------------------------------------------------------------------------
class VersusLoad(LoadGenerator):
    """The bench's load generator over several servers: each phase names its target (its port and its own matches)."""
    def __init__(self, ports: dict, sets: dict, peer: list, cpu_pids: dict):
        super().__init__(ports["turnstream"], sets["turnstream"], cpu_pids)
        self.ports, self.sets, self.peer = ports, sets, peer
        self.peer_state = [0] * len(peer)  # each peer match's stateID, carried from phase to phase

    def target(self, name: str) -> None:
        """Aim the next phase at server `name`, with its matches."""
        self.port = self.ports[name]
        if name in self.sets:
            data = self.sets[name]
            self.pool, self.tokens, self.notes, self.state_targets = (data["plans"], data["tokens"], data["notes"],
                                                                      data["state_targets"])

    def play(self, kind: str, index: int):
        """A client's request loop; `peer` sends the peer's note move on the client's own match."""
        if kind != "peer":
            return super().play(kind, index)
        match_id, player, credentials = self.peer[index]
        path = f"/games/{PEER_GAME}/{match_id}/move"

        def moved(_body):  # the peer refuses a stale stateID: the next one is ours
            self.peer_state[index] += 1

        def next_move():
            body = json.dumps({"playerID": player, "credentials": credentials, "stateID": self.peer_state[index],
                               "move": "note", "args": ["bench"]}).encode()
            return Request("POST", path, "", body, 200, moved)
        return next_move, lambda: None


def _load_main(ports: dict, sets: dict, peer: list, cpu_pids: dict, orders, answers) -> None:
    """The load-generator process: runs the (target, kind, clients, seconds) phases it is sent."""
    gen = VersusLoad(ports, sets, peer, cpu_pids)
    while True:
        order = orders.get()
        if order is None:
            return
        target, kind, clients, seconds = order
        try:
            gen.target(target)
            answers.put(gen.phase(kind, clients, seconds))
        except Exception as exc:  # the bench process reports it and stops
            answers.put({"error": repr(exc)})


# -- the servers ---------------------------------------------------------------------------------------------------
def baseline_server(w, url: str, root: Path, workers: int) -> tuple[subprocess.Popen, int]:
    """The production server of the checkout at `root` (an earlier build), on the same Redis."""
    port = free_port()
    cmd = [sys.executable, "-m", "gunicorn", "-c", str(root / _gunicorn_conf(root))]
    cmd += (["--workers", str(workers)] if workers else []) + ["--bind", f"127.0.0.1:{port}", "--log-level",
                                                               "warning", _bench_app(root)]
    env = dict(common.bench_env(w, url), TURNSTREAM_BIND=f"127.0.0.1:{port}", TURNSTREAM_ACCESS_LOG="",
               PYTHONPATH=str(root))
    proc = subprocess.Popen(cmd, env=env, cwd=str(root), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    bench_http.wait_healthy(proc, port)
    return proc, port


def _gunicorn_conf(root: Path) -> str:
    """The gunicorn configuration named by the web line of the checkout's Procfile (it moved between builds)."""
    web = next((line for line in (root / "Procfile").read_text().splitlines() if line.startswith("web:")), "")
    found = re.search(r"-c\s+(\S+)", web)
    if not found:
        raise RuntimeError(f"{root / 'Procfile'}: no web line with a gunicorn -c configuration")
    return found.group(1)


def _bench_app(root: Path) -> str:
    """The bench's app factory in the checkout at `root` (its module moved between builds)."""
    for module in ("service/cli/bench/http.py", "service/benchmarks/http.py"):
        if "def bench_app(" in ((root / module).read_text() if (root / module).exists() else ""):
            return module[:-3].replace("/", ".") + ":bench_app()"
    raise RuntimeError(f"{root}: no bench_app() in service/cli/bench/http.py or service/benchmarks/http.py")


def plan(args) -> list:
    """The phases of one round, in order: (target, kind, clients); a round's targets alternate their order."""
    kinds = [k.strip() for k in (args.kinds or "note,commands,state").split(",") if k.strip()]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise RuntimeError(f"--kinds: no phase {', '.join(sorted(unknown))}; known: {', '.join(KINDS)}")
    phases = []
    for clients in CLIENT_COUNTS:
        for kind in kinds:
            targets = ["turnstream"] + (["baseline"] if args.baseline else [])
            if kind == "note" and args.peer:
                targets.append("peer")
            phases += [(target, kind, clients) for target in targets]
    return phases


def run_versus(args, url: str, note: str) -> dict:
    """Every round of interleaved phases; the figures of each phase of each round."""
    seconds, rounds = args.seconds or 2.0, args.rounds
    phases = plan(args)
    peer_port = (urlsplit(args.peer).port or 80) if args.peer else 0
    peer_pids = listening_pids(peer_port) if args.peer else []
    if args.peer and not peer_pids:
        raise RuntimeError(f"no process of this user listens on port {peer_port} ({args.peer})")
    w = build(Settings(redis_url=url, rate_limit_per_minute=10 ** 9, cache_size=100_000), games=common.bench_games())
    load = float(open("/proc/loadavg").read().split()[0])
    progress(f"redis: {note}; load average {load:.1f} on {os.cpu_count()} cores")
    commands_phases = sum(1 for p in phases if p[1] == "commands" and p[0] == "turnstream") * rounds
    count = int(commands_phases * (seconds + bench_http.WARMUP_SECONDS + 1) * 1500 / 100) + 2 * max(CLIENT_COUNTS)
    servers = ["turnstream"] + (["baseline"] if args.baseline else [])
    progress(f"preparing {count} planned Uchronia matches and {max(CLIENT_COUNTS)} note matches for each of "
             f"{', '.join(servers)}")
    sets = {name: bench_http.prepare(w, count, max(CLIENT_COUNTS)) for name in servers}
    peer = peer_matches(peer_port, max(CLIENT_COUNTS)) if args.peer else []
    worker = common.start_worker(w, url)
    procs, ports = [], {"peer": peer_port}
    loadgen, orders = None, None
    try:
        common.wait_caught_up(w, worker)
        proc, ports["turnstream"] = bench_http.start_server(w, url, args.web_workers)
        procs.append(proc)
        cpu_pids = {"web": bench_http.children(proc.pid), "redis": [int(w.redis.info("server")["process_id"])],
                    "worker": [worker.pid], "peer": peer_pids}
        if args.baseline:
            proc, ports["baseline"] = baseline_server(w, url, Path(args.baseline).resolve(), args.web_workers)
            procs.append(proc)
            cpu_pids["baseline_web"] = bench_http.children(proc.pid)
        progress(f"servers: turnstream :{ports['turnstream']} ({len(cpu_pids['web'])} web workers)"
                 + (f", baseline {args.baseline} :{ports['baseline']}" if args.baseline else "")
                 + (f", peer {args.peer} (pids {' '.join(map(str, peer_pids))})" if args.peer else ""))
        ctx = multiprocessing.get_context("spawn")
        orders, answers = ctx.Queue(), ctx.Queue()
        loadgen = ctx.Process(target=_load_main, daemon=True, args=(ports, sets, peer, cpu_pids, orders, answers))
        loadgen.start()
        results = []
        for r in range(rounds):
            for target, kind, clients in (phases if r % 2 == 0 else _flip(phases)):
                orders.put((target, "peer" if target == "peer" else kind, clients, seconds))
                out = answers.get(timeout=seconds * 20 + 120)
                if "error" in out:
                    raise RuntimeError(f"{target} {kind} at {clients} clients: {out['error']}")
                fig = dict(bench_http.summarise(out), round=r + 1, target=target, kind=kind, clients=clients)
                fig["server_cpu_ms"] = server_cpu(fig)
                results.append(fig)
                progress(f"round {r + 1} {target:<10} {kind:<8} {clients:>2} clients: {fig['per_s']:,.0f}/s, "
                         f"p50 {fig['p50_ms']:.1f} ms, p99 {fig['p99_ms']:.1f} ms, server CPU "
                         f"{fig['server_cpu_ms']:.3f} ms per request")
        orders.put(None)
    finally:
        if loadgen is not None:
            loadgen.join(10)
            if loadgen.is_alive():
                loadgen.kill()
        for proc in procs:
            common.stop_process(proc)
        common.stop_process(worker)
    return {"redis": note, "load_average_at_start": load, "seconds": seconds, "rounds": rounds,
            "peer": args.peer, "baseline": args.baseline, "phases": results}


def _flip(phases: list) -> list:
    """The same phases with each group's targets in the opposite order (so neither always goes first)."""
    out, group = [], []
    for phase in phases + [None]:
        if group and (phase is None or phase[1:] != group[0][1:]):
            out += group[::-1]
            group = []
        if phase is not None:
            group.append(phase)
    return out


def server_cpu(fig: dict) -> float:
    """The CPU per request of the phase's server: web workers and Redis for a turnstream build, node for the peer."""
    cpu = fig["cpu_ms_per_request"]
    if fig["target"] == "peer":
        return cpu["peer"]
    return cpu["baseline_web" if fig["target"] == "baseline" else "web"] + cpu["redis"]


def _span(values: list, fmt: str) -> str:
    """`low-high` of the values (one value alone when they agree in that format)."""
    low, high = format(min(values), fmt), format(max(values), fmt)
    return low if low == high else f"{low}-{high}"


def _median_span(values: list, fmt: str) -> str:
    """`median (low-high)` of the values (one value alone when they agree in that format)."""
    span = _span(values, fmt)
    return span if "-" not in span else f"{format(statistics.median(values), fmt)} ({span})"


def report(fig: dict) -> str:
    """Ranges over the rounds per target, kind and client count (server CPU: the median too); the ratios the issue
    asks for, round by round."""
    rows = fig["phases"]
    lines = [f"redis:        {fig['redis']}", f"load average: {fig['load_average_at_start']:.1f} at the start; "
             f"{fig['rounds']} round{'s' if fig['rounds'] != 1 else ''} of {fig['seconds']:g} s phases, interleaved",
             "server CPU: web workers + Redis for turnstream, the node process for the peer (ms per request); "
             "ranges over the rounds",
             f"{'target':<11}{'phase':<18}{'clients':>8}{'per s':>14}{'p50 ms':>11}{'p99 ms':>12}"
             f"{'web ms':>13}{'Redis ms':>13}{'server ms':>23}{'worker ms':>12}"]
    keys = sorted({(r["kind"], r["clients"], r["target"]) for r in rows},
                  key=lambda k: (list(KINDS).index(k[0]), k[1], ["turnstream", "baseline", "peer"].index(k[2])))
    for kind, clients, target in keys:
        group = [r for r in rows if (r["kind"], r["clients"], r["target"]) == (kind, clients, target)]
        cpu = [r["cpu_ms_per_request"] for r in group]
        web = "" if target == "peer" else _span([c["baseline_web" if target == "baseline" else "web"] for c in cpu],
                                                 ".3f")
        redis = "" if target == "peer" else _span([c["redis"] for c in cpu], ".3f")
        worker = "" if target == "peer" else _span([c["worker"] for c in cpu], ".3f")
        lines.append(f"{target:<11}{KINDS[kind]:<18}{clients:>8}{_span([r['per_s'] for r in group], ',.0f'):>14}"
                     f"{_span([r['p50_ms'] for r in group], '.1f'):>11}{_span([r['p99_ms'] for r in group], '.1f'):>12}"
                     f"{web:>13}{redis:>13}{_median_span([r['server_cpu_ms'] for r in group], '.3f'):>23}"
                     f"{worker:>12}")
    for other, label in (("peer", "over the peer"), ("baseline", "over the baseline")):
        ratios = ratios_over(rows, other)
        for (kind, clients), (cpu, rate) in sorted(ratios.items(), key=lambda kv: (list(KINDS).index(kv[0][0]),
                                                                                    kv[0][1])):
            lines.append(f"turnstream {label}, {KINDS[kind]}, {clients} client{'s' if clients != 1 else ''}: "
                         f"server CPU per request {_median_span(cpu, '.2f')}x, requests/s {_median_span(rate, '.2f')}x")
    return "\n".join(lines)


def ratios_over(rows: list, other: str) -> dict:
    """{(kind, clients): ([turnstream's server CPU over `other`'s, per round], [its requests/s over theirs])}."""
    by = {(r["round"], r["kind"], r["clients"], r["target"]): r for r in rows}
    out: dict = {}
    for (rnd, kind, clients, target), mine in by.items():
        theirs = by.get((rnd, kind, clients, other))
        if target != "turnstream" or theirs is None or not theirs["server_cpu_ms"] or not theirs["per_s"]:
            continue
        cpu, rate = out.setdefault((kind, clients), ([], []))
        cpu.append(mine["server_cpu_ms"] / theirs["server_cpu_ms"])
        rate.append(mine["per_s"] / theirs["per_s"])
    return out
