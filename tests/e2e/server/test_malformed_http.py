"""Malformed input over a real HTTP server (`turnstream web`): raw bytes a test client cannot send as they are
(invalid UTF-8 in a path, deep nesting, a lone surrogate, a version beyond any stream id) are 400 JSON."""
from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

from tests.e2e.processes import Api, service


def raw_request(base: str, method: str, path: bytes, body: bytes | None = None, token: str | None = None):
    """(status, parsed JSON body) of one HTTP/1.0 request written byte for byte on a socket."""
    where = urlsplit(base)
    head = [method.encode() + b" " + path + b" HTTP/1.0", b"Host: " + where.netloc.encode(),
            b"Content-Type: application/json", b"Content-Length: " + str(len(body or b"")).encode()]
    if token:
        head.append(b"Authorization: Bearer " + token.encode())
    with socket.create_connection((where.hostname, where.port), timeout=30) as sock:
        sock.sendall(b"\r\n".join(head) + b"\r\n\r\n" + (body or b""))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    status_line, _, rest = b"".join(chunks).partition(b"\r\n")
    return int(status_line.split()[1]), json.loads(rest.partition(b"\r\n\r\n")[2] or b"null")


def test_malformed_requests_to_a_real_server_are_400_json(redis_url, redis_client, tmp_path):
    """Each malformed request answers 400 with a JSON error code; the server keeps serving."""
    with service(redis_url, tmp_path, worker=False) as base:
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        _, bob = Api(base).post("/api/users", {"name": "bob"})
        status, match = Api(base, ann["token"]).post("/api/matches", {"game": "uchronia",
                                                                      "players": [ann["id"], bob["id"]]})
        assert status == 201
        mid = match["id"].encode()
        cases = [
            ("POST", b"/api/users", b'{"name": ' + b"[" * 3000 + b"]" * 3000 + b"}", "too_deeply_nested"),
            ("POST", b"/api/users", b'{"name": ' + b"[" * 100 + b"]" * 100 + b"}", "too_deeply_nested"),
            ("POST", b"/api/users", b'{"name": "\\ud800"}', "invalid_string"),
            ("POST", b"/api/users", b'{"name": "\xed\xa0\x80"}', "invalid_string"),
            ("GET", b"/api/matches/%ED%A0%80", None, "invalid_string"),
            ("GET", b"/api/matches/%FF/events", None, "invalid_string"),
            ("GET", b"/api/matches?player=%ff", None, "invalid_string"),
            ("POST", b"/api/matches/" + mid + b"/disputes", b'{"version": 18446744073709551616, "reason": "x"}',
             "invalid_body"),
            ("POST", b"/api/matches/" + mid + b"/disputes", b'{"version": 18446744073709551615, "reason": "x"}',
             "invalid_body"),
            ("GET", b"/api/matches/" + mid + b"/events?after=18446744073709551616", None, "invalid_query"),
            ("GET", b"/api/matches/" + mid + b"/replay?version=9223372036854775808", None, "invalid_query"),
        ]
        for method, path, body, code in cases:
            status, answer = raw_request(base, method, path, body, ann["token"])
            assert status == 400 and answer["error"]["code"] == code, (path, body and body[:40], status, answer)
        assert Api(base).get(f"/api/matches/{match['id']}")[0] == 200, "the server still serves"
        # what gunicorn refuses before the app sees it is JSON too, and does not echo the request back (sizes
        # just over its limits: a request much longer than what it read is cut by a reset before the answer)
        status, answer = raw_request(base, "GET", b"/api/matches/" + b"a" * 5_000, None, ann["token"])
        assert status == 414 and answer["error"]["code"] == "uri_too_long", (status, answer)
        status, answer = raw_request(base, "GET", b"/api/games", None, "x" * 8_300)
        assert status in (400, 431) and answer["error"]["message"] and "xxxx" not in json.dumps(answer)
        assert Api(base).get(f"/api/matches/{match['id']}")[0] == 200, "the server still serves"
