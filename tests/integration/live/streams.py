"""Live streams through a Flask test client: an app with ann, bob, eve and a dice race of ann and bob (race_app,
stop_app), a wait for open streams to be followed, a streamed body read to its end, and its SSE messages (plain, or
typed as the browser's stream sends them)."""
from __future__ import annotations

import dataclasses
import json
import time

from tests.invites import start_http
from tests.waiting import wait_for


def race_app(settings, games, **overrides):
    """(wiring, client, users, auth headers, match id): ann, bob and eve, and a dice race of ann and bob,
    on an app built with the settings `overrides`; stop it with `stop_app(wiring)`."""
    from service import create_app
    from service.bootstrap import build
    from workers import context
    w = build(dataclasses.replace(settings, **overrides), games=games)
    context.use(w)
    client = create_app(wiring=w).test_client()
    users = {name: client.post("/api/users", json={"name": name}).get_json() for name in ("ann", "bob", "eve")}
    headers = {n: {"Authorization": f"Bearer {u['token']}"} for n, u in users.items()}
    mid = start_http(client, headers["ann"], {"game": "dice-race", "players": [users["ann"]["id"], users["bob"]["id"]]},
                     headers["bob"])
    return w, client, users, headers, mid


def stop_app(w) -> None:
    """Forget the app's wiring, end its live streams and its token-revocation listener."""
    from workers import context
    context.use(None)
    w.live.stop()
    w.users.cache.close()


def messages(raw: str) -> list:
    """The SSE messages of a body: [{"id", "data"} or {"comment"}]."""
    out = []
    for block in raw.split("\n\n"):
        if not block.strip():
            continue
        msg = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                msg.setdefault("comment", line[1:].strip())
            elif line.startswith("id: "):
                msg["id"] = int(line[4:])
            elif line.startswith("data: "):
                msg["data"] = json.loads(line[6:])
        out.append(msg)
    return out


def streams_followed(w, count: int, timeout: float = 10) -> None:
    """Wait until `w` holds `count` open streams and its live reader has read the logs since: whatever is appended
    from then on reaches them."""
    wait_for(lambda: w.live.open_streams() == count, timeout,
             lambda: f"{count} open streams, not {w.live.open_streams()}")
    opened = int(time.time() * 1000)
    wait_for(lambda: w.live.watermark_ms > opened, timeout, "the live reader to read past the streams' opening")


def read_all(response) -> str:
    """Consume a streamed response to its end, then close it (as a server does: its stream slot is freed)."""
    try:
        return b"".join(response.response).decode()
    finally:
        response.close()


def typed_messages(raw: str) -> list:
    """The typed SSE messages of a body: [{"event", "id", "data"}] (comment-only blocks left out)."""
    out = []
    for block in raw.split("\n\n"):
        msg = {}
        for line in block.split("\n"):
            name, _, value = line.partition(": ")
            if name in ("event", "id"):
                msg[name] = value
            elif name == "data":
                msg["data"] = json.loads(value)
        if msg:
            out.append(msg)
    return out
