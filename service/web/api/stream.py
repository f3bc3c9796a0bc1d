"""Live updates by Server-Sent Events: one match's stream (`id:` = version), and one stream for a whole
browser or API client (every match of the caller, watched matches, inbox changes), fed by the LiveHub."""
from __future__ import annotations

import re
import socket
import time

from flask import Blueprint, Response, g, request

from service.web import schemas
from service.web.browser import page_user
from service.web.errors import ApiError
from service.web.json_guard import MAX_VERSION
from service.web.http import bearer_token, wiring
from service.app.users import token_hash
from service.app.live import StreamsFull, Subscriber, TooFarBehind, now_ms
from service.metrics import LIVE_STREAMS
from service.server import stream_parking
from service.server.stream_parking import CREDENTIAL_CHECK_SECONDS, KEEPALIVE_SECONDS, MAX_PENDING, HandOff
from service.web.openapi import documented
from service.web.sessions import SESSION_COOKIE, Sessions, session_digest

bp = Blueprint("stream", __name__)

GONE_CHECK_SECONDS = 5.0  # how often an idle stream looks whether its client hung up (frees its cap slot)
RESUME_SLACK_MS = 5000  # a resuming stream re-reads the logs this far before its cursor (clock skew)
RESUME_WINDOW_MS = 600_000  # a cursor older than this asks the client to reload instead
MAX_WATCH = 50
RECENT_CAP = 100  # matches a cursor may list
MATCH_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
CURSOR = re.compile(r"^(\d{1,15})((?:\.[A-Za-z0-9_\-]{1,64}:\d{1,12})*)$")
CATCHUP_BUDGET = MAX_PENDING - 4096  # a stream's first bytes, with its headers and framing, fit what a connection
# may fall behind: a longer catch-up is a "reload" message instead, so no stream costs more from its first byte
RETRY = "retry: 1500\n"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"}}
SSE = {"content": "text/event-stream", "auth": "optional", "errors": (503,), "headers": (LAST_EVENT_ID,)}


# -- who is asking ---------------------------------------------------------------------------------
def refuse_token_in_url() -> None:
    """A token in a URL would reach access logs and browser history: refuse it outright."""
    if "token" in request.args:
        raise ApiError(400, "token_in_url", "tokens never travel in URLs; send Authorization: Bearer <token> "
                                            "(pages use their session cookie)")


def stream_user() -> str | None:
    """The caller's id: Bearer for API clients, the session cookie for pages; None for a spectator. What it rests
    on is kept in `g.stream_credential` for the open stream to re-check: the user, the hash of their token, and
    for a page the session's digest."""
    token = bearer_token()
    if token:
        user_id = wiring().users.authenticate(token)["id"]
        g.stream_credential = (user_id, token_hash(token), None)
        return user_id
    user = page_user()
    if user:
        session = session_digest(request.cookies.get(SESSION_COOKIE, ""))
        g.stream_credential = (user["id"], g.get("page_credential") or "", session)
    return user["id"] if user else None


def still_signed_in():
    """A check the stream makes now and then: False once the token it was opened with is rotated or revoked
    (signed out everywhere) or, for a page's stream, once its session ended (signed out, or ended from the account
    page); always True for a spectator's stream."""
    held = g.get("stream_credential")
    if held is None:
        return lambda: True
    user_id, credential, session = held
    w = wiring()
    users = w.users
    if session is None:
        return lambda: users.holds(user_id, credential)
    sessions = Sessions(w.redis)
    return lambda: users.holds(user_id, credential) and sessions.alive(session)


def watch_credential(sub: Subscriber):
    """Have a rotation or sign-out of the stream's user wake it to re-check its credential at once: (a function
    telling whether such wake-ups are reliable now, a function that stops watching)."""
    held = g.get("stream_credential")
    if held is None:
        return (lambda: True), (lambda: None)
    users = wiring().users
    handle = users.watch_revocation(held[0], sub.recheck_credential)
    return users.revocations_pushed, (lambda: users.unwatch_revocation(handle))


def subscribe(user: str | None, matches=(), everything_of_user: bool = False) -> Subscriber:
    """Register a new stream with the hub, or 503 + Retry-After when a cap on open streams is reached."""
    w = wiring()
    sub = Subscriber(user, request.remote_addr or "-", matches, everything_of_user)
    try:
        return w.live.subscribe(sub)
    except StreamsFull as exc:
        scope = {"process": "this server", "user": "this user", "address": "this address"}[exc.which]
        raise ApiError(503, "too_many_streams", f"{scope} holds as many live streams as allowed; retry later",
                       retry_after=w.settings.stream_retry_after_seconds) from None


def opening_bytes(writer, backlog: list | None) -> tuple[bytes, bool]:
    """(the stream's first bytes: greeting and catch-up, whether the stream ends after them). A catch-up that is
    missing (None) or beyond CATCHUP_BUDGET becomes a "reload" message, and the stream ends after it."""
    parts = [(RETRY + writer.greeting()).encode()]
    size = len(parts[0])
    for item in backlog if backlog is not None else ():
        text = writer.message(item)
        if text:
            parts.append(text.encode())
            size += len(parts[-1])
            if size > CATCHUP_BUDGET:
                break
    else:
        if backlog is not None:
            return b"".join(parts), False
    return (RETRY + writer.greeting() + writer.reload()).encode(), True


def open_stream(sub: Subscriber, first, writer) -> Response:
    """The SSE response: `first()` gives the catch-up messages (None: too far behind); the stream is released
    when it closes (by its request, or by the parked streams once the connection was handed to them)."""
    w = wiring()
    try:
        opening, last = opening_bytes(writer, first())
    except BaseException:
        w.live.unsubscribe(sub)
        raise
    sock = request.environ.get("gunicorn.socket")
    gone = hung_up_check(sock)
    pushed, unwatch = watch_credential(sub)
    signed_in = still_signed_in()
    parking = stream_parking.current()
    handed = []

    def release():
        LIVE_STREAMS.dec()
        unwatch()
        w.live.unsubscribe(sub)

    def park(fd: int, chunked: bool, ends: float, head: bytes, last: bool) -> None:
        handed.append(parking.park(fd, chunked, w.live, sub, writer, ends, signed_in, pushed, release,
                                   opening=opening, head=head, last=last))

    response = Response(pump(sub, opening, last, writer, w.live, w.settings.stream_lifetime_seconds, gone,
                             signed_in, pushed, park if parking is not None else None, send_deadline(sock)),
                        mimetype="text/event-stream", headers=HEADERS)
    LIVE_STREAMS.inc()

    def closed():
        if not handed:  # a parked stream is released when its connection ends
            release()
    response.call_on_close(closed)
    return response


def hung_up_check(sock):
    """A function telling whether the client closed the connection (an EOF waits unread on the socket);
    always False when the server does not expose the socket."""
    def gone() -> bool:
        if sock is None:
            return False
        timeout = sock.gettimeout()
        try:
            sock.settimeout(0.0)
            return sock.recv(1, socket.MSG_PEEK) == b""
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True
        finally:
            try:
                sock.settimeout(timeout)
            except OSError:
                pass
    return gone


def send_deadline(sock):
    """A function making a write blocked on `sock` fail once the stream's lifetime (monotonic `ends`) is over, so
    a client that stops reading holds an unparked stream no longer; `None` gives the socket its timeout back. A
    no-op without the socket."""
    kept = sock.gettimeout() if sock is not None else None

    def until(ends: float | None) -> None:
        if sock is not None:
            try:
                sock.settimeout(kept if ends is None else max(0.01, ends - time.monotonic()))
            except OSError:
                pass  # the connection is gone: the next write says so
    return until


def pump(sub: Subscriber, opening: bytes, last: bool, writer, hub, lifetime: float, gone=lambda: False,
         signed_in=lambda: True, pushed=lambda: True, park=None, deadline=lambda ends: None):
    """Yield the first bytes (greeting and catch-up; that is all when `last`). Where the server can park the
    connection (`park`), the parked streams' writer writes them and serves the stream from then on; else the
    stream follows here (`follow`). A write still blocked at the lifetime's end fails (`deadline`)."""
    ends = time.monotonic() + lifetime
    deadline(ends)
    try:
        if park is None:
            yield opening
        else:
            handoff = HandOff(opening, lambda fd, chunked, head: park(fd, chunked, ends, head, last))
            yield handoff
            if handoff.taken:
                return
        if not last:
            yield from follow(sub, writer, hub, ends, gone, signed_in, pushed, deadline)
    finally:
        deadline(None)


def follow(sub: Subscriber, writer, hub, ends: float, gone, signed_in, pushed, deadline):
    """Yield each queued message (keep-alives when idle) until the stream's lifetime `ends`, the client hangs up,
    its token is rotated or revoked or the server stops; never a message twice. A rotation or sign-out wakes the
    stream (`sub.recheck`) before it answers, so the stream ends at once; while this process may miss those
    wake-ups (`pushed()` false) an idle stream looks every CREDENTIAL_CHECK_SECONDS, and before sending it checks
    when the last check is that old."""
    checked = quiet_since = time.monotonic()

    def due() -> bool:
        return sub.recheck or time.monotonic() - checked >= CREDENTIAL_CHECK_SECONDS

    while not sub.closed:
        remaining = ends - time.monotonic()
        if remaining <= 0:
            return
        if due():
            sub.recheck, checked = False, time.monotonic()
            if not signed_in():  # signed out everywhere: nothing more reaches this connection
                return
        watermark = hub.watermark_ms  # read before waiting: all it covers is queued by now
        wait = min(GONE_CHECK_SECONDS, remaining)  # an idle stream sends no message to check for
        if not pushed():
            wait = min(wait, max(0.05, checked + CREDENTIAL_CHECK_SECONDS - time.monotonic()))
        items = sub.take(wait)
        if sub.recheck or (items and due()):
            sub.recheck, checked = False, time.monotonic()
            if not signed_in():
                return
        if items:
            chunk = "".join(filter(None, (writer.message(item) for item in items)))
            if chunk:
                quiet_since = time.monotonic()
                deadline(ends)
                yield chunk
        elif sub.closed or gone():
            return
        elif time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
            quiet_since = time.monotonic()
            deadline(ends)
            yield writer.keepalive(watermark)


# -- one match -------------------------------------------------------------------------------------
def resume_after() -> int | None:
    """The version to resume after: Last-Event-ID header, else ?last_event_id=; None = from now."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return None
    try:
        after = int(raw)
    except ValueError:
        raise ApiError(400, "invalid_query", "Last-Event-ID must be a version number",
                       fields={"last_event_id": ["not an integer"]}) from None
    if not 0 <= after <= MAX_VERSION:
        raise ApiError(400, "invalid_query", f"Last-Event-ID must be a version in 0..{MAX_VERSION}",
                       fields={"last_event_id": [f"must be between 0 and {MAX_VERSION}"]})
    return after


class MatchWriter:
    """Formats one match's stream: `id: <version>`, the redacted envelope as data."""

    def __init__(self, match_id: str):
        self.match_id = match_id
        self.sent = -1
        self.head = 0  # the match's version when the stream opened

    def greeting(self) -> str:
        """The opening comment."""
        return f": streaming {self.match_id}\n\n"

    def message(self, item: tuple) -> str | None:
        """An event message, or None for one already sent."""
        if item[0] != "event" or item[2] <= self.sent:
            return None
        self.sent = item[2]
        return f"id: {item[2]}\ndata: {item[3]}\n\n"

    def keepalive(self, watermark: int) -> str:
        """An idle comment."""
        return ": keep-alive\n\n"

    def reload(self) -> str:
        """The message telling a client too far behind to load the match again and resume from its version now."""
        self.sent = self.head
        return f"event: reload\nid: {self.head}\ndata: {{}}\n\n"


@bp.get("/api/matches/<match_id>/stream")
@documented("live events (Server-Sent Events, id = version; Last-Event-ID resumes)", query=schemas.StreamQuery, **SSE)
def stream(match_id):
    """Server-Sent Events of one match: one message per new event with `id: <version>`; Last-Event-ID resumes."""
    refuse_token_in_url()
    after = resume_after()
    sub = subscribe(stream_user(), [match_id])
    writer = MatchWriter(match_id)

    def first():
        try:
            version, items = wiring().live.match_backlog(sub, match_id, after, CATCHUP_BUDGET)
        except TooFarBehind as exc:
            version, items = exc.version, None
        writer.head, writer.sent = version, version if after is None else after
        return items

    return open_stream(sub, first, writer)


# -- a whole browser or API client -------------------------------------------------------------------
def watched() -> list:
    """The match ids of ?watch= (comma-separated, at most MAX_WATCH)."""
    ids = [m for m in (request.args.get("watch") or "").split(",") if m]
    if len(ids) > MAX_WATCH or not all(MATCH_ID.match(m) for m in ids):
        raise ApiError(400, "invalid_query", f"watch lists at most {MAX_WATCH} match ids, comma-separated",
                       fields={"watch": ["invalid match ids"]})
    return list(dict.fromkeys(ids))


def parse_cursor(raw: str | None) -> tuple[int, dict] | None:
    """(time ms, {match: version}) of a user stream's Last-Event-ID, None when absent; 400 when malformed."""
    if not raw:
        return None
    found = CURSOR.match(raw)
    if not found:
        raise ApiError(400, "invalid_query", "Last-Event-ID is not a cursor this stream sent",
                       fields={"last_event_id": ["malformed"]})
    recent = {}
    for part in found.group(2).split(".")[1:]:
        m, v = part.split(":")
        recent[m] = int(v)
    return int(found.group(1)), recent


class UserWriter:
    """Formats a browser's stream: typed messages (`match`, `inbox`, `summary`, `reset`, `reload`), each with a cursor
    id (a time plus the versions last sent of recently active matches) that Last-Event-ID resumes from."""

    def __init__(self, at_ms: int, recent: dict | None = None):
        self.at = at_ms
        self.recent = {m: (v, at_ms) for m, v in (recent or {}).items()}  # match -> (version, entry ms)
        self.sent = dict(recent or {})  # match -> last version sent on this connection (never pruned)

    def cursor(self) -> str:
        """The resumable position: every event before `at - slack` was sent; the listed versions too."""
        keep = sorted(((ms, m, v) for m, (v, ms) in self.recent.items() if ms >= self.at - RESUME_SLACK_MS),
                      reverse=True)[:RECENT_CAP]
        self.recent = {m: (v, ms) for ms, m, v in keep}
        return str(self.at) + "".join(f".{m}:{v}" for _ms, m, v in keep)

    def greeting(self) -> str:
        """The opening comment."""
        return ": streaming your matches\n\n"

    def message(self, item: tuple) -> str | None:
        """One typed message, or None for an event already sent."""
        kind = item[0]
        if kind == "event":
            _, m, version, data, at = item
            if version <= self.sent.get(m, -1):
                return None
            self.sent[m] = version
            self.at = max(self.at, at)
            self.recent[m] = (version, at)
            return f'event: match\nid: {self.cursor()}\ndata: {{"match":"{m}","event":{data}}}\n\n'
        if kind == "reset":
            return f"event: reset\nid: {self.cursor()}\ndata: {{}}\n\n"
        return f"event: {kind}\nid: {self.cursor()}\ndata: {item[1]}\n\n"

    def keepalive(self, watermark: int) -> str:
        """An idle message that moves the cursor on (id only: no event is dispatched)."""
        self.at = max(self.at, watermark)
        return f"id: {self.cursor()}\n: keep-alive\n\n"

    def reload(self) -> str:
        """The message telling a client too far behind to load its pages again and resume from now."""
        self.at, self.recent, self.sent = max(self.at, now_ms()), {}, {}
        return f"event: reload\nid: {self.cursor()}\ndata: {{}}\n\n"


def browser_stream(user: str | None):
    """The stream of every match of `user` (when signed in), the watched matches, and the inbox."""
    refuse_token_in_url()
    matches = watched()
    resume = parse_cursor(request.headers.get("Last-Event-ID"))
    sub = subscribe(user, matches, everything_of_user=user is not None)
    hub = wiring().live
    start = now_ms()
    writer = UserWriter(resume[0] if resume else start, resume[1] if resume else None)

    def first():
        items = [("inbox", hub.inbox_message(user))] if user else []
        if resume is None:
            return items
        replay = None
        if start - resume[0] <= RESUME_WINDOW_MS:
            try:
                replay = hub.replay_since(sub, resume[0] - RESUME_SLACK_MS, CATCHUP_BUDGET)
            except TooFarBehind:
                return None
        if replay is None:
            writer.at, writer.recent, writer.sent = start, {}, {}
            return [("reset",)] + items
        return replay + items

    return open_stream(sub, first, writer)


@bp.get("/api/users/me/stream")
@documented("live events of all your matches (each names its match) and your inbox changes: one stream for a "
            "whole browser", query=schemas.WatchQuery, **{**SSE, "auth": "required"})
def user_stream():
    """Server-Sent Events of all the caller's matches (each message names its match), the matches of
    ?watch=, and the caller's inbox: one connection serves a whole browser. Bearer or session cookie."""
    refuse_token_in_url()
    user = stream_user()
    if user is None:
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <token> (pages: sign in)")
    return browser_stream(user)


@bp.get("/api/stream")
@documented("live events of the watched matches (and, signed in, of all yours)", query=schemas.WatchQuery, **SSE)
def any_stream():
    """Like /api/users/me/stream, for signed-in and anonymous browsers alike (anonymous: ?watch= only)."""
    return browser_stream(stream_user())

