"""GET /api/matches/<id>/stream: Server-Sent Events of new events, redacted per viewer, resumable."""
from __future__ import annotations

import json
import time

from flask import Blueprint, Response, request
from redis.exceptions import RedisError

from ..errors import ApiError
from ..http import bearer_token, wiring
from ..pages import page_user

bp = Blueprint("stream", __name__)

BLOCK_MS = 5000  # below the Redis client's socket timeout; each empty wait sends a keep-alive comment
BATCH = 100


def stream_viewer(match) -> str | None:
    """The viewer of the stream: `token` query parameter (only here), Bearer, page cookie; else spectator."""
    users = wiring().users
    token = request.args.get("token") or bearer_token()
    if token:
        user = users.authenticate(token)
    else:
        user = page_user()
    return match.viewer_for(user["id"] if user else None)


def resume_after(current: int) -> int:
    """The version to resume after: Last-Event-ID header, else ?last_event_id=, else the current version."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return current
    try:
        after = int(raw)
    except ValueError:
        raise ApiError(400, "invalid_query", "Last-Event-ID must be a version number",
                       fields={"last_event_id": ["not an integer"]}) from None
    if after < 0:
        raise ApiError(400, "invalid_query", "Last-Event-ID must not be negative",
                       fields={"last_event_id": ["must be at least 0"]})
    return after


def sse_message(env: dict) -> str:
    """One SSE message: `id: <version>` and the redacted envelope as JSON data."""
    return f"id: {env['version']}\ndata: {json.dumps(env, separators=(',', ':'), ensure_ascii=False)}\n\n"


def event_stream(w, match_id: str, viewer: str | None, after: int, lifetime: float):
    """Yield SSE messages for events after `after` until `lifetime` seconds have passed."""
    key = w.store.keys.stream(match_id)
    ends = time.monotonic() + lifetime
    last = after
    yield f"retry: 1500\n: streaming {match_id} after version {after}\n\n"
    while True:
        remaining_ms = int((ends - time.monotonic()) * 1000)
        if remaining_ms <= 0:
            return
        try:
            reply = w.redis.xread({key: f"0-{last}"}, count=BATCH, block=max(1, min(BLOCK_MS, remaining_ms)))
            if not reply:
                yield ": keep-alive\n\n"
                continue
            match = w.matches.load(match_id)
        except (RedisError, ApiError):
            yield ": the event store is unavailable; reconnect shortly\n\n"
            return
        for _entry_id, fields in reply[0][1]:
            env = json.loads(fields["e"])
            if env["version"] <= last:
                continue
            last = env["version"]
            yield sse_message(match.redact(env, viewer))


@bp.get("/api/matches/<match_id>/stream")
def stream(match_id):
    """Server-Sent Events: one message per new event with `id: <version>`; Last-Event-ID resumes."""
    w = wiring()
    match = w.matches.load(match_id)
    viewer = stream_viewer(match)
    after = resume_after(match.version)
    lifetime = w.settings.stream_lifetime_seconds
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(event_stream(w, match_id, viewer, after, lifetime), mimetype="text/event-stream",
                    headers=headers)
