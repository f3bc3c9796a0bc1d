"""On the production server (gunicorn, gevent), a page's live stream is parked like any other, and signing that
browser out ends it at once: no private event reaches it afterwards."""
from __future__ import annotations

import asyncio
import time
import urllib.parse
import urllib.request

import pytest

from service.cli.bench.sse_client import SseStream
from service.web.sessions import SESSION_COOKIE, Sessions
from tests.e2e.live_kit import duel, parked, play, read_versions, web

pytestmark = pytest.mark.slow


def sign_out(base: str, session: str, csrf: str) -> int:
    """POST /signout as the browser does (its cookie and the session's CSRF token); the status (no redirect)."""
    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None
    request = urllib.request.Request(base + "/signout", data=urllib.parse.urlencode({"csrf": csrf}).encode(),
                                     headers={"Cookie": f"{SESSION_COOKIE}={session}"}, method="POST")
    try:
        with urllib.request.build_opener(Stay).open(request, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_signing_a_browser_out_ends_its_parked_stream_at_once(redis_url, tmp_path):
    import redis
    with web(redis_url, tmp_path / "web.log") as (base, port):
        ann, bob, apis, mid = duel(base)
        session, csrf = Sessions(redis.Redis.from_url(redis_url, decode_responses=True)).create(ann["id"])

        async def main():
            got = []
            stream = await SseStream("127.0.0.1", port, f"/api/matches/{mid}/stream",
                                     {"Cookie": f"{SESSION_COOKIE}={session}"}).open()
            reading = asyncio.create_task(read_versions(stream, got))
            deadline = time.monotonic() + 10
            while parked(base) < 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            status = await asyncio.to_thread(sign_out, base, session, csrf)
            started = time.monotonic()
            await asyncio.to_thread(play, apis, mid, 2)
            ended = await asyncio.wait_for(reading, 5)
            return status, ended, time.monotonic() - started, got

        status, ended, lasted, got = asyncio.run(main())
    assert status == 303 and ended == "end" and lasted < 2, (status, ended, lasted)
    assert got == [], "nothing reached the stream after its browser signed out"
