"""POST /api/matches/<id>/commands without Flask's per-request machinery: the route every move takes.

Flask builds a request context, matches the URL against every rule, runs the before- and after-request hooks of
every blueprint and builds a Response object per request: about a third of a web worker's CPU per command. Here a
command whose request has the plain shape (its exact path, no query string, a JSON body of a given length) is
answered by the same steps in the same order: the caller (`users.authenticate`), the command rate limit (the same
LeasedLimit), the body (`parse_body`, `SubmitCommand.fast_load` or the schema), `MatchService.submit` counted by
`command_observed`, and a 201 with the headers and the sorted-keys JSON Flask would send. Anything else goes to
Flask untouched, and so does every refusal once raised: it is answered by the app's own error handlers and
after-request hooks in a request context made for it, so an error reads exactly as from any other route. Not
installed with TURNSTREAM_MIN_REPLICAS, whose WAIT runs in Flask's after-request hook (service/web/replicated.py).
"""
from __future__ import annotations

import logging
import re
import secrets
import time

from flask import Flask, g
from werkzeug.exceptions import ClientDisconnected
from werkzeug.middleware.proxy_fix import ProxyFix

from service.app.ids import ID_SHAPES
from service.app.state_views import response_body
from service.logs import REQUEST_ID, outcome
from service.metrics import command_observed
from service.web.errors import ApiError, status_of
from service.web.http import load, schema_instance
from service.web.json_guard import parse_body
from service.web.schemas import SubmitCommand

PATH = re.compile(r"/api/matches/([^/]+)/commands")
JSON_TYPES = ("application/json", "application/json; charset=utf-8", "application/json;charset=utf-8")
log = logging.getLogger("turnstream.request")


class CommandRoute:
    """WSGI middleware answering plain command requests itself and handing every other request to `inner`."""

    def __init__(self, app: Flask, inner, wiring, limit):
        self.app, self.inner, self.w, self.limit = app, inner, wiring, limit
        self.max_body = wiring.settings.max_body_bytes
        self.loads = app.json.loads
        self.default = app.json.default

    def __call__(self, environ: dict, start_response):
        match_id = self.plain(environ)
        if match_id is None:
            return self.inner(environ, start_response)
        return self.serve(environ, start_response, match_id)

    def plain(self, environ: dict) -> str | None:
        """The match id of a command request of the plain shape this route answers, else None (Flask answers)."""
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("QUERY_STRING"):
            return None
        path = environ.get("PATH_INFO", "")
        found = PATH.fullmatch(path)
        if found is None or environ.get("RAW_URI", path) != path or not ID_SHAPES["match_id"].fullmatch(found[1]):
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not length.isdigit() or not 0 < int(length) <= self.max_body or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        if environ.get("CONTENT_TYPE", "").lower() not in JSON_TYPES:
            return None
        return found[1]

    def serve(self, environ: dict, start_response, match_id: str):
        """Answer one command: 201 and its events, or the app's answer to what it raised."""
        started = time.perf_counter()
        sent_id = environ.get("HTTP_X_REQUEST_ID", "")
        context = {"request_id": sent_id if REQUEST_ID.match(sent_id) else secrets.token_hex(8), "user": None,
                   "command_type": None, "started": started}
        try:
            answer = self.submit(environ, match_id, context)
        except Exception as exc:  # every refusal reads as from Flask: its handlers, its after-request hooks
            return self.refused(environ, start_response, exc, context)
        body = response_body(answer, self.default)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                   ("X-Content-Type-Options", "nosniff"), ("X-Request-ID", context["request_id"])]
        start_response("201 CREATED", headers)
        if log.isEnabledFor(logging.INFO):
            self.log_line(environ, 201, len(body), match_id, context)
        return [body]

    def submit(self, environ: dict, match_id: str, context: dict) -> dict:
        """The caller, the rate limit, the body and the command, in the order the Flask route takes them."""
        header = environ.get("HTTP_AUTHORIZATION", "")
        token = (header[7:].strip() or None) if header.lower().startswith("bearer ") else None
        user = context["user"] = self.w.users.authenticate(token)
        if self.limit is not None:
            self.limit.hit(user["id"])
        length = int(environ["CONTENT_LENGTH"])
        raw = environ["wsgi.input"].read(length)
        if len(raw) != length:
            raise ClientDisconnected()
        data = parse_body(raw, self.loads)
        if not isinstance(data, dict):
            raise ApiError(400, "invalid_body", "the request body must be a JSON object")
        loaded = SubmitCommand.fast_load(data)
        if loaded is None:
            loaded = load(schema_instance(SubmitCommand), data)
        context["command_type"] = loaded["type"]
        matches = self.w.matches
        with command_observed(lambda: matches.cached_game(match_id), status_of):
            return matches.submit(user["id"], match_id, loaded["type"], loaded["payload"], loaded.get("command_id"),
                                  loaded.get("expected_version"))

    def refused(self, environ: dict, start_response, exc: Exception, context: dict):
        """The app's answer to `exc` raised by this command, in a request context carrying what the route knew."""
        app = self.app
        with app.request_context(environ):
            g.request_id, g.started = context["request_id"], context["started"]
            if context["user"] is not None:
                g.user = context["user"]
            if context["command_type"] is not None:
                g.command_type = context["command_type"]
            try:
                response = app.finalize_request(app.handle_user_exception(exc))
            except Exception as unhandled:  # what the handlers themselves raise: Flask's last resort
                response = app.handle_exception(unhandled)
            return response(environ, start_response)

    @staticmethod
    def log_line(environ: dict, status: int, size: int, match_id: str, context: dict) -> None:
        """The request line service/logs.py writes for every request, with the context its filter adds."""
        user = context["user"] or {}
        log.info("request", extra={"method": "POST", "path": environ.get("PATH_INFO", ""), "status": status,
                                   "outcome": outcome(status), "bytes": size, "remote": environ.get("REMOTE_ADDR"),
                                   "ms": round((time.perf_counter() - context["started"]) * 1000, 2),
                                   "request_id": context["request_id"], "user_id": user.get("id"),
                                   "match_id": match_id, "command_type": context["command_type"]})


def install(app: Flask, wiring) -> None:
    """Answer plain command requests before Flask (inside ProxyFix, which sets the caller's address); not with
    TURNSTREAM_MIN_REPLICAS (its WAIT is an after-request hook)."""
    if wiring.settings.min_replicas:
        return
    limit = app.extensions.get("leased_limits", {}).get("commands")
    outer = app.wsgi_app
    if isinstance(outer, ProxyFix):
        outer.app = CommandRoute(app, outer.app, wiring, limit)
    else:
        app.wsgi_app = CommandRoute(app, outer, wiring, limit)
