"""The parked streams' writer on real socket pairs (gevent's loop, no server): what one pass gathered goes out as
one chunk, a lifetime ends the body cleanly, a hang-up or a client that stops reading frees the stream, and a
sign-out ends it before anything more is written; a stream's headers and catch-up are written without blocking,
under the same budget, and its lifetime and keep-alives hold while they wait for a client that never reads."""
from __future__ import annotations

import socket
import time

import pytest

gevent = pytest.importorskip("gevent")

from service.app.live import Subscriber  # noqa: E402
from service.server import stream_parking  # noqa: E402
from service.server.stream_parking import END_CHUNK, Parking  # noqa: E402


class Writer:
    """A match stream's formatting, as service/web/api/stream.py's MatchWriter does it."""

    def message(self, item):
        return f"id: {item[2]}\ndata: {item[3]}\n\n"

    def keepalive(self, watermark):
        return ": keep-alive\n\n"


@pytest.fixture
def parked():
    """park(lifetime=60, signed_in=...) -> (client socket, subscriber, released list); every pair closed after."""
    parking, opened = Parking(), []

    def park(lifetime: float = 60.0, signed_in=lambda: True, pushed=lambda: True, **first):
        server, client = socket.socketpair()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32 * 1024)  # what a client leaves unread soon waits
        opened.extend([server, client])
        sub, released = Subscriber("ann", "10.0.0.1", ["m1"]), []
        parking.park(server.detach(), True, None, sub, Writer(), time.monotonic() + lifetime, signed_in, pushed,
                     lambda: released.append(True), **first)
        return client, sub, released
    yield parking, park
    for s in opened:
        s.close()


def read_some(client: socket.socket, seconds: float = 2.0) -> bytes:
    """What the client can read within `seconds` (the writer runs meanwhile)."""
    client.setblocking(False)
    got, deadline = b"", time.monotonic() + seconds
    while time.monotonic() < deadline:
        gevent.sleep(0.01)
        try:
            piece = client.recv(1 << 16)
        except BlockingIOError:
            if got:
                break
            continue
        if not piece:
            break
        got += piece
    return got


def read_until(client: socket.socket, needle: bytes, seconds: float = 3.0) -> bytes:
    """What the client reads until `needle` arrives (or `seconds` pass)."""
    got, deadline = b"", time.monotonic() + seconds
    while needle not in got and time.monotonic() < deadline:
        got += read_some(client, 0.2)
    return got


def wait_for(predicate, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        gevent.sleep(0.02)
    return predicate()


def test_what_one_pass_gathered_goes_out_as_one_chunk_in_order(parked):
    parking, park = parked
    client, sub, released = park()
    sub.push(("event", "m1", 1, '{"v":1}', 0))
    sub.push(("event", "m1", 2, '{"v":2}', 0))
    body = 'id: 1\ndata: {"v":1}\n\nid: 2\ndata: {"v":2}\n\n'.encode()
    assert read_some(client) == b"%X\r\n%s\r\n" % (len(body), body)
    assert not released


def test_a_lifetime_ends_the_body_cleanly_and_releases_the_stream(parked):
    parking, park = parked
    client, sub, released = park(lifetime=0.0)
    parking.sweep(time.monotonic())
    assert wait_for(lambda: released)
    assert read_some(client) == END_CHUNK and len(parking) == 0


def test_a_hang_up_frees_the_stream_at_once(parked):
    parking, park = parked
    client, sub, released = park()
    client.close()
    assert wait_for(lambda: released, 2.0) and len(parking) == 0


def test_a_client_that_stops_reading_is_ended_not_waited_for(parked, monkeypatch):
    monkeypatch.setattr(stream_parking, "MAX_PENDING", 64 * 1024)
    parking, park = parked
    client, sub, released = park()
    other, other_sub, _ = park()
    payload = '"' + "x" * 4000 + '"'
    for v in range(1, 400):  # 1.6 MB: more than the socket buffers and the pending allowance
        sub.push(("event", "m1", v, payload, 0))
        other_sub.push(("event", "m1", v, '"small"', 0))
        gevent.sleep(0)
    assert wait_for(lambda: released, 5.0) and len(parking) == 1
    assert b"id: 399\n" in read_until(other, b"id: 399\n")  # the stream that reads is served to the end
    assert parking._pending_total == 0  # what waited for the ended one is gone with it


def test_non_readers_together_cost_at_most_the_process_allowance(parked, monkeypatch):
    monkeypatch.setattr(stream_parking, "MAX_PENDING", 1 << 30)  # only the process's allowance can end them here
    monkeypatch.setattr(stream_parking, "MAX_PENDING_TOTAL", 96 * 1024)
    parking, park = parked
    crowd = [park() for _ in range(4)]
    payload = '"' + "x" * 4000 + '"'
    for v in range(1, 200):
        for _client, sub, _released in crowd:
            sub.push(("event", "m1", v, payload, 0))
        gevent.sleep(0)
    assert wait_for(lambda: sum(1 for *_c, released in crowd if released) >= 1, 5.0)
    assert parking._pending_total <= 96 * 1024 + 8 * 1024


def test_signing_out_ends_the_stream_before_anything_more_is_written(parked):
    parking, park = parked
    signed = [True]
    client, sub, released = park(signed_in=lambda: signed[0])
    signed[0] = False
    sub.recheck_credential()
    sub.push(("event", "m1", 1, '"secret"', 0))
    assert wait_for(lambda: released)
    assert read_some(client) == END_CHUNK


def chunk(body: bytes) -> bytes:
    return b"%X\r\n%s\r\n" % (len(body), body)


def test_the_headers_and_catch_up_go_first_then_what_was_queued(parked):
    parking, park = parked
    server, client = socket.socketpair()
    sub = Subscriber("ann", "10.0.0.1", ["m1"])
    sub.push(("event", "m1", 3, '"queued"', 0))
    parking.park(server.detach(), True, None, sub, Writer(), time.monotonic() + 60, lambda: True, lambda: True,
                 lambda: None, opening=b"id: 2\ndata: 2\n\n", head=b"HTTP/1.1 200 OK\r\n\r\n")
    got = read_until(client, b"queued")
    client.close()
    assert got == b"HTTP/1.1 200 OK\r\n\r\n" + chunk(b"id: 2\ndata: 2\n\n") + chunk(b'id: 3\ndata: "queued"\n\n')


def test_a_last_opening_is_written_and_the_stream_ends(parked):
    parking, park = parked
    client, sub, released = park(opening=b"event: reload\nid: 7\ndata: {}\n\n", head=b"H\r\n\r\n", last=True)
    sub.push(("event", "m1", 8, '"after"', 0))
    assert wait_for(lambda: released) and len(parking) == 0
    assert read_some(client) == b"H\r\n\r\n" + chunk(b"event: reload\nid: 7\ndata: {}\n\n") + END_CHUNK


def test_a_catch_up_the_client_never_reads_waits_within_the_budget_and_counts_for_the_process(parked):
    parking, park = parked
    opening = b"x" * (stream_parking.MAX_PENDING - 4096)  # more than a socket pair's buffers take
    client, sub, released = park(opening=opening, head=b"H\r\n\r\n")
    assert not released and 0 < parking._pending_total < len(opening)  # the kernel took some; the rest waits
    gevent.sleep(0.1)
    assert not released and len(parking) == 1  # parked at once: nothing blocked on the write


def test_a_catch_up_beyond_what_a_connection_may_fall_behind_ends_it(parked):
    parking, park = parked
    client, sub, released = park(opening=b"x" * (stream_parking.MAX_PENDING + (1 << 20)))
    assert released and len(parking) == 0 and parking._pending_total == 0


def test_lifetime_and_keep_alives_hold_while_a_write_is_blocked(parked):
    parking, park = parked
    opening = b"x" * (stream_parking.MAX_PENDING - 4096)
    client, sub, released = park(opening=opening)
    quiet_client, _sub, _released = park(opening=opening)
    blocked = next(p for p in parking._streams.values() if p.sub is _sub)
    waiting = len(blocked.pending)
    parking.sweep(time.monotonic() + stream_parking.KEEPALIVE_SECONDS + 1)  # the writer gets a keep-alive to send
    assert wait_for(lambda: len(blocked.pending) == waiting + len(chunk(b": keep-alive\n\n")))
    stream = next(p for p in parking._streams.values() if p.sub is sub)
    stream.ends = time.monotonic()
    parking.sweep(time.monotonic())
    assert wait_for(lambda: released) and len(parking) == 1  # its lifetime is over: ended though its write waits
