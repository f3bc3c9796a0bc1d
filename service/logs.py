"""Log set-up for web and worker processes: plain text, or one JSON object per line (TURNSTREAM_LOG_FORMAT=json)
carrying the request id, user, match, command type, outcome and duration; secrets never reach a line."""
from __future__ import annotations

import logging
import re
import secrets
import sys
import time

REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
SECRET_PATTERNS = re.compile(r"(?i)(bearer\s+)[^\s\"',]+|((?:token|secret|session|csrf|password)[\"']?\s*[=:]\s*[\"']?)"
                             r"[^\s\"'&,;}]+")
CONTEXT_FIELDS = ("request_id", "user_id", "match_id", "command_type", "outcome", "ms")
_HANDLER_NAME = "turnstream"


def mask_secrets(text: str, known: tuple = ()) -> str:
    """`text` with bearer tokens, `token=`/`secret=`-style values and the given secret strings masked."""
    for value in known:
        if value:
            text = text.replace(value, "***")
    return SECRET_PATTERNS.sub(lambda m: (m.group(1) or m.group(2)) + "***", text)


class RequestContext(logging.Filter):
    """Adds the current request's id, user, match, command type (and, on the request line, outcome and ms);
    in a worker, the current RQ job's id and function."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Copy the request's (or the job's) fields onto the record."""
        from flask import g, has_request_context, request
        if not has_request_context():
            from rq import get_current_job
            job = get_current_job()
            if job is not None and not hasattr(record, "job_id"):
                record.job_id, record.job = job.id, job.func_name
            return True
        for name in ("request_id", "user_id", "command_type"):
            value = g.get(name) if name != "user_id" else (g.get("user") or {}).get("id")
            if value is not None and not hasattr(record, name):
                setattr(record, name, value)
        match_id = (request.view_args or {}).get("match_id")
        if match_id and not hasattr(record, "match_id"):
            record.match_id = match_id
        return True


class SecretMask(logging.Filter):
    """Masks secrets in the message and arguments of every record (the last line of defence)."""

    def __init__(self, known: tuple = ()):
        super().__init__()
        self.known = tuple(k for k in known if k)

    def filter(self, record: logging.LogRecord) -> bool:
        """Render the message once, masked; drop the arguments."""
        message = record.getMessage()
        record.msg, record.args = mask_secrets(message, self.known), None
        return True


def _formatter(fmt: str) -> logging.Formatter:
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter
        return JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                             rename_fields={"asctime": "time", "levelname": "level", "message": "event",
                                            "name": "logger"},
                             datefmt="%Y-%m-%dT%H:%M:%S%z", json_ensure_ascii=False)
    return logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")


_console = {"json": False}


def say(message: str) -> None:
    """A console line of a long-running process: printed, or a JSON log line when logs are JSON."""
    if _console["json"]:
        logging.getLogger("turnstream.console").warning(message)
    else:
        print(message, flush=True)


def configure(settings, verbose: bool = False) -> None:
    """Install the one log handler on the root logger (idempotent), in the settings' format and level."""
    root = logging.getLogger()
    _console["json"] = settings.log_format == "json"
    if any(h.get_name() == _HANDLER_NAME for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(_formatter(settings.log_format))
    handler.addFilter(RequestContext())
    handler.addFilter(SecretMask((settings.webhook_secret, settings.metrics_token)))
    root.addHandler(handler)
    root.setLevel(settings.log_level or ("INFO" if verbose or settings.log_format == "json" else "WARNING"))
    # RQ's worker logs through this handler too (it adds its own only when none is in effect); werkzeug's
    # access line is replaced by ours (it would carry query strings)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)


def install(app) -> None:
    """Give each request an id (X-Request-ID when sane, else a new one), echo it, and log one line per request."""
    from flask import g, request
    log = logging.getLogger("turnstream.request")

    @app.before_request
    def _start():
        sent = request.headers.get("X-Request-ID", "")
        g.request_id = sent if REQUEST_ID.match(sent) else secrets.token_hex(8)
        g.started = time.perf_counter()

    @app.after_request
    def _finish(response):
        response.headers["X-Request-ID"] = g.get("request_id", "")
        if log.isEnabledFor(logging.INFO):
            ms = round((time.perf_counter() - g.get("started", time.perf_counter())) * 1000, 2)
            log.info("request", extra={"method": request.method, "path": request.path,
                                       "status": response.status_code, "outcome": outcome(response.status_code),
                                       "ms": ms})
        return response


def outcome(status: int) -> str:
    """A request's outcome word: ok, client_error or server_error."""
    return "ok" if status < 400 else ("client_error" if status < 500 else "server_error")
