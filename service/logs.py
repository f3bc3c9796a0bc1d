"""Log set-up for every process (web, worker, the command line): plain text or, with TURNSTREAM_LOG_FORMAT=json,
one JSON object per line carrying the request id, user, match, command type, outcome and duration.

One event is one line in both formats (a traceback is kept inside its line; a Redis outage's is cut to the
exception itself), every line carries one time format (ISO-8601 UTC with milliseconds), gunicorn's and RQ's own
lines go through the same formatter, and secrets never reach a line."""
from __future__ import annotations

import logging
import re
import secrets
import sys
import threading
import time

REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
SECRET_PATTERNS = re.compile(r"(?i)(bearer\s+)[^\s\"',]+|((?:token|secret|session|csrf|password)[\"']?\s*[=:]\s*[\"']?)"
                             r"[^\s\"'&,;}]+")
CONTEXT_FIELDS = ("request_id", "user_id", "match_id", "command_type", "outcome", "ms")
# the fields a text line shows after its message, as key=value (a JSON line carries every extra field)
TEXT_FIELDS = ("method", "path", "status", "ms", "bytes", "remote", "outcome", "request_id", "user_id", "match_id",
               "command_type", "job_id", "job")
TRACEBACK = "Traceback (most recent call last):"
_HANDLER_NAME = "turnstream"
_KNOWN_SECRETS: set = set()  # configured and generated secrets, masked wherever they appear


def utc_time(record: logging.LogRecord) -> str:
    """The record's time as ISO-8601 UTC with milliseconds: 2026-12-01T14:44:36.435Z."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z"


def remember_secret(value: str) -> None:
    """Mask `value` in every log line from now on (a secret learnt after start-up, e.g. from Redis)."""
    if value:
        _KNOWN_SECRETS.add(value)


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
        # flask and rq load in the web server and the worker that run them, never for the command line's --help
        from flask import g, has_request_context, request
        if not has_request_context():
            from rq import get_current_job  # (the same: in a worker)
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
        for value in known:
            remember_secret(value)

    def filter(self, record: logging.LogRecord) -> bool:
        """Render the message once, masked; drop the arguments."""
        message = record.getMessage()
        record.msg, record.args = mask_secrets(message, tuple(_KNOWN_SECRETS)), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:  # the formatters write exc_text: the masked traceback
            record.exc_text, record.exc_info = mask_secrets(record.exc_text, tuple(_KNOWN_SECRETS)), None
        return True


def is_outage(exc: BaseException | None) -> bool:
    """True for a lost or refused Redis connection (or a timeout), also when it caused `exc`."""
    # redis-py loads where a Redis error can happen, not for the command line's --help
    from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeout
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, (RedisConnectionError, RedisTimeout, ConnectionRefusedError)):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


class OneLine(logging.Filter):
    """Keeps an event to one line: a traceback pasted into a message (RQ's scheduler does that) is cut to its
    last line, the exception; a Redis outage's traceback is dropped for its exception's type and message (its
    stack says nothing an operator can use, and RQ logs one per retry)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message (rendered once) and exception."""
        message = record.getMessage()
        if TRACEBACK in message:
            head, _, rest = message.partition(TRACEBACK)
            lines = [line.strip() for line in rest.splitlines() if line.strip()]
            message = f"{head.strip()} {lines[-1] if lines else ''}".strip()
        if record.exc_info and record.exc_info[1] is not None and is_outage(record.exc_info[1]):
            exc = record.exc_info[1]
            message = f"{message}: {type(exc).__name__}: {exc}"
            record.exc_info, record.exc_text = None, None
        record.msg, record.args = message, None
        return True


class TextFormatter(logging.Formatter):
    """`TIME LEVEL LOGGER: MESSAGE key=value...`, one line (newlines inside are written as \\n)."""

    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatTime(self, record, datefmt=None):  # noqa: N802 (logging's name)
        """ISO-8601 UTC with milliseconds."""
        return utc_time(record)

    def format(self, record: logging.LogRecord) -> str:
        """The line, with the context fields the record carries and its traceback (if any) at the end."""
        record.message = record.getMessage()
        record.asctime = self.formatTime(record)
        line = self.formatMessage(record)
        fields = [f"{name}={getattr(record, name)}" for name in TEXT_FIELDS if getattr(record, name, None) is not None]
        if fields:
            line += " " + " ".join(fields)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line += " | " + record.exc_text
        return line.replace("\r", "").replace("\n", "\\n")


def json_formatter() -> logging.Formatter:
    """One JSON object per line: time, level, logger, event and every extra field of the record."""
    from pythonjsonlogger.json import JsonFormatter  # loaded only with JSON logs

    class UtcJsonFormatter(JsonFormatter):
        def formatTime(self, record, datefmt=None):  # noqa: N802 (logging's name)
            return utc_time(record)

    return UtcJsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                            rename_fields={"asctime": "time", "levelname": "level", "message": "event",
                                           "name": "logger"},
                            json_ensure_ascii=False)


def formatter(kind: str = "text") -> logging.Formatter:
    """The formatter of a log format: "json" or "text"."""
    return json_formatter() if kind == "json" else TextFormatter()


class CurrentStream:
    """sys.stderr or sys.stdout as it is when a line is written, not as it was when the handler was made (a
    process that swaps them, as pytest's capture does, never has lines sent to a closed stream)."""

    def __init__(self, name: str):
        self.name = name

    def write(self, text: str) -> int:
        return getattr(sys, self.name).write(text)

    def flush(self) -> None:
        getattr(sys, self.name).flush()


def make_handler(kind: str = "text", stream=None, path: str = "", context: bool = True) -> logging.Handler:
    """A handler writing `kind` lines to `stream` (standard error; "stdout": standard output) or to the file at
    `path`, with the filters every line passes: the request's or job's context, one line per event, secrets
    masked."""
    if path:
        handler = logging.FileHandler(path, encoding="utf-8")
    else:
        handler = logging.StreamHandler(CurrentStream(stream or "stderr") if stream in (None, "stdout") else stream)
    handler.setFormatter(formatter(kind))
    if context:
        handler.addFilter(RequestContext())
    handler.addFilter(OneLine())
    handler.addFilter(SecretMask())
    return handler


def gunicorn_logconfig(kind: str, level: str) -> dict:
    """gunicorn's `logconfig_dict`: its error log through our formatter and filters, on standard error, not
    passed on to the root logger (whose handler the app installs: each line once); no access log of its own
    (the app's request line is the access log: TURNSTREAM_ACCESS_LOG)."""
    handler = {"()": "service.logs.make_handler", "kind": kind, "context": False}
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {}, "handlers": {"error_console": handler, "console": handler},
            "loggers": {"gunicorn.error": {"level": level.upper(), "handlers": ["error_console"], "propagate": False},
                        "gunicorn.access": {"level": "INFO", "handlers": [], "propagate": False}},
            "root": {"level": level.upper(), "handlers": []}}


_console = {"json": False}


def say(message: str) -> None:
    """A console line of a long-running process: printed, or a JSON log line when logs are JSON."""
    if _console["json"]:
        logging.getLogger("turnstream.console").warning(message)
    else:
        print(message, flush=True)


def configure(settings, verbose: bool = False) -> None:
    """Install the one log handler on the root logger (idempotent), in the settings' format and level; the
    request lines go to TURNSTREAM_ACCESS_LOG when it is set (`-`: standard output), once each."""
    root = logging.getLogger()
    _console["json"] = settings.log_format == "json"
    for value in (settings.webhook_secret, settings.metrics_token):
        remember_secret(value)
    if any(h.get_name() == _HANDLER_NAME for h in root.handlers):
        return
    handler = make_handler(settings.log_format)
    handler.set_name(_HANDLER_NAME)
    root.addHandler(handler)
    root.setLevel(settings.log_level or ("INFO" if verbose or settings.log_format == "json" else "WARNING"))
    access = getattr(settings, "access_log", "")
    if access:
        requests = logging.getLogger("turnstream.request")
        requests.addHandler(make_handler(settings.log_format, "stdout" if access == "-" else None,
                                         "" if access == "-" else access))
        requests.setLevel(logging.INFO)
        requests.propagate = False  # one line per request, in the access log only
    # RQ's worker logs through this handler too (it adds its own only when none is in effect); werkzeug's
    # access line is replaced by ours (it would carry query strings)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    threading.excepthook = _log_thread_crash


def _log_thread_crash(args) -> None:
    """A thread that dies of an exception: one log line, not a traceback on standard error."""
    if args.exc_type is SystemExit:
        return
    logging.getLogger("turnstream").error("thread %s died", getattr(args.thread, "name", "?"),
                                          exc_info=(args.exc_type, args.exc_value, args.exc_traceback))


def install(app) -> None:
    """Give each request an id (X-Request-ID when sane, else a new one), echo it, and log one line per request."""
    from flask import g, request  # flask loads in the web app only (the command line imports this module)
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
                                       "ms": ms, "bytes": response.content_length,
                                       "remote": request.remote_addr})
        return response


def outcome(status: int) -> str:
    """A request's outcome word: ok, client_error or server_error."""
    return "ok" if status < 400 else ("client_error" if status < 500 else "server_error")
