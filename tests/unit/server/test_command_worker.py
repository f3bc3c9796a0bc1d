"""The worker's short path (service/server/command_worker.py) reads only plain command requests, gives them the
environ gunicorn gives them and answers them with the bytes gunicorn writes; every other request is gunicorn's."""
from __future__ import annotations

import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import wsgi as gwsgi
from gunicorn.http.parser import RequestParser

from service.server.command_worker import CommandWorker, read_plain, response_head

PATH = "/api/matches/m_0123abcd/commands"
BODY = b'{"type": "note", "payload": {"text": "hi"}}'
ADDR, SERVER = ("10.0.0.7", 40123), ("127.0.0.1", 8000)


def raw(*headers: str, body: bytes = BODY, line: str = f"POST {PATH} HTTP/1.1") -> bytes:
    """Request bytes: the line, the headers (Host, Content-Type and Content-Length first unless given), the body."""
    given = {h.split(":", 1)[0].lower() for h in headers}
    head = [line] + [h for h, name in (("Host: 127.0.0.1:8000", "host"), ("Content-Type: application/json",
                                                                           "content-type"),
                                       (f"Content-Length: {len(body)}", "content-length")) if name not in given]
    return ("\r\n".join(head + list(headers)) + "\r\n\r\n").encode("latin-1") + body


class Sock:
    """A socket that records what is sent."""

    def __init__(self):
        self.sent = b""

    def sendall(self, data):
        self.sent += bytes(data)

    send = sendall


def gunicorns_environ(data: bytes, cfg: Config) -> dict:
    """What gunicorn's parser and wsgi.create give the app for these bytes."""
    req = next(RequestParser(cfg, [data], ADDR))
    _resp, environ = gwsgi.create(req, Sock(), ADDR, SERVER, cfg)
    environ["wsgi.multithread"] = True  # as gunicorn's async workers set it
    return environ


def short_paths_environ(data: bytes, cfg: Config) -> dict:
    """What the short path gives the app for these bytes."""
    worker = CommandWorker.__new__(CommandWorker)
    worker.cfg, worker.base_environ = cfg, gwsgi.base_environ(cfg)
    path, headers, body_at, length = read_plain(data, cfg)
    return worker.environ(path, headers, data[body_at:body_at + length], object(), ADDR, SERVER)


OWN_OBJECTS = ("wsgi.input", "wsgi.errors", "gunicorn.socket", "wsgi.early_hints")


@pytest.mark.parametrize("data", [
    raw(), raw("Authorization: Bearer u_1.secret", "X-Request-ID: abc"),
    raw("authorization:   Bearer x  ", "accept: */*", "User-Agent: bench/1"),
    raw("Accept-Encoding: gzip", "X-Custom-Header: a b\tc", body=b'{"type": "roll"}'),
])
def test_a_plain_command_gets_the_environ_gunicorn_gives_it(data):
    """Every key and value but gunicorn's own objects; the same body to read."""
    cfg = Config()
    theirs, ours = gunicorns_environ(data, cfg), short_paths_environ(data, cfg)
    assert {k: v for k, v in ours.items() if k not in OWN_OBJECTS} == \
        {k: v for k, v in theirs.items() if k not in OWN_OBJECTS}
    assert ours["wsgi.input"].read() == theirs["wsgi.input"].read()
    assert type(ours["wsgi.errors"]) is type(theirs["wsgi.errors"])


@pytest.mark.parametrize("data", [
    raw(line=f"GET {PATH} HTTP/1.1"), raw(line=f"POST {PATH} HTTP/1.0"), raw(line=f"POST {PATH}?x=1 HTTP/1.1"),
    raw(line="POST /api/matches/m_1/commands/ HTTP/1.1"), raw(line="POST /api/matches/m%5F1/commands HTTP/1.1"),
    raw(line=f"post {PATH} HTTP/1.1"), raw("Transfer-Encoding: chunked"), raw("Expect: 100-continue"),
    raw("Connection: keep-alive"), raw("Connection: close"), raw("Upgrade: h2c"), raw("X-Forwarded-For: 1.2.3.4"),
    raw("X-Forwarded-Proto: https"), raw("Forwarded: for=1.2.3.4"), raw("X_Custom: 1"), raw("X-A: 1", "x-a: 2"),
    raw("Content-Length: 5", "Content-Length: 5"), raw("Content-Length: +5"), raw("Host: a", "Host: b"),
    raw("X-Bad: caf\xe9"), raw("X-Bad: a\x00b"), raw(" Folded: 1"), raw("No-Colon"),
    raw().replace(b"Host: 127.0.0.1:8000\r\n", b""), raw()[:-1], raw().replace(b"\r\n\r\n", b"\r\n"),
    raw(*[f"X-H{i}: 1" for i in range(101)]), raw(f"X-Long: {'a' * 8200}"), raw(body=b"x" * 60_000),
])
def test_any_other_request_is_left_to_gunicorn(data):
    """Another method, version, target or framing; a forwarding, upgrade or 100-continue header; a repeated, folded,
    malformed or non-ASCII header; no Host; a body not all here; beyond gunicorn's limits: not the short path's."""
    assert read_plain(data, Config()) is None


@pytest.mark.parametrize("close", [False, True])
def test_the_answer_is_the_bytes_gunicorn_writes(monkeypatch, close):
    """Status line, gunicorn's own headers, the app's (a hop-by-hop one dropped), then the body."""
    monkeypatch.setattr(util, "http_date", lambda timestamp=None: "Wed, 02 Dec 2026 03:00:00 GMT")
    status, body = "201 CREATED", b'{"version":3}\n'
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
               ("X-Content-Type-Options", "nosniff"), ("X-Request-ID", "0123456789abcdef"), ("Keep-Alive", "5")]
    req = next(RequestParser(Config(), [raw()], ADDR))
    sock = Sock()
    resp = gwsgi.Response(req, sock, Config())
    if close:
        resp.force_close()
    resp.start_response(status, headers)
    resp.write(body)
    resp.close()
    assert response_head(status, headers, close, len(body)) + body == sock.sent


@pytest.mark.parametrize("headers, error", [
    ([("X-Ok", "1"), ("Bad Name", "1")], gwsgi.InvalidResponseHeaderName),
    ([("X-Ok", "1"), ("X-Bad", "a\r\nb")], gwsgi.InvalidResponseHeader),
    ([("Bad Name", "a\nb")], gwsgi.InvalidResponseHeaderName),
    ([("X-Bad", "a\nb"), ("Bad Name", "1")], gwsgi.InvalidResponseHeader),
])
def test_a_bad_header_is_refused_as_gunicorn_refuses_it(headers, error):
    """The first bad name or value, in gunicorn's order, raises gunicorn's error naming that header."""
    resp = gwsgi.Response(next(RequestParser(Config(), [raw()], ADDR)), Sock(), Config())
    with pytest.raises(error) as theirs:
        resp.start_response("201 CREATED", headers)
    with pytest.raises(error) as ours:
        response_head("201 CREATED", headers, False, 0)
    assert str(ours.value) == str(theirs.value)


def test_the_short_path_serves_only_where_it_skips_nothing_gunicorn_would_do():
    """The Procfile's settings allow it; keep-alive off, an access log, a SCRIPT_NAME, the PROXY protocol or an
    operator's request hook leave every request to gunicorn."""
    from service.server.command_worker import short_path_allowed

    def cfg(**settings):
        made = Config()
        made.set("keepalive", 5)
        for name, value in settings.items():
            made.set(name, value)
        return made

    assert short_path_allowed(cfg(), {})
    assert not short_path_allowed(cfg(keepalive=0), {})
    assert not short_path_allowed(cfg(accesslog="-"), {})
    assert not short_path_allowed(cfg(), {"SCRIPT_NAME": "/app"})
    assert not short_path_allowed(cfg(proxy_protocol="v1"), {})
    assert not short_path_allowed(cfg(pre_request=lambda worker, req: None), {})
