"""A live stream's memory is bounded from its first byte, on the production server (gunicorn, gevent): clients
that ask for a long catch-up and never read (a 1 kB receive buffer, never a recv), anonymous and signed in, cost
the web process next to nothing; one too far behind is told to reload and ended; one within the budget is parked
and ended at its lifetime although its write never completes."""
from __future__ import annotations

import asyncio
import http.client
import json
import socket
import time
import urllib.request

import pytest

from service.cli.bench.http import children
from service.cli.bench.sse_client import SseStream
from service.cli.bench.streams import rss_kb
from service.server.embedded_redis import free_port
from tests.e2e.processes import spawn, stop, wait_http
from tests.e2e.live_kit import duel
from tests.waiting import wait_for

pytestmark = pytest.mark.slow

LIFETIME = 3  # seconds a stream lives (TURNSTREAM_STREAM_SECONDS)
CHATS = 1800  # chat lines of 2 kB (500 four-byte characters): a catch-up of about 4 MB, more than the kernel's
# socket buffers take on loopback (about 1.7 MB), and fewer log entries than a resume may scan
LINE = "\U0001F3B2" * 496  # a die, 496 times: with a line's number, 500 characters
EACH = 4  # non-reading streams of each kind


def live_streams(base: str) -> float:
    """The server's count of open live streams (/metrics)."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as resp:
        text = resp.read().decode()
    return next(float(line.split()[-1]) for line in text.splitlines()
                if line.startswith("turnstream_live_streams "))


def wait_streams(base: str, count: float, seconds: float) -> float:
    """Wait until the server holds `count` live streams (or `seconds` pass); how many it holds."""
    try:
        wait_for(lambda: live_streams(base) == count, seconds, f"{count} live streams", interval=0.1)
        return count
    except AssertionError:  # the caller says what the count means
        return live_streams(base)


def chat(port: int, token: str, mid: str, lines: int) -> None:
    """Post `lines` chat lines of 2 kB to a match over one kept-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for n in range(lines):
        conn.request("POST", f"/api/matches/{mid}/chat", json.dumps({"text": f"{n:04d}" + LINE}), headers)
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 201, resp.status
    conn.close()


def never_reads(port: int, path: str, headers: dict) -> socket.socket:
    """A client with a 1 kB receive buffer that sends a stream request and never reads a byte."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.connect(("127.0.0.1", port))
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Accept: text/event-stream"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock


async def read_all(port: int, path: str, headers: dict) -> list:
    """Every message of a stream read to its end."""
    stream = await SseStream("127.0.0.1", port, path, headers).open()
    got = []
    try:
        async for msg in stream:
            got.append(msg)
    finally:
        stream.close()
    return got


@pytest.fixture(scope="module")
def busy(redis_url, tmp_path_factory):
    """A server whose streams live LIFETIME seconds, and a match with CHATS long chat lines: (base, port, the web
    worker's pid, ann, bob, match id, its version, a user-stream cursor from before the chat)."""
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    port = free_port()
    proc = spawn(["web", "--port", str(port), "--workers", "1"], redis_url,
                 tmp_path_factory.mktemp("budget") / "web.log",
                 {"TURNSTREAM_STREAM_SECONDS": str(LIFETIME), "TURNSTREAM_ACCESS_LOG": "-"})
    try:
        base = f"http://127.0.0.1:{port}"
        wait_http(base + "/healthz")
        ann, bob, apis, mid = duel(base)
        cursor = str(int(time.time() * 1000))
        chat(port, ann["token"], mid, CHATS)
        _, match = apis[ann["id"]].get(f"/api/matches/{mid}")
        yield base, port, children(proc.pid), ann, bob, mid, match["version"], cursor
    finally:
        stop(proc)


def test_non_readers_far_behind_are_told_to_reload_and_cost_next_to_nothing(busy):
    base, port, web, ann, bob, mid, version, cursor = busy
    asks = ([(f"/api/matches/{mid}/stream", {"Last-Event-ID": "0"})] * EACH
            + [(f"/api/stream?watch={mid}", {"Last-Event-ID": cursor})] * EACH
            + [("/api/users/me/stream", {"Last-Event-ID": cursor, "Authorization": f"Bearer {ann['token']}"})] * EACH)
    assert wait_streams(base, 0, 5) == 0
    before = rss_kb(web)
    clients = [never_reads(port, path, headers) for path, headers in asks]
    try:
        time.sleep(LIFETIME + 2)  # the behaviour: no stream outlives its lifetime (a poll could end before they open)
        held, grown = live_streams(base), rss_kb(web) - before
    finally:
        for sock in clients:
            sock.close()
    assert held == 0 and grown < 16 * 1024, (f"{held:.0f} of {len(asks)} far-behind streams outlived their lifetime; "
                                             f"the web process grew {grown} kB for them")


def test_a_reader_far_behind_gets_reload_with_where_to_resume_and_the_stream_ends(busy):
    base, port, web, ann, bob, mid, version, cursor = busy
    match_stream = asyncio.run(read_all(port, f"/api/matches/{mid}/stream", {"Last-Event-ID": "0"}))
    assert [(m["event"], m["id"]) for m in match_stream] == [("reload", str(version))]
    user_stream = asyncio.run(read_all(port, "/api/users/me/stream",
                                       {"Last-Event-ID": cursor, "Authorization": f"Bearer {ann['token']}"}))
    assert [m["event"] for m in user_stream] == ["reload"], user_stream
    resumed = SseStream("127.0.0.1", port, "/api/users/me/stream",
                        {"Last-Event-ID": user_stream[0]["id"], "Authorization": f"Bearer {ann['token']}"})

    async def first_message():
        stream = await resumed.open()
        try:
            async for msg in stream:
                return msg
        finally:
            stream.close()
    assert asyncio.run(first_message())["event"] == "inbox"  # resumed from now: no catch-up, no reload


def test_non_readers_within_the_budget_are_parked_and_ended_at_their_lifetime(busy):
    base, port, web, ann, bob, mid, version, cursor = busy
    after = str(version - 80)  # about 180 kB: within the budget
    got = asyncio.run(read_all(port, f"/api/matches/{mid}/stream", {"Last-Event-ID": after}))
    assert [m["event"] for m in got] == ["message"] * 80
    assert wait_streams(base, 0, 5) == 0
    before = rss_kb(web)
    clients = [never_reads(port, f"/api/matches/{mid}/stream", {"Last-Event-ID": after}) for _ in range(EACH)]
    clients += [never_reads(port, f"/api/matches/{mid}/stream",
                            {"Last-Event-ID": after, "Authorization": f"Bearer {bob['token']}"}) for _ in range(EACH)]
    try:
        opened = wait_streams(base, 2 * EACH, 5)
        grown = rss_kb(web) - before
        held = wait_streams(base, 0, LIFETIME + 3)
    finally:
        for sock in clients:
            sock.close()
    assert opened == 2 * EACH
    assert held == 0, f"{held:.0f} of {2 * EACH} streams outlived their lifetime behind a blocked write"
    assert grown < 2 * EACH * 256 + 8 * 1024, f"the web process grew {grown} kB for {2 * EACH} parked non-readers"
