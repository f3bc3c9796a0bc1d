"""A webhook receiver on loopback for the notifications tests: it records every POST and answers from a script."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """An HTTP server on 127.0.0.1 that records POSTs and answers from a script of statuses (then 200)."""

    def __init__(self, statuses=()):
        self.calls = []
        self.statuses = list(statuses)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.calls.append({"at": time.monotonic(), "body": body, "headers": dict(self.headers)})
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def notices(self) -> list:
        """The JSON bodies received."""
        return [json.loads(c["body"]) for c in self.calls]

    def close(self):
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()
