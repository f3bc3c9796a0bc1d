"""gunicorn responses that put a sized response's headers and first body bytes on the wire in one send.

gunicorn writes the status line and headers with one `sendall` and the body with another. On loopback
and in small VMs every send costs a system call that wakes the reader, so a JSON answer paid twice. Here
the header bytes wait for the first body write and go out with it; anything else (a chunked stream, a
file sent by sendfile, a response without a body) is written exactly as gunicorn writes it.
"""
from __future__ import annotations

from gunicorn.http import wsgi


class OneSendResponse(wsgi.Response):
    """A gunicorn Response whose headers travel with the first body bytes of a sized (not chunked) response."""

    _held = b""

    def header_bytes(self) -> bytes:
        """The status line and headers, as gunicorn's send_headers writes them."""
        tosend = self.default_headers()
        tosend.extend(["%s: %s\r\n" % (k, v) for k, v in self.headers])
        return ("%s\r\n" % "".join(tosend)).encode("latin-1")

    def write(self, arg):
        """Write body bytes; the first write of a sized response carries the headers in the same send."""
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


def install() -> None:
    """Make this worker process's gunicorn build OneSendResponses (called in the worker, after the fork)."""
    wsgi.Response = OneSendResponse
