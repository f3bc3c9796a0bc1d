"""gunicorn responses that put a sized response's headers and first body bytes on the wire in one send, and
gunicorn's own error answers (a request it cannot parse) as JSON like every other error.

gunicorn writes the status line and headers with one `sendall` and the body with another. On loopback
and in small VMs every send costs a system call that wakes the reader, so a JSON answer paid twice. Here
the header bytes wait for the first body write and go out with it; anything else (a chunked stream, a
file sent by sendfile, a response without a body) is written exactly as gunicorn writes it.
"""
from __future__ import annotations

import json
import os
import socket
import time

from gunicorn import util
from gunicorn.http import wsgi

from service.server import stream_parking


class OneSendResponse(wsgi.Response):
    """A gunicorn Response whose headers travel with the first body bytes of a sized (not chunked) response, and
    which hands a live stream's connection to the parked streams (service/server/stream_parking.py)."""

    _held = b""
    handed_off = False  # the connection went to this process's parked streams: gunicorn writes nothing more

    def write(self, arg):
        """Write body bytes; the first write of a sized response carries the headers in the same send; a
        stream's HandOff, as the first write, hands its connection, headers and bytes to the parked streams."""
        if isinstance(arg, stream_parking.HandOff) and self._can_park():
            self.force_close()  # the headers say `Connection: close`: this connection serves nothing else
            head, self.headers_sent = self.header_bytes(), True  # written by the parked streams, never blocking
            fd = os.dup(self.sock.fileno())  # gunicorn closes its own descriptor; the connection lives on in this one
            try:
                arg.take(fd, self.chunked, head)
            except BaseException:
                os.close(fd)
                raise
            arg.taken = self.handed_off = True
            return None
        return self._write(arg)

    def _can_park(self) -> bool:
        """Parking needs a plain TCP or Unix socket (not TLS), this response's first bytes, and HTTP/1.x."""
        return (stream_parking.current() is not None and not self.headers_sent and not self._omits_body
                and isinstance(self.sock, socket.socket) and not hasattr(self.sock, "do_handshake")
                and self.req.version < (2, 0))

    def close(self):
        """End the response, unless its connection was handed off (the parked stream ends it later)."""
        if not self.handed_off:
            super().close()

    def header_bytes(self) -> bytes:
        """The status line and headers, as gunicorn's send_headers writes them."""
        tosend = self.default_headers()
        tosend.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])
        return ("%s\r\n" % "".join(tosend)).encode("latin-1")

    def _write(self, arg):
        if self.headers_sent or self.chunked or not isinstance(arg, bytes) or not arg:
            return super().write(arg)
        self._held, self.headers_sent = self.header_bytes(), True
        try:
            return super().write(arg)
        finally:
            self._flush_held()  # nothing was emitted (a body-less response, or past Content-Length)

    def _emit_body(self, data):
        if self._held:
            data, self._held = self._held + data, b""
        super()._emit_body(data)

    def _flush_held(self) -> None:
        if self._held:
            held, self._held = self._held, b""
            self.sock.sendall(held)


def write_json_error(sock, status_int: int, reason: str, _mesg: str) -> None:
    """gunicorn's answer to a request it could not parse (an over-long request line or header, a malformed
    request), as the service's JSON error; the request's own bytes are never echoed back."""
    code = "_".join(reason.lower().replace("-", " ").split()) or "bad_request"
    body = json.dumps({"error": {"code": code, "message": f"{reason.lower()}: the server could not read this "
                                                          "request"}}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)


class SecondDate:
    """gunicorn's `http_date()` for the current time, formatted once a second instead of once a response (the
    Date header has one-second resolution; email.utils formatted it for every answer)."""

    def __init__(self, format_date=util.http_date, clock=time.time):
        self.format_date, self.clock = format_date, clock
        self.second, self.text = None, ""

    def __call__(self, timestamp=None) -> str:
        """The HTTP date of `timestamp`, or of now (the second's text, kept)."""
        if timestamp is not None:
            return self.format_date(timestamp)
        second = int(self.clock())
        if second != self.second:
            self.text, self.second = self.format_date(second), second
        return self.text


def install() -> None:
    """Make this worker process's gunicorn build OneSendResponses, answer its own errors as JSON and format the
    Date header once a second (called in the worker, after the fork)."""
    wsgi.Response = OneSendResponse
    util.write_error = write_json_error
    util.http_date = SecondDate()
