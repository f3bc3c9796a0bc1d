"""The Procfile server's worker: gunicorn's gevent worker with a short path for the request every move takes.

gunicorn reads a request through its general parser (every header through its policy checks), builds its WSGI
environ and response objects and writes the answer with its header checks: about a quarter of a worker's CPU per
command. Here each request on a connection is first peeked at (MSG_PEEK: nothing is read from the socket yet). A
`POST /api/matches/<id>/commands` of the plainest shape (HTTP/1.1, a Host, a Content-Length whose body is already
here, printable header values, none of the headers that ask for framing, forwarding, an upgrade or a 100-continue,
within gunicorn's own limits) is read, given the environ gunicorn would give it and answered with the bytes
gunicorn would send. At the first request of any other shape the connection goes to gunicorn's own loop, which
reads that request from the socket untouched. Off (gunicorn serves every request) with TLS, the PROXY protocol,
keep-alive off, a SCRIPT_NAME, an access log or pre/post-request hooks of the operator's.
"""
from __future__ import annotations

import io
import os
import re
import socket

import gevent
from gunicorn import config as gconfig
from gunicorn import util
from gunicorn.http import wsgi as gwsgi
from gunicorn.workers.ggevent import GeventWorker

PEEK_BYTES = 65536
MAX_BODY = PEEK_BYTES - 8192  # a larger body, still within the app's limit, is read by gunicorn
OWS = " \t"
REQUEST_LINE = re.compile(rb"POST (/api/matches/[A-Za-z0-9_\-]{1,64}/commands) HTTP/1\.1\r\n")
NAME = re.compile(rb"[A-Za-z0-9-]+")
NOT_PRINTABLE = re.compile(rb"[^\t\x20-\x7e]")
# headers that change how a request is framed, forwarded or answered: gunicorn decides those requests
GUNICORN_DECIDES = frozenset(("TRANSFER-ENCODING", "EXPECT", "UPGRADE", "CONNECTION", "TE", "TRAILER", "FORWARDED",
                              "PROXY-CONNECTION", "HTTP2-SETTINGS", "KEEP-ALIVE"))


class CommandWorker(GeventWorker):
    """gunicorn's gevent worker, answering plain command requests itself (see the module's text)."""

    def init_process(self):
        """Decide once whether the short path may serve, and what every environ starts with."""
        self.short_path = short_path_allowed(self.cfg, os.environ)
        self.base_environ = gwsgi.base_environ(self.cfg)
        super().init_process()

    def handle(self, listener, client, addr):
        """Serve the connection's plain command requests, then hand it to gunicorn at the first other request."""
        if not getattr(self, "short_path", False) or not isinstance(addr, tuple):
            return super().handle(listener, client, addr)
        client.setblocking(1)
        try:
            done = self.serve_plain(listener.getsockname(), client, addr)
        except OSError:  # the client went away: gunicorn would close the connection too
            done = True
        except Exception:  # as gunicorn's handle: logged, the connection ended
            self.log.exception("Error handling request")
            done = True
        if done:
            util.close(client)
            return None
        return super().handle(listener, client, addr)

    def serve_plain(self, server, client, addr) -> bool:
        """Answer plain command requests while they come; True when the connection is finished (idle past
        keep-alive, closed, or to be closed), False when its next request is for gunicorn (nothing of it read)."""
        while True:
            data = None
            with gevent.Timeout(self.cfg.keepalive, False):
                data = client.recv(PEEK_BYTES, socket.MSG_PEEK)
            if not data:
                return True
            plain = read_plain(data, self.cfg)
            if plain is None:
                return False
            path, headers, body_at, length = plain
            taken = 0
            while taken < body_at + length:  # the peeked bytes are there: read exactly this request
                taken += len(client.recv(body_at + length - taken))
            self.nr += 1
            if self.nr >= self.max_requests and self.alive:
                self.log.info("Autorestarting worker after current request.")
                self.alive = False
            close = not self.alive or not self.cfg.keepalive
            environ = self.environ(path, headers, data[body_at:body_at + length], client, addr, server)
            if not self.answer(client, environ, close) or close:
                return True

    def environ(self, path: str, headers: list, body: bytes, client, addr, server) -> dict:
        """The WSGI environ gunicorn builds for this request (tests/unit/test_command_worker.py compares them)."""
        env = dict(self.base_environ)
        env.update({"wsgi.input": io.BytesIO(body), "gunicorn.socket": client, "REQUEST_METHOD": "POST",
                    "QUERY_STRING": "", "RAW_URI": path, "SERVER_PROTOCOL": "HTTP/1.1"})
        for name, value in headers:
            if name == "CONTENT-TYPE":
                env["CONTENT_TYPE"] = value
            elif name == "CONTENT-LENGTH":
                env["CONTENT_LENGTH"] = value
            else:
                env["HTTP_" + name.replace("-", "_")] = value
        env.update({"wsgi.url_scheme": "http", "REMOTE_ADDR": addr[0], "REMOTE_PORT": str(addr[1]),
                    "SERVER_NAME": server[0], "SERVER_PORT": str(server[1]), "PATH_INFO": path, "SCRIPT_NAME": "",
                    "wsgi.multithread": True})
        return env

    def answer(self, client, environ: dict, close: bool) -> bool:
        """Run the app and send its answer as gunicorn would; False when the connection must end."""
        started = []

        def start_response(status, headers, exc_info=None):
            started[:] = [status, headers]
            return client.sendall

        try:
            result = self.wsgi(environ, start_response)
            try:
                body = b"".join(result)
            finally:
                if hasattr(result, "close"):
                    result.close()
            client.sendall(response_head(started[0], started[1], close, len(body)) + body)
        except OSError:
            raise
        except Exception:  # as gunicorn's handle_request: logged, a 500, the connection ended
            self.log.exception("Error handling request")
            util.write_error(client, 500, "Internal Server Error", "")
            return False
        return True


def short_path_allowed(cfg, environ) -> bool:
    """Whether the short path may serve under this configuration: plain TCP without TLS or the PROXY protocol,
    keep-alive on, no SCRIPT_NAME, no access log and gunicorn's own request hooks (nothing it would skip)."""
    return (not cfg.is_ssl and cfg.proxy_protocol in (False, "off", None) and cfg.keepalive > 0
            and not cfg.accesslog and not environ.get("SCRIPT_NAME")
            and cfg.pre_request is gconfig.PreRequest.default and cfg.post_request is gconfig.PostRequest.default)


def read_plain(data: bytes, cfg):
    """(path, [(NAME, value)], where the body starts, its length) of a plain command request whose body is all in
    `data`, else None (gunicorn reads it)."""
    line = REQUEST_LINE.match(data)
    end = data.find(b"\r\n\r\n")
    if line is None or end < line.end():
        return None
    headers, names = [], set()
    fields = data[line.end():end].split(b"\r\n")
    if len(fields) > cfg.limit_request_fields:
        return None
    for field in fields:
        name, colon, value = field.partition(b":")
        if not colon or len(field) > cfg.limit_request_field_size or not NAME.fullmatch(name) \
                or NOT_PRINTABLE.search(value):
            return None
        name = name.decode("ascii").upper()
        if name in names or name in GUNICORN_DECIDES or name.startswith("X-FORWARDED"):
            return None
        names.add(name)
        headers.append((name, value.strip(b" \t").decode("ascii")))
    length = dict(headers).get("CONTENT-LENGTH", "")
    if "HOST" not in names or not length.isdigit() or int(length) > MAX_BODY or end + 4 + int(length) > len(data):
        return None
    return line[1].decode("ascii"), headers, end + 4, int(length)


def response_head(status: str, headers: list, close: bool, length: int) -> bytes:
    """The status line and headers gunicorn writes for a sized answer (its checks: names and values, no hop-by-hop
    header from the app), with the body's length when the app gave none."""
    lines = [f"HTTP/1.1 {status}\r\nServer: gunicorn\r\nDate: {util.http_date()}\r\n"
             f"Connection: {'close' if close else 'keep-alive'}\r\n"]
    if not gwsgi.HEADER_VALUE_RE.fullmatch("".join(value for _, value in headers)):  # a run of allowed characters
        for name, value in headers:  # the first refusal in gunicorn's order: a header's name, then its value
            _name_kind(name)
            if not gwsgi.HEADER_VALUE_RE.fullmatch(value):
                raise gwsgi.InvalidResponseHeader(f"{name!r}")
    sized = False
    for name, value in headers:
        kind = NAME_KINDS.get(name) or _name_kind(name)
        if kind == "hop":
            continue
        sized = sized or kind == "length"
        lines.append(f"{name}: {value.strip(OWS)}\r\n")
    if not sized:
        lines.append(f"Content-Length: {length}\r\n")
    return ("".join(lines) + "\r\n").encode("latin-1")


NAME_KINDS: dict = {}  # a response header's name -> "hop" (not sent), "length" or "plain", once it passed the check


def _name_kind(name: str) -> str:
    """What gunicorn makes of a response header's name (InvalidResponseHeaderName when it is no token), kept for the
    next answer (an app sends a few names, so the table stays small)."""
    if not gwsgi.TOKEN_RE.fullmatch(name):
        raise gwsgi.InvalidResponseHeaderName(f"{name!r}")
    kind = "hop" if util.is_hoppish(name) else "length" if name.lower() == "content-length" else "plain"
    if len(NAME_KINDS) < 256:
        NAME_KINDS[name] = kind
    return kind
