"""`turnstream bench --http`: the production web server, in its own processes, driven over HTTP by a separate
load generator, compared with the in-process command path of the same run."""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import selectors
import socket
import subprocess
import sys
import threading
import time
from typing import Callable, NamedTuple

from domain.games import load_games
from service import create_app
from service.app.invitations import accept_for_all
from service.bootstrap import build
from service.cli.bench import common, engine
from service.cli.bench.common import PLAYERS, ROOT, percentile, progress
from service.config import Settings
from service.server.embedded_redis import free_port

CLIENT_COUNTS = (1, 8, 16, 32)
WARMUP_SECONDS = 0.5
TICKS = os.sysconf("SC_CLK_TCK")
APP = "service.cli.bench.http:bench_app()"
NOTE = {"type": "note", "payload": {"text": "bench"}}
INPROC_REPEATS = 3  # in-process runs; the median one is reported
STATE_MATCHES = 64  # GET /state reads these matches (each web worker caches them after its first read)


def bench_app():
    """The production app with every registered game plus the bench's dice-race (gunicorn's target here)."""
    return create_app(wiring=build(games={**load_games(), **common.bench_games()}))


# -- the server: what the Procfile runs ---------------------------------------------------------------------
def server_command(port: int, workers: int, worker_class: str = "") -> list:
    """gunicorn as the Procfile starts it: the shared server configuration when there is one, else the same
    settings on the command line (gevent workers); the bind address, worker count and class for the bench."""
    conf = ROOT / "service" / "server" / "gunicorn_conf.py"
    cmd = [sys.executable, "-m", "gunicorn"]
    if conf.exists():
        cmd += ["-c", str(conf)]
    else:
        cmd += ["--worker-class", "gevent", "--worker-connections", "1000", "--timeout", "30",
                "--keep-alive", "5", "--workers", "2"]
    if workers:
        cmd += ["--workers", str(workers)]
    if worker_class:
        cmd += ["--worker-class", worker_class] + (["--threads", "16"] if worker_class == "gthread" else [])
    return cmd + ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", APP]


def start_server(w, url: str, workers: int, worker_class: str = "") -> tuple[subprocess.Popen, int]:
    """Start the web server on a free port and wait until /healthz answers; return (process, port)."""
    port = free_port()
    env = dict(common.bench_env(w, url), TURNSTREAM_BIND=f"127.0.0.1:{port}", TURNSTREAM_ACCESS_LOG="")
    proc = subprocess.Popen(server_command(port, workers, worker_class), env=env, cwd=str(ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    wait_healthy(proc, port)
    return proc, port


def wait_healthy(proc: subprocess.Popen, port: int) -> None:
    """Wait until the server started as `proc` answers /healthz on `port` (stopped, and a RuntimeError, after 60 s)."""
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the web server exited: {proc.stderr.read().decode(errors='replace')[-800:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            common.stop_process(proc)
            raise RuntimeError("the web server did not answer /healthz within 60 s")
        time.sleep(0.2)


def children(pid: int) -> list:
    """The pids whose parent is `pid` (gunicorn's workers)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _proc_total(pids, name: str, field) -> float:
    """The sum over `pids` of `field(text of /proc/<pid>/<name>)` (0 for a process that is gone)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/{name}") as f:
                total += field(f.read())
        except (OSError, IndexError, ValueError):
            continue
    return total


def cpu_seconds(pids) -> float:
    """User + system CPU seconds used so far by these processes (0 for one that is gone)."""
    def user_and_system(text):
        fields = text.rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    return _proc_total(pids, "stat", user_and_system) / TICKS


def runqueue_seconds(pids) -> float:
    """Seconds these processes' main threads have spent runnable but waiting for a core (/proc/<pid>/schedstat;
    0 for one that is gone or a kernel without schedstats)."""
    return _proc_total(pids, "schedstat", lambda text: int(text.split()[1])) / 1e9


# -- the load generator (its own process) -------------------------------------------------------------------
class Client:
    """One keep-alive HTTP/1.1 client on a raw socket: a request is one send, a response is read by its
    Content-Length. http.client parsed every response's headers with the email package and cost the load
    generator about 0.2-0.3 ms of CPU per request, taken from the two cores the server is measured on."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def call(self, method: str, path: str, token: str, body: bytes | None = None, expect: int = 200) -> bytes:
        """Send one request; raise unless the status is `expect`."""
        self.send(method, path, token, body)
        response = self.parsed()
        while response is None:
            self.buffer += self._recv()
            response = self.parsed()
        return checked(response, expect, method, path)

    def send(self, method: str, path: str, token: str, body: bytes | None = None) -> None:
        """Send one request (its response is read by `call`, or by `feed` when the socket is readable)."""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.sock.sendall(head.encode() + b"\r\n" + (body or b""))

    def feed(self) -> tuple[int, bytes] | None:
        """Read what the (readable) socket holds: (status, body) once the next response is whole, else None."""
        self.buffer += self._recv()
        return self.parsed()

    def parsed(self) -> tuple[int, bytes] | None:
        """(status, body) of the next response when the buffer holds it whole (taken from the buffer), else None."""
        buffer = self.buffer
        end = buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = buffer[:end].lower()
        at = head.find(b"\r\ncontent-length:")
        if at < 0:
            raise RuntimeError(f"a response without Content-Length: {bytes(buffer[:end])[:300]!r}")
        line_end = head.find(b"\r\n", at + 2)
        length = int(head[at + 17:line_end if line_end > 0 else len(head)])
        start = end + 4
        if len(buffer) < start + length:
            return None
        self.buffer = buffer[start + length:]
        return int(head[9:12]), buffer[start:start + length]

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk


def checked(response: tuple[int, bytes], expect: int, method: str, path: str) -> bytes:
    """The response's body; a RuntimeError unless its status is `expect`."""
    status, data = response
    if status != expect:
        raise RuntimeError(f"{method} {path}: HTTP {status} {data[:300]!r}")
    return data


class Request(NamedTuple):
    """One request of a client's loop, and what to do with its answer's body."""
    method: str
    path: str
    token: str
    body: bytes | None
    expect: int
    done: Callable[[bytes], None] | None = None


class LoadGenerator:
    """Plays the planned matches over HTTP from `clients` threads; one phase at a time."""
    def __init__(self, port: int, data: dict, cpu_pids: dict):
        self.port = port
        self.pool = data["plans"]  # [(match id, [(player, command)])], taken by clients as they need a match
        self.tokens = data["tokens"]
        self.notes = data["notes"]  # [(match id, player)] of dice-race matches
        self.state_targets = data["state_targets"]  # [(match id, player)] whose state is read
        self.cpu_pids = cpu_pids  # {"web": [...], "redis": [...], "worker": [...]}
        self.lock = threading.Lock()
        self.sequence = 0

    def next_plan(self):
        """A match with commands left, or None when the pool is empty."""
        with self.lock:
            return self.pool.pop() if self.pool else None

    def command_id(self) -> str:
        """A fresh command id (so every command is also an idempotency key, as a careful client sends)."""
        with self.lock:
            self.sequence += 1
            return f"b{self.sequence}"

    def play(self, kind: str, index: int):
        """A client's loop for a phase: (the next request, or None when it has no more; what to do at the end)."""
        if kind == "commands":
            current = {"plan": None, "step": 0}

            def next_request():
                plan = current["plan"]
                while plan is None or current["step"] >= len(plan[1]):
                    plan = current["plan"] = self.next_plan()
                    current["step"] = 0
                    if plan is None:
                        return None
                player, cmd = plan[1][current["step"]]
                current["step"] += 1
                body = json.dumps({"type": cmd["type"], "payload": cmd["payload"],
                                   "command_id": self.command_id()}).encode()
                return Request("POST", f"/api/matches/{plan[0]}/commands", self.tokens[player], body, 201)

            def hand_back():  # an unfinished match goes back to the pool for the next phase
                if current["plan"] is not None:
                    with self.lock:
                        self.pool.append((current["plan"][0], current["plan"][1][current["step"]:]))
            return next_request, hand_back
        if kind == "note":
            match_id, player = self.notes[index % len(self.notes)]
            note = Request("POST", f"/api/matches/{match_id}/commands", self.tokens[player], json.dumps(NOTE).encode(),
                           201)
            return (lambda: note), (lambda: None)
        matches = self.state_targets

        def next_read():
            match_id, player = matches[random.randrange(len(matches))]
            return Request("GET", f"/api/matches/{match_id}/state", self.tokens[player], None, 200)
        return next_read, lambda: None

    def phase(self, kind: str, clients: int, seconds: float) -> dict:
        """Run `clients` clients for a warm-up and then `seconds` measured; latencies, CPU, counts. One thread
        drives every client's socket through one epoll set: a response is timed when its last byte is read, not
        when a thread of the generator wins the GIL (16 client threads added up to 20 ms to the p99)."""
        loops = [self.play(kind, i) for i in range(clients)]
        conns = [Client(self.port) for _ in loops]
        selector = selectors.DefaultSelector()
        in_flight: dict = {}  # client index: (its request, when it was sent)
        latencies, errors = [], []

        def start(i: int) -> None:
            request = loops[i][0]()
            if request is not None:
                in_flight[i] = (request, time.perf_counter())
                conns[i].send(request.method, request.path, request.token, request.body)

        try:
            for i, conn in enumerate(conns):
                selector.register(conn.sock, selectors.EVENT_READ, i)
            for i in range(clients):
                start(i)
            clock = Window(self.cpu_pids, WARMUP_SECONDS, seconds)
            while in_flight and not clock.over():
                for key, _ in selector.select(clock.wait()):
                    i = key.data
                    try:
                        response = conns[i].feed()
                        if response is None:
                            continue
                        request, sent = in_flight.pop(i)
                        data = checked(response, request.expect, request.method, request.path)
                        if clock.measuring:
                            latencies.append(time.perf_counter() - sent)
                        if request.done is not None:
                            request.done(data)
                        if not clock.stopping:
                            start(i)
                    except Exception as exc:  # a failed request fails the phase; the bench reports it
                        errors.append(repr(exc))
                        in_flight.pop(i, None)
                        selector.unregister(conns[i].sock)
        finally:
            selector.close()
            for conn in conns:
                conn.sock.close()
        for _next, hand_back in loops:
            hand_back()
        if errors:
            raise RuntimeError(f"{len(errors)} clients failed, first: {errors[0]}")
        if in_flight:
            raise RuntimeError(f"{len(in_flight)} requests unanswered 60 s after the phase")
        return {"latencies": latencies, **clock.figures()}


class Window:
    """A phase's clock: a warm-up, then `seconds` measured (CPU and run-queue time of the servers and of this
    process read at both ends), then the requests in flight drained for at most 60 s."""

    def __init__(self, cpu_pids: dict, warmup: float, seconds: float):
        self.cpu_pids, self.seconds = cpu_pids, seconds
        self.starts = time.perf_counter() + warmup
        self.ends = self.deadline = float("inf")  # set when the window opens
        self.measuring = self.stopping = False
        self.before = self.after = None

    def wait(self) -> float:
        """How long the next select may wait before the clock must look again; starts and ends the window."""
        now = time.perf_counter()
        if not self.measuring and not self.stopping and now >= self.starts:
            self.before, self.measuring = self._read(), True
            self.ends = self.before[0] + self.seconds
            self.deadline = self.ends + 60
        elif self.measuring and now >= self.ends:
            self.after, self.measuring, self.stopping = self._read(), False, True
        ahead = self.starts if not self.measuring and not self.stopping else self.ends
        return max(0.0, ahead - now) if not self.stopping else max(0.0, self.deadline - now)

    def over(self) -> bool:
        """True once the drain's deadline has passed."""
        return time.perf_counter() > self.deadline

    def _read(self) -> tuple:
        """(now, CPU seconds by group, run-queue seconds by group, this process's CPU seconds)."""
        return (time.perf_counter(), {name: cpu_seconds(group) for name, group in self.cpu_pids.items()},
                {name: runqueue_seconds(group) for name, group in self.cpu_pids.items()}, sum(os.times()[:2]))

    def figures(self) -> dict:
        """The window's wall time, CPU and run-queue time by group (the load generator's own CPU included)."""
        if self.after is None:  # every client stopped before the window ended
            self.after = self._read()
            self.before = self.before or self.after
        (t0, cpu0, queue0, own0), (t1, cpu1, queue1, own1) = self.before, self.after
        cpu = {name: cpu1[name] - cpu0[name] for name in cpu0}
        cpu["load_generator"] = own1 - own0
        return {"wall": t1 - t0, "cpu": cpu, "queued": {name: queue1[name] - queue0[name] for name in queue0}}


def _load_main(port: int, data: dict, cpu_pids: dict, orders, answers) -> None:
    """The load-generator process: runs the phases it is sent, answers their figures."""
    gen = LoadGenerator(port, data, cpu_pids)
    while True:
        order = orders.get()
        if order is None:
            return
        try:
            answers.put(gen.phase(*order))
        except Exception as exc:  # the bench process reports it and stops
            answers.put({"error": repr(exc)})


# -- projection lag while the load runs ---------------------------------------------------------------------
class LagSampler:
    """Samples append-to-projection lag: a partition-log entry seen not yet projected is timed from its
    stream id (Redis's clock at the append, ms) until the partition's checkpoint passes it."""

    def __init__(self, w, partitions: list):
        self.w = w
        self.partitions = sorted(set(partitions))
        self.lags: list = []
        self._stop = threading.Event()
        self._thread = None

    def start(self) -> None:
        """Start sampling in a thread."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="lag-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> list:
        """Stop; return the lags (seconds) sampled since start."""
        self._stop.set()
        self._thread.join(30)
        lags, self.lags = self.lags, []
        return lags

    def _run(self) -> None:
        keys, r = self.w.store.keys, self.w.redis
        while not self._stop.wait(0.01):
            p = random.choice(self.partitions)
            pipe = r.pipeline(transaction=False)
            pipe.xrevrange(keys.log(p), "+", "-", count=1)
            pipe.get(keys.checkpoint(p))
            tip, ckpt = pipe.execute()
            if not tip or _stream_id(tip[0][0]) <= _stream_id(ckpt):
                continue
            target = _stream_id(tip[0][0])
            while not self._stop.is_set():
                if _stream_id(r.get(keys.checkpoint(p))) >= target:
                    self.lags.append(max(0.0, time.time() - target[0] / 1000))
                    break
                time.sleep(0.001)


def _stream_id(raw) -> tuple:
    """A stream id as (ms, seq); (0, 0) for none."""
    if not raw:
        return (0, 0)
    ms, _, seq = str(raw).partition("-")
    return (int(ms), int(seq or 0))


# -- the phases ---------------------------------------------------------------------------------------------
def prepare(w, count: int, note_clients: int) -> dict:
    """Users, planned Uchronia matches (each with its own players) and one dice-race match per client."""
    uchronia, race = w.games["uchronia"], w.games["dice-race"]
    tokens, plans, state_targets = {}, [], []
    for i in range(count):
        users = [w.users.create(f"h{i}_{k}") for k in range(PLAYERS)]
        tokens.update({u["id"]: u["token"] for u in users})
        plan = engine.plan_match(w.matches, uchronia, [u["id"] for u in users], seed=7_000 + i)
        plans.append((plan.match_id, plan.steps))
        if i < STATE_MATCHES:
            state_targets.append((plan.match_id, users[i % PLAYERS]["id"]))
    notes = []
    for i in range(note_clients):
        users = [w.users.create(f"n{i}_{k}") for k in range(2)]
        tokens.update({u["id"]: u["token"] for u in users})
        match = accept_for_all(w.matches, w.matches.create(users[0]["id"], race.id, race.options_schema.load({}),
                                                           players=[u["id"] for u in users]))
        notes.append((match.id, match.game_state["players"][match.game_state["turn"]]))
    return {"plans": plans, "tokens": tokens, "notes": notes, "state_targets": state_targets}


def summarise(out: dict) -> dict:
    """Requests/s, p50/p99 and CPU per request of one phase."""
    lat, n = out["latencies"], max(len(out["latencies"]), 1)
    return {"requests": len(lat), "per_s": len(lat) / out["wall"], "p50_ms": percentile(lat, 0.5) * 1000,
            "p99_ms": percentile(lat, 0.99) * 1000,
            "cpu_ms_per_request": {k: v * 1000 / n for k, v in out["cpu"].items()},
            "runqueue_ms_per_s": {k: v * 1000 / out["wall"] for k, v in out["queued"].items()}}


def median_run(runs: list) -> dict:
    """The in-process run with the median commands/s, with every run's figure beside it (`runs_per_s`)."""
    middle = sorted(runs, key=lambda run: run["commands_per_s"])[len(runs) // 2]
    return dict(middle, runs_per_s=[run["commands_per_s"] for run in runs])


def run_http(args, url: str, note: str) -> dict:
    """The in-process command path, then every HTTP phase against the production server; the figures."""
    seconds = args.seconds or (2.0 if args.quick else 4.0)
    budget = args.commands or (2000 if args.quick else 6000)
    w = build(Settings(redis_url=url, rate_limit_per_minute=10 ** 9, cache_size=100_000),
              games=common.bench_games())
    load = float(open("/proc/loadavg").read().split()[0]) if os.path.exists("/proc/loadavg") else -1.0
    progress(f"redis: {note}; load average {load:.1f} on {os.cpu_count()} cores")
    progress(f"in-process command path, {args.processes} processes: {budget} Uchronia commands, "
             f"{INPROC_REPEATS} times (the median run is the ratio's base: one run can catch a noisy moment)")
    runs = []
    for _ in range(INPROC_REPEATS):
        runs.append(engine.in_processes(url, w.redis, args.processes, max(16, budget // 80 + 8), args.threads,
                                        budget))
        progress(f"  {runs[-1]['commands_per_s']:,.0f} commands/s, p50 {runs[-1]['p50_ms']:.2f} ms, "
                 f"p99 {runs[-1]['p99_ms']:.2f} ms")
    inproc = median_run(runs)
    rate_guess = 1500
    count = int(len(CLIENT_COUNTS) * (seconds + WARMUP_SECONDS + 1) * rate_guess / 100) + 2 * max(CLIENT_COUNTS)
    progress(f"planning {count} Uchronia matches for the HTTP phases")
    data = prepare(w, count, max(CLIENT_COUNTS))
    worker = common.start_worker(w, url)
    server = None
    orders, answers = None, None
    loadgen = None
    try:
        common.wait_caught_up(w, worker)
        server, port = start_server(w, url, args.web_workers, args.worker_class)
        web = children(server.pid)
        redis_pid = [int(w.redis.info("server")["process_id"])] if not args.redis else []
        cpu_pids = {"web": web, "redis": redis_pid, "worker": [worker.pid]}
        progress(f"web server: {' '.join(server_command(port, args.web_workers, args.worker_class)[2:])} "
                 f"({len(web)} workers)")
        ctx = multiprocessing.get_context("spawn")
        orders, answers = ctx.Queue(), ctx.Queue()
        loadgen = ctx.Process(target=_load_main, daemon=True,
                              args=(port, data, cpu_pids, orders, answers))
        loadgen.start()
        sampler = LagSampler(w, [w.store.keys.partition(mid) for mid, _ in data["plans"]])
        phases, lags = {}, []
        for kind, label in (("commands", "Uchronia commands"), ("state", "GET /state"), ("note", "dice-race note")):
            for clients in CLIENT_COUNTS:
                progress(f"HTTP {label}, {clients} clients, {seconds:.0f} s")
                if kind == "commands":
                    sampler.start()
                orders.put((kind, clients, seconds))
                out = answers.get(timeout=seconds * 20 + 120)
                if kind == "commands":
                    lags += sampler.stop()
                if "error" in out:
                    raise RuntimeError(out["error"])
                fig = summarise(out)
                phases[f"{kind}_{clients}"] = fig
                progress(f"  {fig['per_s']:,.0f}/s, p50 {fig['p50_ms']:.1f} ms, p99 {fig['p99_ms']:.1f} ms, "
                         f"web CPU {fig['cpu_ms_per_request']['web']:.2f} ms per request")
        orders.put(None)
    finally:
        if loadgen is not None:
            loadgen.join(10)
            if loadgen.is_alive():
                loadgen.kill()
        if server is not None:
            common.stop_process(server)
        common.stop_process(worker)
    return figures(inproc, phases, lags, load, note, server_command(0, args.web_workers, args.worker_class))


def figures(inproc: dict, phases: dict, lags: list, load: float, note: str, command: list) -> dict:
    """The JSON figures: http.* per client count, the ratio to the in-process path, lag."""
    def block(kind):
        return {str(c): {k: (round(v, 3) if isinstance(v, float) else
                            {n: round(x, 3) for n, x in v.items()} if isinstance(v, dict) else v)
                         for k, v in phases[f"{kind}_{c}"].items()} for c in CLIENT_COUNTS}
    commands = block("commands")
    return {"redis": note, "load_average_at_start": load,
            "server": " ".join(command[2:]).replace("127.0.0.1:0", "127.0.0.1:<port>"),
            "in_process_commands_per_s": round(inproc["commands_per_s"], 1),
            "in_process_p99_ms": round(inproc["p99_ms"], 3),
            "in_process_runs_per_s": [round(x, 1) for x in inproc["runs_per_s"]],
            "http": {"commands": commands, "state": block("state"), "note": block("note")},
            "http_ratio": {c: round(v["per_s"] / inproc["commands_per_s"], 3) for c, v in commands.items()},
            "projection_lag": {"samples": len(lags), "p50_ms": round(percentile(lags, 0.5) * 1000, 1),
                               "p99_ms": round(percentile(lags, 0.99) * 1000, 1)}}


def report(fig: dict) -> str:
    """The figures as a readable table."""
    lines = [f"redis:        {fig['redis']}", f"load average: {fig['load_average_at_start']:.1f} at the start",
             f"server:       gunicorn {fig['server']}",
             f"in-process:   {fig['in_process_commands_per_s']:,.0f} Uchronia commands/s "
             f"(p99 {fig['in_process_p99_ms']:.2f} ms; the median of "
             f"{'/'.join(f'{x:,.0f}' for x in fig['in_process_runs_per_s'])})",
             "CPU ms: per request, of the web workers, the worker (projections), Redis and the load generator; "
             "queued: ms per second the web workers waited for a core",
             f"{'phase':<22}{'clients':>8}{'per s':>9}{'p50 ms':>9}{'p99 ms':>9}{'web CPU':>9}{'worker':>8}"
             f"{'Redis':>7}{'load':>6}{'queued':>8}{'ratio':>8}"]
    for kind, label in (("commands", "Uchronia command"), ("state", "GET /state"), ("note", "dice-race note")):
        for c, v in fig["http"][kind].items():
            ratio = f"{fig['http_ratio'][c]:.3f}" if kind == "commands" else ""
            cpu = v["cpu_ms_per_request"]
            lines.append(f"{label:<22}{c:>8}{v['per_s']:>9,.0f}{v['p50_ms']:>9.1f}{v['p99_ms']:>9.1f}"
                         f"{cpu['web']:>9.2f}{cpu.get('worker', 0):>8.2f}{cpu.get('redis', 0):>7.2f}"
                         f"{cpu.get('load_generator', 0):>6.2f}{v['runqueue_ms_per_s'].get('web', 0):>8.0f}"
                         f"{ratio:>8}")
    lag = fig["projection_lag"]
    lines.append(f"projection lag during the command phases: p50 {lag['p50_ms']:.1f} ms, p99 {lag['p99_ms']:.1f} ms "
                 f"({lag['samples']} samples)")
    return "\n".join(lines)

