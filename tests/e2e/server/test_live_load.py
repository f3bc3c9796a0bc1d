"""Live streams against the production server (`turnstream web`: gunicorn, gevent): 500 open streams while
commands and /healthz answer; an anonymous flood from one address refused for new streams only; a Redis
restart while streams are open, resumed with no lost or repeated event; no token or session in any log line."""
from __future__ import annotations

import asyncio

import pytest

from service.cli.bench.sse_client import SseStream, StreamRefused
from service.server.embedded_redis import EmbeddedRedis
from service.web.sessions import SESSION_COOKIE, Sessions
from tests.e2e.live_kit import duel, play, web
from tests.e2e.processes import Api, wait_http
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def versions_of(msg: dict) -> int:
    """The event version a message carries (a match stream's or a browser stream's)."""
    return msg["data"]["event"]["version"] if msg["event"] == "match" else msg["data"]["version"]


async def collect(stream: SseStream, into: list) -> None:
    """Append every event message of an open stream to `into` until it closes."""
    try:
        async for msg in stream:
            if msg["event"] in ("message", "match"):
                into.append(versions_of(msg))
    except (ConnectionError, asyncio.IncompleteReadError):
        pass


def test_500_open_streams_while_commands_and_healthz_answer(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    with web(redis_url, tmp_path / "web.log", TURNSTREAM_STREAMS_PER_ADDRESS="1000") as (base, port):
        ann, bob, apis, mid = duel(base)
        _, start = Api(base).get(f"/api/matches/{mid}")
        specs = ([(f"/api/matches/{mid}/stream", {})] * 460
                 + [(f"/api/matches/{mid}/stream", {"Authorization": f"Bearer {ann['token']}"})] * 20
                 + [("/api/users/me/stream", {"Authorization": f"Bearer {bob['token']}"})] * 20)

        async def main():
            streams = []
            for i in range(0, len(specs), 100):
                streams += await asyncio.gather(*(SseStream("127.0.0.1", port, p, h).open() for p, h in specs[i:i + 100]))
            received = [[] for _ in streams]
            tasks = [asyncio.create_task(collect(s, r)) for s, r in zip(streams, received)]
            statuses = await asyncio.to_thread(play, apis, mid, 3)
            _, now = await asyncio.to_thread(Api(base).get, f"/api/matches/{mid}")
            expected = list(range(start["version"] + 1, now["version"] + 1))
            await wait_until(lambda: all(r == expected for r in received), 20, "every stream to get every event")
            for s in streams:
                s.close()
            await asyncio.gather(*tasks)
            return statuses, received, expected

        statuses, received, expected = asyncio.run(main())
    assert len(received) == 500 and len(expected) >= 3
    assert all(200 <= s < 300 for s in statuses), statuses


def test_an_anonymous_flood_is_refused_new_streams_only(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    with web(redis_url, tmp_path / "web.log", TURNSTREAM_STREAMS_PER_ADDRESS="20",
             TURNSTREAM_STREAM_RETRY_AFTER="9") as (base, port):
        ann, bob, apis, mid = duel(base)
        path = f"/api/matches/{mid}/stream"

        async def main():
            held = await asyncio.gather(*(SseStream("127.0.0.1", port, path).open() for _ in range(20)))
            refusals = []
            for _ in range(5):
                try:
                    await SseStream("127.0.0.1", port, path).open()
                except StreamRefused as exc:
                    refusals.append(exc)
            try:  # the address's cap counts every stream: signing in is no way around it
                await SseStream("127.0.0.1", port, path, {"Authorization": f"Bearer {ann['token']}"}).open()
            except StreamRefused as exc:
                refusals.append(exc)
            statuses = await asyncio.to_thread(play, apis, mid, 2)
            for s in held:
                s.close()
            return refusals, statuses

        refusals, statuses = asyncio.run(main())
    assert [r.status for r in refusals] == [503] * 6
    assert all(r.headers["retry-after"] == "9" and "too_many_streams" in r.body for r in refusals)
    assert all(200 <= s < 300 for s in statuses), "commands and /healthz are never refused for streams"


async def follow(port: int, path: str, headers: dict, into: list, stop_event: asyncio.Event) -> None:
    """A client as a browser is: read a stream, and on any break reconnect with Last-Event-ID."""
    last = None
    while not stop_event.is_set():
        stream = SseStream("127.0.0.1", port, path, {**headers, **({"Last-Event-ID": last} if last else {})})
        try:
            await stream.open()
            async for msg in stream:
                last = stream.last_id or last
                if msg["event"] in ("message", "match"):
                    into.append(versions_of(msg))
                if stop_event.is_set():
                    break
        except (OSError, ConnectionError, StreamRefused, asyncio.IncompleteReadError):
            pass
        finally:
            last = stream.last_id or last
            stream.close()
        await asyncio.sleep(0.3)


def test_streams_resume_after_a_redis_restart_with_no_event_lost_or_repeated(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="always").start()
    try:
        with web(server.url, tmp_path / "web.log", TURNSTREAM_STREAM_SECONDS="300") as (base, port):
            ann, bob, apis, mid = duel(base)
            _, start = Api(base).get(f"/api/matches/{mid}")

            async def main():
                done = asyncio.Event()
                spectator, player = [], []
                tasks = [asyncio.create_task(follow(port, f"/api/matches/{mid}/stream", {}, spectator, done)),
                         asyncio.create_task(follow(port, "/api/users/me/stream",
                                                    {"Authorization": f"Bearer {ann['token']}"}, player, done))]
                await asyncio.sleep(0.5)
                await asyncio.to_thread(play, apis, mid, 2)
                await wait_until(lambda: len(spectator) >= 2 and len(player) >= 2, 10, "the first moves")
                await asyncio.to_thread(server.stop)
                await asyncio.sleep(1.0)
                await asyncio.to_thread(server.start)
                await asyncio.to_thread(wait_http, f"{base}/healthz", 20)
                await asyncio.to_thread(play, apis, mid, 2)
                _, now = await asyncio.to_thread(Api(base).get, f"/api/matches/{mid}")
                expected = list(range(start["version"] + 1, now["version"] + 1))
                await wait_until(lambda: spectator[-1:] == player[-1:] == expected[-1:], 20, "the later moves")
                done.set()
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                return spectator, player, expected

            spectator, player, expected = asyncio.run(main())
    finally:
        server.stop()
    assert spectator == expected, "the spectator saw every event once, in order"
    assert player == expected, "the player's browser stream saw every event once, in order"


def test_no_token_or_session_reaches_a_log_line(redis_url, tmp_path):
    import redis
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    r.flushdb()
    log = tmp_path / "web.log"
    with web(redis_url, log, TURNSTREAM_LOG_LEVEL="debug") as (base, port):
        ann, bob, apis, mid = duel(base)
        session, _csrf = Sessions(r).create(ann["id"])
        cookie = {"Cookie": f"{SESSION_COOKIE}={session}"}
        bearer = {"Authorization": f"Bearer {ann['token']}"}
        ways = [(f"/api/matches/{mid}/stream", bearer), ("/api/users/me/stream", bearer),
                (f"/api/stream?watch={mid}", bearer), (f"/api/matches/{mid}/stream", cookie),
                ("/api/users/me/stream", cookie), (f"/api/stream?watch={mid}", cookie),
                (f"/api/matches/{mid}/stream?token={ann['token']}", {}),
                (f"/api/users/me/stream?token={ann['token']}", {}), (f"/api/stream?token={ann['token']}", {})]

        async def main():
            opened, refused = [], []
            for path, headers in ways:
                try:
                    opened.append(await SseStream("127.0.0.1", port, path, headers).open())
                except StreamRefused as exc:
                    refused.append(exc.status)
            await asyncio.to_thread(play, apis, mid, 1)
            await asyncio.sleep(0.3)
            for s in opened:
                s.close()
            return len(opened), refused

        count, refused = asyncio.run(main())
    text = log.read_text()
    assert count == 6 and refused == [400, 400, 400], "a token in a URL is refused, every other way works"
    assert text.count("/stream") >= 9, "the access log did record the streams"
    assert ann["token"] not in text and bob["token"] not in text and session not in text
