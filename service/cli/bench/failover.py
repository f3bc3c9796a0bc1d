"""`turnstream bench --failover`: a Redis host dies under load, as Jepsen would test it, with real processes. A primary
(behind a link that can be cut), two replicas and three sentinels (service/server/redis_group.py); the production
web server and a worker with TURNSTREAM_MIN_REPLICAS=1 finding the primary through the sentinels; clients sending
commands with fresh command ids. The replicas are paused (SIGSTOP), the primary's link cut, the primary killed (-9)
and its data deleted, the replicas resumed; a sentinel majority promotes one. Then: every acknowledged command must
be in the surviving history, none sent while the replicas were paused acknowledged, every match audited, a match
created before the kill still there, its turn deadline (scheduled before) fired. Printed: acknowledged, lost,
refused while unreplicated, seconds to recover.

`turnstream bench --replica-cost`: what waiting for a replica costs, commands/s and p50/p99 over HTTP with
TURNSTREAM_MIN_REPLICAS=0 and 1 against the same primary with two replicas."""
from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from service.app.history import History
from service.bootstrap import build
from service.cli.bench.common import ROOT, bench_games, percentile, progress
from service.cli.bench.http import Client, server_command
from service.config import Settings
from service.server.embedded_redis import free_port
from service.server.redis_group import RedisGroup
from service.store.connections import make_redis
from service.store.keys import Keys
from service.store.replication import Replication

PARTITIONS = 8
DEADLINE_HOURS = 0.008  # 28.8 s: the early match's first turn times out after the failover
NOTE_TEXT = "failover"
HIGH = str(10 ** 9)


@dataclass
class Sent:
    """One command a client sent, and what it was told."""
    match_id: str
    marker: str  # the events' `cmd`: "<user id>:<command id>"
    sent: float
    answered: float
    status: int
    code: str = ""
    version: int = 0


@dataclass
class Run:
    """What happened, in monotonic seconds."""
    ledger: list = field(default_factory=list)
    paused: float = 0.0
    killed: float = 0.0
    resumed: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


# -- processes -------------------------------------------------------------------------------------------------
def service_env(redis: dict, min_replicas: int) -> dict:
    """The environment of the web server and worker: the given Redis settings, the replicas to wait for, no limits."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "RQ_REDIS_URL", "REDIS_CLUSTER", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER")}
    env.update(redis, TURNSTREAM_MIN_REPLICAS=str(min_replicas), TURNSTREAM_REPLICA_WAIT_MS="500",
               TURNSTREAM_PARTITIONS=str(PARTITIONS), TURNSTREAM_RECONCILE_SECONDS="1",
               TURNSTREAM_RATE_LIMIT_PER_MINUTE=HIGH, TURNSTREAM_ACCOUNT_RATE_LIMIT=f"{HIGH}/minute",
               TURNSTREAM_MATCH_RATE_LIMIT=f"{HIGH}/minute", TURNSTREAM_ACCESS_LOG="",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return env


def start_web(env: dict, log: Path, workers: int) -> tuple[subprocess.Popen, int]:
    """The production web server (gunicorn, the bench's app with the dice race) on a free port, once it answers."""
    port = free_port()
    proc = subprocess.Popen(server_command(port, workers), env=dict(env, TURNSTREAM_BIND=f"127.0.0.1:{port}"),
                            cwd=str(ROOT), stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while call(port, "GET", "/readyz")[0] != 200:
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError(f"the web server did not come up; see {log}")
        time.sleep(0.2)
    return proc, port


def start_worker(env: dict, log: Path) -> subprocess.Popen:
    """A `turnstream worker` with the bench's games (projections, deadlines, bot turns)."""
    return subprocess.Popen([sys.executable, "-m", "service.cli.bench.worker"], env=env, cwd=str(ROOT),
                            stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- HTTP ------------------------------------------------------------------------------------------------------
def call(port: int, method: str, path: str, token: str = "", body=None, timeout: float = 10.0) -> tuple[int, dict]:
    """(status, JSON body) of one request on a new connection; (0, {}) when the server cannot be reached."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data) if data else {}
    except (OSError, http.client.HTTPException, ValueError):
        return 0, {}
    finally:
        conn.close()


def must(answer: tuple[int, dict], status: int, what: str) -> dict:
    """The body of an answer that must have `status`."""
    if answer[0] != status:
        raise RuntimeError(f"{what}: HTTP {answer[0]} {answer[1]}")
    return answer[1]


def new_match(port: int, game: str, name: str, **extra) -> tuple[str, str, str]:
    """Two new players and a started match of `game` between them: (match id, the player to move, their token)."""
    users = [must(call(port, "POST", "/api/users", body={"name": f"{name}{k}"}), 201, "a new player")
             for k in range(2)]
    match = must(call(port, "POST", "/api/matches", users[0]["token"],
                      {"game": game, "players": [u["id"] for u in users], **extra}), 201, "a new match")
    must(call(port, "POST", f"/api/matches/{match['id']}/accept", users[1]["token"]), 200, "an invitation accepted")
    state = must(call(port, "GET", f"/api/matches/{match['id']}/state", users[0]["token"]), 200, "a state")
    mover = next(u for u in users if u["id"] == state["active_players"][0])
    return match["id"], mover["id"], mover["token"]


def client(port: int, index: int, match: tuple, run: Run, halt: threading.Event) -> None:
    """Send notes with fresh command ids until halted; a refused or failed one is followed by a short pause."""
    match_id, user_id, token = match
    sequence = 0
    while not halt.is_set():
        sequence += 1
        command_id = f"c{index}-{sequence}"
        started = time.monotonic()
        status, body = call(port, "POST", f"/api/matches/{match_id}/commands", token,
                            {"type": "note", "payload": {"text": NOTE_TEXT}, "command_id": command_id}, timeout=15)
        sent = Sent(match_id, f"{user_id}:{command_id}", started, time.monotonic(), status,
                    (body.get("error") or {}).get("code", ""), body.get("version", 0) if status == 201 else 0)
        with run.lock:
            run.ledger.append(sent)
        if status != 201:
            halt.wait(0.05)


# -- the scenario ----------------------------------------------------------------------------------------------
def first_ack_after(run: Run, moment: float) -> float | None:
    """When the first command sent after `moment` was acknowledged."""
    with run.lock:
        acked = [s.answered for s in run.ledger if s.status == 201 and s.sent >= moment]
    return min(acked) if acked else None


def wait_until(predicate, timeout: float, step: float = 0.2):
    """predicate()'s first truthy value within `timeout` s, else None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return None


def surviving(settings, match_ids: list) -> dict:
    """{match id: {version: the event's command marker}} read from the primary the sentinels name now."""
    r, keys, found = make_redis(settings), Keys(PARTITIONS), {}
    try:
        for match_id in match_ids:
            found[match_id] = {int(entry_id.split("-")[1]): json.loads(fields["e"]).get("cmd")
                               for entry_id, fields in r.xrange(keys.stream(match_id))}
    finally:
        r.close()
    return found


def audits(settings, match_ids: list) -> list:
    """The ids of the matches whose audit fails (read through the sentinels)."""
    w = build(settings, games=bench_games())
    try:
        history = History.from_wiring(w)
        return [match_id for match_id in match_ids if not history.audit(match_id)["ok"]]
    finally:
        w.live.stop()
        w.users.cache.close()


def cli_audit(env: dict, match_id: str) -> tuple[int, str]:
    """`turnstream audit <match>` as an operator runs it, through the sentinels: (exit status, output)."""
    done = subprocess.run([sys.executable, "-m", "service.cli", "audit", match_id], env=env, cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def timed_out(port: int, match: tuple) -> bool:
    """True once the match's first turn has timed out (its deadline job ran)."""
    status, body = call(port, "GET", f"/api/matches/{match[0]}/events?after=0", match[2])
    return status == 200 and any(e["type"] == "turn_timed_out" for e in body.get("events", []))


def run_failover(root: Path, clients: int = 4, load_seconds: float = 4.0, pause_seconds: float = 3.0,
                 after_seconds: float = 4.0, web_workers: int = 1) -> dict:
    """The scenario on processes under `root`; the figures and the checks' findings (see the module's docstring)."""
    group = RedisGroup(root / "redis").start()
    redis_env = {"REDIS_URL": "redis://127.0.0.1:6379/0", "REDIS_SENTINELS": group.sentinels_setting,
                 "REDIS_SENTINEL_MASTER": group.master}
    env = service_env(redis_env, 1)
    procs = []
    try:
        web, port = start_web(env, root / "web.log", web_workers)
        procs += [web, start_worker(env, root / "worker.log")]
        progress(f"failover: web on {port}, sentinels {group.sentinels_setting}, primary behind link "
                 f"{group.link.port}; {clients} clients")
        early = new_match(port, "uchronia", "early", turn_deadline_hours=DEADLINE_HOURS)
        matches = [new_match(port, "dice-race", f"c{i}_") for i in range(clients)]
        run, halt = Run(), threading.Event()
        threads = [threading.Thread(target=client, args=(port, i, m, run, halt), daemon=True)
                   for i, m in enumerate(matches)]
        for t in threads:
            t.start()
        time.sleep(load_seconds)
        group.signal_replicas(signal.SIGSTOP)
        time.sleep(0.1)  # the signal has taken effect: nothing sent from now on can be confirmed
        run.paused = time.monotonic()
        progress("failover: replicas paused")
        time.sleep(pause_seconds)
        group.lose_primary()
        run.killed = time.monotonic()
        group.signal_replicas(signal.SIGCONT)
        run.resumed = time.monotonic()
        progress("failover: primary's link cut, primary killed and its data deleted; replicas resumed")
        recovered = wait_until(lambda: first_ack_after(run, run.killed), 60)
        progress(f"failover: writes resumed after {recovered - run.killed:.1f} s" if recovered else
                 "failover: writes did not resume within 60 s")
        time.sleep(after_seconds)
        halt.set()
        for t in threads:
            t.join(30)
        fired = wait_until(lambda: timed_out(port, early), DEADLINE_HOURS * 3600 + 90, 1.0)
        settings = Settings(redis_url=redis_env["REDIS_URL"], redis_sentinels=tuple(
            ("127.0.0.1", s.port) for s in group.sentinels), partitions=PARTITIONS)
        found = surviving(settings, [m[0] for m in matches])
        failed_audits = audits(settings, [m[0] for m in matches] + [early[0]])
        cli_status, cli_output = cli_audit(env, early[0])
        return figures(run, found, recovered, bool(fired), failed_audits, (cli_status, cli_output),
                       group.primary_port(), group.link.port)
    finally:
        for proc in procs:
            stop(proc)
        group.stop()


def figures(run: Run, found: dict, recovered: float | None, deadline_fired: bool, failed_audits: list,
            cli: tuple, primary_port: int | None, old_port: int) -> dict:
    """The counts the scenario is judged by."""
    acked = [s for s in run.ledger if s.status == 201]
    lost = [s for s in acked if found.get(s.match_id, {}).get(s.version) != s.marker]
    unreplicated = [s for s in run.ledger if run.paused <= s.sent and s.answered < run.killed]
    return {
        "sent": len(run.ledger), "acknowledged": len(acked), "lost": len(lost),
        "lost_examples": [(s.match_id, s.version, s.marker) for s in lost[:5]],
        "sent_while_unreplicated": len(unreplicated),
        "refused_while_unreplicated": sum(1 for s in unreplicated if s.status != 201),
        "acknowledged_while_unreplicated": sum(1 for s in unreplicated if s.status == 201),
        "refusals": sorted({f"{s.status} {s.code}".strip() for s in run.ledger if s.status != 201}),
        "seconds_to_recover": round(recovered - run.killed, 2) if recovered else None,
        "matches_kept": sum(1 for versions in found.values() if versions),
        "matches": len(found),
        "audits_failed": failed_audits,
        "cli_audit": {"status": cli[0], "output": cli[1][-600:]},
        "deadline_fired": deadline_fired,
        "primary_moved": primary_port is not None and primary_port != old_port,
    }


def report(fig: dict) -> str:
    """The scenario's figures in a few lines."""
    return "\n".join([
        f"acknowledged: {fig['acknowledged']} of {fig['sent']} commands sent",
        f"lost: {fig['lost']} (acknowledged commands missing from the surviving history)",
        f"refused while unreplicated: {fig['refused_while_unreplicated']} of {fig['sent_while_unreplicated']} sent "
        f"while the replicas were paused (acknowledged meanwhile: {fig['acknowledged_while_unreplicated']})",
        f"seconds to recover: {fig['seconds_to_recover']} (the kill to the first acknowledged command after it)",
        f"matches kept: {fig['matches_kept']} of {fig['matches']}; audits failed: {len(fig['audits_failed'])}; "
        f"turnstream audit through the sentinels: exit {fig['cli_audit']['status']}; "
        f"turn deadline scheduled before the kill fired: {'yes' if fig['deadline_fired'] else 'NO'}",
        f"refusals seen: {', '.join(fig['refusals']) or 'none'}",
    ])


# -- the cost of waiting ---------------------------------------------------------------------------------------
def drive(port: int, matches: list, seconds: float) -> dict:
    """Notes from one thread per match for `seconds`: commands/s, p50 and p99 (ms), refusals."""
    latencies, refused, lock, halt = [], [], threading.Lock(), threading.Event()

    def loop(index: int, match: tuple):
        http_client, sequence = Client(port), 0
        while not halt.is_set():
            sequence += 1
            body = json.dumps({"type": "note", "payload": {"text": "cost"}, "command_id": f"k{index}-{sequence}"})
            started = time.perf_counter()
            try:
                http_client.call("POST", f"/api/matches/{match[0]}/commands", match[2], body.encode(), 201)
            except RuntimeError as exc:
                with lock:
                    refused.append(str(exc)[:120])
                continue
            with lock:
                latencies.append(time.perf_counter() - started)

    threads = [threading.Thread(target=loop, args=(i, m), daemon=True) for i, m in enumerate(matches)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    with lock:
        latencies.clear()
    begun = time.perf_counter()
    time.sleep(seconds)
    with lock:
        measured, wall = list(latencies), time.perf_counter() - begun
    halt.set()
    for t in threads:
        t.join(30)
    return {"commands_per_s": round(len(measured) / wall, 1), "p50_ms": round(percentile(measured, 0.5) * 1000, 2),
            "p99_ms": round(percentile(measured, 0.99) * 1000, 2), "refused": len(refused)}


def barrier_times(url: str, count: int = 2000) -> dict:
    """p50/p99 (µs) of one client's PING and of the replication barrier (a write and WAIT 1, one round trip)."""
    client = redis.Redis.from_url(url)
    replication = Replication(client, 1, 500)
    times: dict = {"ping": [], "barrier": []}
    for _ in range(count):
        for kind, step in (("ping", client.ping), ("barrier", lambda: replication.acknowledged(0))):
            started = time.perf_counter()
            step()
            times[kind].append(time.perf_counter() - started)
    client.close()
    return {kind: {"p50_us": round(percentile(v, 0.5) * 1e6, 1), "p99_us": round(percentile(v, 0.99) * 1e6, 1)}
            for kind, v in times.items()}


def run_cost(root: Path, clients: int = 8, seconds: float = 10.0, web_workers: int = 0, rounds: int = 3) -> dict:
    """Commands over HTTP against a primary with two replicas: two web servers, TURNSTREAM_MIN_REPLICAS 0 and 1,
    driven in turn `rounds` times (on a shared machine one phase can catch a noisy moment); each setting's median
    round by commands/s, and every round's figures."""
    group = RedisGroup(root / "redis", sentinels=0, link=False).start()
    servers, rounds_seen = {}, {0: [], 1: []}
    try:
        barrier = barrier_times(group.primary.url)
        progress(f"replica cost: one client's round trips, PING and barrier (a write and WAIT 1): {barrier}")
        for wanted in (0, 1):
            web, port = start_web(service_env({"REDIS_URL": group.primary.url}, wanted), root / f"web-{wanted}.log",
                                  web_workers)
            servers[wanted] = (web, port, [new_match(port, "dice-race", f"w{wanted}_{i}_") for i in range(clients)])
        for turn in range(rounds):
            for wanted in (0, 1):
                _web, port, matches = servers[wanted]
                progress(f"replica cost, round {turn + 1}/{rounds}: TURNSTREAM_MIN_REPLICAS={wanted}, {clients} "
                         f"clients, {seconds:.0f} s")
                rounds_seen[wanted].append(drive(port, matches, seconds))
                progress(f"  {rounds_seen[wanted][-1]}")
    finally:
        for web, _port, _matches in servers.values():
            stop(web)
        group.stop()
    median = {wanted: sorted(seen, key=lambda f: f["commands_per_s"])[len(seen) // 2]
              for wanted, seen in rounds_seen.items()}
    return {"clients": clients, "seconds": seconds, "rounds": rounds, "median": median, "every_round": rounds_seen,
            "round_trip": barrier}


def report_cost(fig: dict) -> str:
    """The cost figures as a small table (the median round of each setting)."""
    lines = [f"dice-race notes over HTTP, {fig['clients']} clients, {fig['rounds']} rounds of {fig['seconds']:.0f} s "
             f"per setting, a primary and two replicas on this machine (the median round of each)",
             "TURNSTREAM_MIN_REPLICAS  commands/s  p50 ms  p99 ms  refused  every round's commands/s"]
    for wanted in (0, 1):
        p = fig["median"][wanted]
        every = ", ".join(f"{f['commands_per_s']:,.0f}" for f in fig["every_round"][wanted])
        lines.append(f"{wanted:>23}  {p['commands_per_s']:>10,.0f}  {p['p50_ms']:>6.2f}  {p['p99_ms']:>6.2f}  "
                     f"{p['refused']:>7}  {every}")
    trip = fig["round_trip"]
    lines.append(f"one client's round trip: PING p50 {trip['ping']['p50_us']:.0f} µs, p99 {trip['ping']['p99_us']:.0f} µs; "
                 f"the barrier (a write and WAIT 1) p50 {trip['barrier']['p50_us']:.0f} µs, "
                 f"p99 {trip['barrier']['p99_us']:.0f} µs")
    return "\n".join(lines)


def cmd_failover(args) -> int:
    """`turnstream bench --failover` / `--replica-cost`: print the figures (and one JSON object with --json)."""
    with tempfile.TemporaryDirectory(prefix="turnstream-failover-") as tmp:
        try:
            if args.replica_cost:
                fig = run_cost(Path(tmp), args.clients, args.seconds or (4.0 if args.quick else 10.0),
                               args.web_workers)
                text = report_cost(fig)
            else:
                fig = run_failover(Path(tmp), web_workers=args.web_workers or 1)
                text = report(fig)
        except RuntimeError as exc:
            print(f"turnstream bench: {exc}", file=sys.stderr)
            return 2
    print(text, flush=True)
    if args.json:
        print(json.dumps(fig), flush=True)
    if not args.replica_cost:
        return 0 if fig["lost"] == 0 and fig["acknowledged_while_unreplicated"] == 0 else 1
    return 0
