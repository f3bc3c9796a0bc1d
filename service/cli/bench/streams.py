"""`turnstream bench --streams N`: N live streams held by a separate client process against the production web
server (gunicorn, gevent, service/server/gunicorn_conf.py), while commands are submitted: streams held, delivery from a
command's 201 to its event on every stream of the match, command latency meanwhile, memory per idle stream."""
from __future__ import annotations

import asyncio
import http.client
import json
import multiprocessing
import os
import queue as queues
import threading
import time
from collections import defaultdict

from service.app.invitations import accept_for_all
from service.bootstrap import build
from service.cli.bench import common
from service.cli.bench.common import percentile, progress
from service.cli.bench.http import children, start_server
from service.cli.bench.sse_client import SseStream, StreamRefused
from service.config import Settings
from service.server.limits import raise_open_files

STREAMS_PER_USER = 10  # each viewer holds several streams, as a player with tabs and scripts does
OPEN_BATCH = 200
STREAMS_PER_CLIENT = 16_000  # streams one client process holds and reads (below a common 20,000 open-file limit)
COMMANDS_PER_SUBMITTER = 25  # commands a second one submitting connection is paced at
CONFLICT_RETRIES = 5


def rss_kb(pids) -> int:
    """The resident memory of these processes, in kB."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total


# -- the stream client (its own process) ---------------------------------------------------------------------
async def _hold(port: int, specs: list, ready, stop) -> dict:
    streams, refused = [], 0
    for i in range(0, len(specs), OPEN_BATCH):
        batch = [SseStream("127.0.0.1", port, path, headers, source).open()
                 for _m, path, headers, source in specs[i:i + OPEN_BATCH]]
        for result in await asyncio.gather(*batch, return_exceptions=True):
            if isinstance(result, StreamRefused):
                refused += 1
            elif isinstance(result, BaseException):
                refused += 1
            else:
                streams.append(result)
    arrivals: dict = defaultdict(list)  # "match:version" -> arrival times (monotonic, system-wide)
    matches = {id(s): m for s, (m, _p, _h, _a) in zip(streams, specs)}

    async def read(stream):
        try:
            async for version in stream.ids():  # a match stream's id is the event's version
                arrivals[f"{matches[id(stream)]}:{version}"].append(time.monotonic())
        except (ConnectionError, asyncio.IncompleteReadError):
            pass

    tasks = [asyncio.create_task(read(s)) for s in streams]
    ready.put({"held": len(streams), "refused": refused})
    await asyncio.to_thread(stop.get)
    await asyncio.sleep(1.0)  # the last deliveries
    for s in streams:
        s.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"arrivals": dict(arrivals)}


def _client_main(port: int, specs: list, ready, stop, results) -> None:
    raise_open_files(len(specs) + 1024)
    results.put(asyncio.run(_hold(port, specs, ready, stop)))


# -- the bench -----------------------------------------------------------------------------------------------
def source_address(viewer: int) -> str:
    """A viewer's own loopback address (127.1.0.1 on): people connect from their own addresses, and one address
    has only ~28,000 ephemeral ports towards the server."""
    n = viewer + 1
    return f"127.{1 + n // 65536 % 254}.{n // 256 % 256}.{n % 256}"


def plan(w, streams: int, matches: int) -> tuple[list, list]:
    """Dice-race matches with their creators' tokens, and the stream specs (match, path, headers, source
    address): each viewer (a new user, from an address of its own) holds STREAMS_PER_USER streams, spread over
    the matches."""
    games = []
    for _ in range(matches):
        a, b = w.users.create("bench-a"), w.users.create("bench-b")
        options = w.games["dice-race"].options_schema.load({})
        match = accept_for_all(w.matches, w.matches.create(a["id"], "dice-race", options, players=[a["id"], b["id"]]))
        games.append((match.id, a["token"]))
    specs, viewer = [], None
    for i in range(streams):
        if i % STREAMS_PER_USER == 0:
            viewer = w.users.create("bench-viewer")["token"]
        mid = games[i % matches][0]
        specs.append((mid, f"/api/matches/{mid}/stream", {"Authorization": f"Bearer {viewer}"},
                      source_address(i // STREAMS_PER_USER)))
    return games, specs


def submit(port: int, games: list, count: int, rate: float) -> tuple[list, list]:
    """`count` dice-race notes over the matches at `rate` a second (several connections, each paced);
    ([(match, version, time of the 201)], latencies ms)."""
    lanes = max(1, round(rate / COMMANDS_PER_SUBMITTER))
    pace = lanes / rate
    results, failures = [], []

    def lane(n: int) -> None:
        mine = [games[i % len(games)] for i in range(n, count, lanes)]
        try:
            results.append(_submit_lane(port, mine, pace, n / rate))
        except RuntimeError as exc:
            failures.append(exc)
    threads = [threading.Thread(target=lane, args=(n,)) for n in range(lanes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    sent = sorted((x for r in results for x in r[0]), key=lambda x: x[2])
    return sent, [ms for r in results for ms in r[1]]


def _submit_lane(port: int, games: list, pace: float, offset: float) -> tuple[list, list]:
    """One connection's commands, one every `pace` seconds after `offset`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent, latencies = [], []
    body = json.dumps({"type": "note", "payload": {"text": "bench"}})
    time.sleep(offset)
    for mid, token in games:
        started = time.monotonic()
        for _attempt in range(CONFLICT_RETRIES):  # several lanes on one match race: the loser retries, as clients do
            try:
                conn.request("POST", f"/api/matches/{mid}/commands", body=body,
                             headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
                resp = conn.getresponse()
                data = resp.read()
            except OSError as exc:  # a timeout included: the web workers are saturated (say so, no traceback)
                raise RuntimeError(f"a command got no answer within 30 s ({type(exc).__name__}): "
                                   f"the web workers are saturated delivering to the open streams") from None
            if resp.status != 409:
                break
        done = time.monotonic()
        if resp.status != 201:
            raise RuntimeError(f"command refused: HTTP {resp.status} {data[:200]!r}")
        latencies.append((done - started) * 1000)
        sent.append((mid, json.loads(data)["version"], done))
        time.sleep(max(0.0, pace - (time.monotonic() - started)))
    conn.close()
    return sent, latencies


def _from_client(client, queue, seconds: float):
    """The next thing a client process reports; RuntimeError when it exits first or says nothing in time."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return queue.get(timeout=1.0)
        except queues.Empty:
            if not client.is_alive():
                raise RuntimeError(f"a stream client process exited (code {client.exitcode}); see its error above") \
                    from None
            if time.monotonic() > deadline:
                raise RuntimeError(f"a stream client process reported nothing within {seconds:.0f} s") from None


def run_streams(args, url: str, note: str) -> dict:
    """Start the server, hold N streams from a separate process, submit commands; the figures."""
    count = args.streams
    matches = max(1, args.stream_matches)
    rate = max(1.0, args.command_rate)
    commands = args.commands or int(rate * (4 if args.quick else 10))  # seconds of commands at that rate
    w = build(Settings(redis_url=url, rate_limit_per_minute=10 ** 9), games=common.bench_games())
    load = os.getloadavg()[0]
    progress(f"redis: {note}; load average {load:.1f} on {os.cpu_count()} cores")
    games, specs = plan(w, count, matches)
    server, port = start_server(w, url, args.web_workers)
    ctx = multiprocessing.get_context("spawn")
    parts = [specs[i:i + STREAMS_PER_CLIENT] for i in range(0, len(specs), STREAMS_PER_CLIENT)]
    queues = [(ctx.Queue(), ctx.Queue(), ctx.Queue()) for _ in parts]
    clients = []
    try:
        web = children(server.pid)
        submit(port, games, 2 * matches, max(rate, 100.0))  # warm every match into the web processes' caches
        time.sleep(1.0)
        before = rss_kb(web)
        progress(f"web server: {len(web)} gunicorn gevent workers; opening {count} streams over {matches} matches "
                 f"from {len(parts)} client process(es)")
        started = time.monotonic()
        for part, (ready, stop, results) in zip(parts, queues):
            clients.append(ctx.Process(target=_client_main, args=(port, part, ready, stop, results), daemon=True))
            clients[-1].start()
        opened = {"held": 0, "refused": 0}
        for client, (ready, _stop, _results) in zip(clients, queues):
            got = _from_client(client, ready, 1800)
            opened = {k: opened[k] + got[k] for k in opened}
        progress(f"  {opened['held']} streams held ({opened['refused']} refused) in {time.monotonic() - started:.1f} s")
        time.sleep(2.0)
        idle = rss_kb(web)
        progress(f"submitting {commands} commands (about {rate:.0f}/s) while they are open")
        began = time.monotonic()
        sent, latencies = submit(port, games, commands, rate)
        took = time.monotonic() - began
        arrivals: dict = defaultdict(list)
        for _ready, stop, results in queues:
            stop.put("stop")
        for client, (_ready, _stop, results) in zip(clients, queues):
            for key, times in _from_client(client, results, 600)["arrivals"].items():
                arrivals[key].extend(times)
        for client in clients:
            client.join(30)
    finally:
        for client in clients:
            if client.is_alive():
                client.kill()
        common.stop_process(server)
    per_match = defaultdict(int)
    for mid, _path, _h, _a in specs[:opened["held"]]:
        per_match[mid] += 1
    delays, missed = [], 0
    for mid, version, at in sent:
        arrived = arrivals.get(f"{mid}:{version}", [])
        missed += per_match[mid] - len(arrived)
        delays.extend((t - at) * 1000 for t in arrived)
    return {"redis": note, "load_average_at_start": load, "web_workers": len(web), "streams.requested": count,
            "streams.held": opened["held"], "streams.refused": opened["refused"], "streams.matches": matches,
            "streams.commands": len(sent), "streams.command_rate": len(sent) / max(took, 1e-9),
            "streams.deliveries": len(delays), "streams.missed": missed,
            "streams.delivery_p50_ms": percentile(delays, 0.5), "streams.delivery_p99_ms": percentile(delays, 0.99),
            "streams.command_p50_ms": percentile(latencies, 0.5), "streams.command_p99_ms": percentile(latencies, 0.99),
            "streams.idle_kb_per_stream": (idle - before) / max(1, opened["held"]),
            "streams.web_rss_mb_before": before / 1024, "streams.web_rss_mb_idle": idle / 1024}


def report(fig: dict) -> str:
    """The figures as readable lines."""
    return "\n".join([
        f"redis:          {fig['redis']}",
        f"load average:   {fig['load_average_at_start']:.1f} at the start; {fig['web_workers']} web workers (gevent)",
        f"streams held:   {fig['streams.held']} of {fig['streams.requested']} ({fig['streams.refused']} refused) "
        f"over {fig['streams.matches']} matches",
        f"delivery:       p50 {fig['streams.delivery_p50_ms']:.1f} ms, p99 {fig['streams.delivery_p99_ms']:.1f} ms "
        f"(command 201 -> event on every stream of the match; {fig['streams.deliveries']} deliveries, "
        f"{fig['streams.missed']} missed)",
        f"commands:       p50 {fig['streams.command_p50_ms']:.1f} ms, p99 {fig['streams.command_p99_ms']:.1f} ms "
        f"({fig['streams.commands']} while the streams were open, {fig['streams.command_rate']:.0f}/s)",
        f"memory:         {fig['streams.idle_kb_per_stream']:.1f} kB per idle stream (web RSS "
        f"{fig['streams.web_rss_mb_before']:.0f} -> {fig['streams.web_rss_mb_idle']:.0f} MB)",
    ])
