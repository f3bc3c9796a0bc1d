"""POST /api/matches/<id>/commands answered without Flask's per-request machinery (service/web/command_route.py)
answers exactly what the Flask route answers: status, headers, body and request log line, for a command and for
every refusal; requests of any other shape, and every request with TURNSTREAM_MIN_REPLICAS, go to Flask."""
from __future__ import annotations

import logging
import re

import pytest
from werkzeug.test import EnvironBuilder, run_wsgi_app

from service import create_app
from service.bootstrap import build
from service.logs import RequestContext
from service.web.command_route import CommandRoute
from tests.conftest import HIGH_LIMITS
from tests.invites import start_http

MASKED = "<match>"


@pytest.fixture
def app(wiring):
    """The app, its command route, and the Flask app behind it."""
    app = create_app(wiring=wiring)
    assert isinstance(app.wsgi_app, CommandRoute)
    return app


def _users(client, *names):
    """Users made through the API: [(id, auth headers)]."""
    made = []
    for name in names:
        data = client.post("/api/users", json={"name": name}).get_json()
        made.append((data["id"], {"Authorization": f"Bearer {data['token']}"}))
    return made


def _pair(app):
    """Two dice-race matches in the same state between the same ann and bob: (ids, ann, bob, eve)."""
    client = app.test_client()
    (ann, ha), (bob, hb), (eve, he) = _users(client, "ann", "bob", "eve")
    ids = [start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb) for _ in range(2)]
    return ids, ha, hb, he


class _Lines(logging.Handler):
    """The request log lines, with the context the service's handler adds to them."""

    def __init__(self):
        super().__init__()
        self.addFilter(RequestContext())
        self.lines: list = []

    def emit(self, record):
        self.lines.append(record)


def _call(wsgi, match_id: str, headers: dict, data=None, json=None, content_type=None) -> dict:
    """One command request through `wsgi`: status, headers and body, the match id masked."""
    environ = EnvironBuilder(path=f"/api/matches/{match_id}/commands", method="POST", headers=headers, data=data,
                             json=json, content_type=content_type, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    app_iter, status, sent = run_wsgi_app(wsgi, environ.get_environ())
    body = b"".join(app_iter).decode().replace(match_id, MASKED)
    body = re.sub(r'"at":"[^"]*"', '"at":"<t>"', body)
    request_id = sent.get("X-Request-ID", "")
    assert re.fullmatch(r"[0-9a-f]{16}", request_id) or request_id == headers.get("X-Request-ID")
    return {"status": status, "headers": [(k, v) for k, v in sent.items() if k != "X-Request-ID"], "body": body}


def _line(record, match_id: str) -> dict:
    """What a request line says (the request id's shape, its time left out), the match id masked."""
    fields = ("method", "path", "status", "outcome", "bytes", "remote", "user_id", "match_id", "command_type")
    out = {name: str(getattr(record, name, None)).replace(match_id, MASKED) for name in fields}
    out["request_id"] = bool(re.fullmatch(r"[0-9a-f]{16}|sent-1", getattr(record, "request_id", "")))
    return out


CASES = [
    ("a note", "ann", {"json": {"type": "note", "payload": {"text": "hi"}}}),
    ("a note with a command id", "ann", {"json": {"type": "note", "payload": {"text": "hi"}, "command_id": "c1"}}),
    ("a client's request id", "ann", {"json": {"type": "note", "payload": {"text": "hi"}},
                                       "headers": {"X-Request-ID": "sent-1"}}),
    ("a rule refusal", "bob", {"json": {"type": "roll", "payload": {}}}),
    ("a stale expected version", "ann", {"json": {"type": "note", "payload": {"text": "x"}, "expected_version": 1}}),
    ("an unknown command", "ann", {"json": {"type": "fly", "payload": {}}}),
    ("an invalid payload", "ann", {"json": {"type": "note", "payload": {"text": "x" * 30}}}),
    ("malformed JSON", "ann", {"data": b"{nope", "content_type": "application/json"}),
    ("bytes that are not UTF-8", "ann", {"data": b'{"type": "\xff"}', "content_type": "application/json"}),
    ("a JSON array", "ann", {"json": ["note"]}),
    ("an unknown field", "ann", {"json": {"type": "note", "payload": {"text": "x"}, "admin": True}}),
    ("a payload that is no object", "ann", {"json": {"type": "note", "payload": [1]}}),
    ("nesting too deep", "ann", {"data": b'{"type": "note", "payload": {"text": ' + b"[" * 40 + b"]" * 40 + b"}}",
                                  "content_type": "application/json"}),
    ("a version that is no integer", "ann", {"json": {"type": "note", "payload": {}, "expected_version": "3"}}),
    ("no token", None, {"json": {"type": "note", "payload": {"text": "x"}}}),
    ("a bad token", "bad", {"json": {"type": "note", "payload": {"text": "x"}}}),
    ("a player not seated", "eve", {"json": {"type": "note", "payload": {"text": "x"}}}),
]


@pytest.mark.parametrize("name,who,request_", CASES, ids=[c[0] for c in CASES])
def test_the_route_answers_what_flask_answers(app, name, who, request_):
    """The same request on two matches in the same state, one through the route and one through Flask: the same
    status, headers (the request id aside), body (event times aside) and request log line."""
    ids, ha, hb, he = _pair(app)
    auth = {"ann": ha, "bob": hb, "eve": he, "bad": {"Authorization": "Bearer nope"}, None: {}}[who]
    lines = _Lines()
    logger = logging.getLogger("turnstream.request")
    logger.addHandler(lines)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        answers = []
        for wsgi, match_id in ((app.wsgi_app, ids[0]), (app.wsgi_app.inner, ids[1])):
            headers = {**auth, **request_.get("headers", {})}
            kwargs = {k: v for k, v in request_.items() if k != "headers"}
            answers.append((_call(wsgi, match_id, headers, **kwargs), match_id))
            if name == "a note with a command id":  # the retry answers the stored answer, on each path alike
                answers.append((_call(wsgi, match_id, headers, **kwargs), match_id))
    finally:
        logger.removeHandler(lines)
        logger.setLevel(level)
    half = len(answers) // 2
    assert [a for a, _ in answers[:half]] == [a for a, _ in answers[half:]]
    assert answers[0][0]["status"].split()[0] in {"201", "400", "401", "403", "404", "409", "422"}
    said = [_line(record, mid) for record, (_, mid) in zip(lines.lines, answers)]
    assert len(said) == len(answers) and said[:half] == said[half:]


def test_a_missing_match_and_a_spent_rate_limit_read_as_from_flask(redis_url, redis_client, games):
    """404 for a match that does not exist; 429 with Retry-After once the caller's commands are spent (each path
    spends its own user's budget)."""
    from service.config import Settings
    w = build(Settings(redis_url=redis_url, rate_limit_per_minute=2, **HIGH_LIMITS), games=games)
    try:
        app = create_app(wiring=w)
        (ann, ha), (bob, hb) = _users(app.test_client(), "ann", "bob")
        missing = [_call(wsgi, "m_0000000000000000", ha, json={"type": "note", "payload": {"text": "x"}})
                   for wsgi in (app.wsgi_app, app.wsgi_app.inner)]
        assert missing[0] == missing[1] and missing[0]["status"] == "404 NOT FOUND"
        spent = []
        for wsgi, headers in ((app.wsgi_app, ha), (app.wsgi_app.inner, hb)):
            for _ in range(3):
                answer = _call(wsgi, "m_0000000000000000", headers, json={"type": "note", "payload": {}})
            spent.append(answer)
        assert spent[0] == spent[1] and spent[0]["status"] == "429 TOO MANY REQUESTS"
        assert "Retry-After" in dict(spent[0]["headers"])
    finally:
        w.live.stop()
        w.users.cache.close()


@pytest.mark.parametrize("change", [
    {"query_string": "x=1"}, {"content_type": "text/plain"}, {"path": "/api/matches/m_1/commands/"},
    {"method": "PUT"}, {"raw_uri": "/api/matches/m%5F1/commands"}, {"path": "/api/matches/m.1/commands"},
    {"headers": {"Transfer-Encoding": "chunked"}}, {"data": b""}, {"data": b"x" * 70_000},
])
def test_requests_of_another_shape_go_to_flask(app, change):
    """A query string, another content type, another path or method, a raw URI that differs from the path, a
    malformed match id, a chunked, empty or oversized body: Flask answers."""
    kwargs = {"path": "/api/matches/m_1/commands", "method": "POST", "data": b'{"type": "note"}',
              "content_type": "application/json"}
    raw_uri = change.pop("raw_uri", None)
    kwargs.update(change)
    environ = EnvironBuilder(**kwargs).get_environ()
    if raw_uri:
        environ["RAW_URI"] = raw_uri
    assert app.wsgi_app.plain(environ) is None
    plain = EnvironBuilder(path="/api/matches/m_1/commands", method="POST", data=b'{"type": "note"}',
                           content_type="application/json").get_environ()
    assert app.wsgi_app.plain(plain) == "m_1"


def test_with_min_replicas_every_command_goes_through_flask(redis_url, redis_client, games):
    """TURNSTREAM_MIN_REPLICAS: the acknowledgement waits in Flask's after-request hook, so no route is installed."""
    from service.config import Settings
    w = build(Settings(redis_url=redis_url, min_replicas=1, **HIGH_LIMITS), games=games)
    try:
        assert not isinstance(create_app(wiring=w).wsgi_app, CommandRoute)
    finally:
        w.live.stop()
        w.users.cache.close()
