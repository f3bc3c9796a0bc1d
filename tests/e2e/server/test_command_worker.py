"""The Procfile server's short path for commands (service/server/command_worker.py) over real keep-alive connections:
commands and other requests mixed on one connection, commands pipelined in one send, and a refusal read the same
whether the short path or gunicorn answered it."""
from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

from tests.e2e.processes import Api, service, start_invited


class Connection:
    """One raw keep-alive HTTP/1.1 connection (no Connection header: the way the bench's clients speak)."""

    def __init__(self, base: str):
        where = urlsplit(base)
        self.sock = socket.create_connection((where.hostname, where.port), timeout=30)
        self.buffer = b""

    @staticmethod
    def request(method: str, path: str, token: str, body=None) -> bytes:
        """The bytes of one request."""
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        return head.encode() + b"\r\n" + data

    def send(self, *requests: bytes) -> list:
        """Send the requests in one write; [(status, {header: value}, body)] of their answers, in order."""
        self.sock.sendall(b"".join(requests))
        return [self.answer() for _ in requests]

    def answer(self) -> tuple[int, dict, bytes]:
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.recv()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        length = int(headers["Content-Length"])
        while len(self.buffer) < length:
            self.buffer += self.recv()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(lines[0].split()[1]), headers, body

    def recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        assert chunk, "the server closed the connection"
        return chunk


def _match(base: str) -> tuple[str, dict]:
    """A started Uchronia match of ann and bob: (its id, {user id: token})."""
    users = [Api(base).post("/api/users", {"name": name})[1] for name in ("ann", "bob")]
    tokens = {u["id"]: u["token"] for u in users}
    status, match = start_invited(Api(base, users[0]["token"]), {"game": "uchronia", "players": list(tokens)}, tokens)
    assert status == 201, match
    return match["id"], tokens


def _next_command(base: str, match_id: str, tokens: dict) -> tuple[str, dict]:
    """(the token of a player to move, a legal command of theirs)."""
    for token in tokens.values():
        _, legal = Api(base, token).get(f"/api/matches/{match_id}/legal")
        if legal["commands"]:
            return token, legal["commands"][0]
    raise AssertionError("nobody may move")


def test_commands_and_other_requests_share_a_connection(redis_url, redis_client, tmp_path):
    """A command, then a GET (gunicorn's from then on), then a command, on one connection; then two commands of two
    matches in one send on another: every answer arrives, in order."""
    with service(redis_url, tmp_path, worker=False) as base:
        first, tokens = _match(base)
        second, tokens2 = _match(base)
        conn = Connection(base)
        path = f"/api/matches/{first}/commands"
        token, cmd = _next_command(base, first, tokens)
        [(status, _, body)] = conn.send(conn.request("POST", path, token, cmd))
        assert status == 201, body
        [(status, _, body)] = conn.send(conn.request("GET", f"/api/matches/{first}", token))
        assert status == 200 and json.loads(body)["version"] == json.loads(body)["version"]
        token, cmd = _next_command(base, first, tokens)
        [(status, _, body)] = conn.send(conn.request("POST", path, token, cmd))
        assert status == 201, body
        token_a, cmd_a = _next_command(base, first, tokens)
        token_b, cmd_b = _next_command(base, second, tokens2)
        answers = Connection(base).send(Connection.request("POST", path, token_a, cmd_a),
                                        Connection.request("POST", f"/api/matches/{second}/commands", token_b, cmd_b))
        assert [status for status, _, _ in answers] == [201, 201], answers
        assert json.loads(answers[1][2])["version"] == Api(base).get(f"/api/matches/{second}")[1]["version"]


def test_a_refusal_reads_the_same_from_either_path(redis_url, redis_client, tmp_path):
    """A stale expected version, a bad token and an invalid body, each sent first on a fresh connection (the short
    path) and after a GET on another (gunicorn's): the same status, headers (Date and request id aside) and body."""
    with service(redis_url, tmp_path, worker=False) as base:
        match_id, tokens = _match(base)
        token, cmd = _next_command(base, match_id, tokens)
        path = f"/api/matches/{match_id}/commands"
        for token_sent, body in ((token, dict(cmd, expected_version=0)), ("u_nobody.secret", cmd),
                                 (token, {"type": 5})):
            short = Connection(base).send(Connection.request("POST", path, token_sent, body))[0]
            theirs = Connection(base)
            theirs.send(Connection.request("GET", "/api/games", token))
            gunicorns = theirs.send(Connection.request("POST", path, token_sent, body))[0]
            for status, headers, _ in (short, gunicorns):
                headers.pop("Date"), headers.pop("X-Request-ID")
            assert short == gunicorns and short[0] in (400, 401, 409), (short, gunicorns)
