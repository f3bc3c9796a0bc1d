"""The bench's load generator drives every client from one thread: a slow answer holds back only its own client,
and a refused request fails the phase with the server's words."""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from service.cli.bench.http import LoadGenerator


class _Server(BaseHTTPRequestHandler):
    """Answers a note with 201: at once, after 0.3 s on the match "slow", and with 409 on the match "refused"."""
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once, not 40 ms apart

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        match_id = self.path.split("/")[3]
        if match_id == "slow":
            time.sleep(0.3)
        body = b'{"error": "stale"}' if match_id == "refused" else b'{"version": 1}'
        self.send_response(409 if match_id == "refused" else 201)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass  # the test reads the answers, not the log


@pytest.fixture
def port():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


def _generator(port: int, matches: list) -> LoadGenerator:
    return LoadGenerator(port, {"plans": [], "tokens": {"ann": "t"}, "notes": [(m, "ann") for m in matches],
                                "state_targets": []}, {})


def test_a_slow_answer_holds_back_only_its_own_client(port):
    figures = _generator(port, ["slow", "fast"]).phase("note", 2, 0.6)
    slow = [t for t in figures["latencies"] if t >= 0.3]
    fast = [t for t in figures["latencies"] if t < 0.3]
    assert 1 <= len(slow) <= 3 and len(fast) > 10 * len(slow)
    assert figures["wall"] >= 0.6 and "load_generator" in figures["cpu"]


def test_a_refused_request_fails_the_phase_with_the_servers_answer(port):
    with pytest.raises(RuntimeError, match=r"1 clients failed, first: .*HTTP 409.*stale"):
        _generator(port, ["fast", "refused"]).phase("note", 2, 0.2)
