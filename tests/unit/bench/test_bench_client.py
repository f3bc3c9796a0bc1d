"""The bench's raw-socket HTTP client reads responses however the bytes arrive (split, or two in one read)."""
from __future__ import annotations

import socket
import threading

import pytest

from service.cli.bench.http import Client


def _serve(chunks_per_request):
    """A one-connection server: for each request read, send the given chunks (with small pauses between)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    requests = []

    def run():
        conn, _ = listener.accept()
        with conn:
            for chunks in chunks_per_request:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, rest = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(rest) < length:
                    rest += conn.recv(65536)
                requests.append((head, rest))
                for chunk in chunks:
                    conn.sendall(chunk)
        listener.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return listener.getsockname()[1], requests, thread


def _response(status: str, body: bytes, extra: str = "") -> bytes:
    return f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}Content-Length: {len(body)}\r\n\r\n".encode() + body


def test_split_and_coalesced_responses_are_read_whole_in_order():
    first, second, third = _response("201 CREATED", b'{"v":1}'), _response("200 OK", b'{"v":2}'), \
        _response("200 OK", b"[]", "X-Other: 1\r\n")
    port, requests, thread = _serve([
        [first[:5], first[5:30], first[30:]],  # split anywhere, headers included
        [second + third],  # two responses in one read: the second waits for its request
        [],
    ])
    client = Client(port)
    assert client.call("POST", "/a", "tok", b'{"x":1}', expect=201) == b'{"v":1}'
    assert client.call("GET", "/b", "tok") == b'{"v":2}'
    assert client.call("GET", "/c", "tok") == b"[]"
    thread.join(5)
    head, body = requests[0]
    assert head.startswith(b"POST /a HTTP/1.1") and b"Authorization: Bearer tok" in head and body == b'{"x":1}'


def test_an_unexpected_status_or_a_closed_connection_is_an_error():
    port, _requests, thread = _serve([[_response("409 CONFLICT", b'{"error":{}}')], []])
    client = Client(port)
    with pytest.raises(RuntimeError, match="HTTP 409"):
        client.call("GET", "/x", "tok")
    with pytest.raises((ConnectionError, OSError)):  # the server reads /y, answers nothing and closes
        client.call("GET", "/y", "tok")
    thread.join(5)
