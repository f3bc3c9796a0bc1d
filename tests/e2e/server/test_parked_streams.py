"""Parked live streams on the production server (gunicorn, gevent): once its greeting is written, a stream's request
ends and its connection is kept by the process's writer. Events still reach it, each once and in order; it ends
cleanly at its lifetime and resumes; a hang-up frees its slot; signing out ends it at once; stopping the server
ends it."""
from __future__ import annotations

import asyncio
import time

import pytest

from service.cli.bench.sse_client import SseStream, StreamRefused
from service.server.embedded_redis import free_port
from tests.e2e.processes import spawn, stop, wait_http
from tests.e2e.live_kit import duel, parked, play, read_versions, web
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def test_events_reach_a_stream_whose_request_has_ended(redis_url, tmp_path):
    log = tmp_path / "web.log"
    with web(redis_url, log) as (base, port):
        ann, bob, apis, mid = duel(base)
        path = f"/api/matches/{mid}/stream"

        async def main():
            streams = [await SseStream("127.0.0.1", port, path, {"Authorization": f"Bearer {ann['token']}"}).open(),
                       await SseStream("127.0.0.1", port, path).open()]
            got = [[], []]
            tasks = [asyncio.create_task(read_versions(s, into)) for s, into in zip(streams, got)]
            await wait_until(lambda: parked(base) == 2, 10, "both stream requests to end, the streams parked")
            await asyncio.to_thread(play, apis, mid, 3)
            _, match = apis[ann["id"]].get(f"/api/matches/{mid}")
            await wait_until(lambda: all(g and g[-1] == match["version"] for g in got), 10, "every event")
            for s in streams:
                s.close()
            await asyncio.gather(*tasks)
            return got, match["version"]

        got, version = asyncio.run(main())
    assert got[0] == got[1] and got[0] == sorted(set(got[0])) and got[0][-1] == version, got


def test_a_parked_stream_ends_cleanly_at_its_lifetime_and_resumes_where_it_stopped(redis_url, tmp_path):
    with web(redis_url, tmp_path / "web.log", TURNSTREAM_STREAM_SECONDS="2") as (base, port):
        ann, bob, apis, mid = duel(base)
        path = f"/api/matches/{mid}/stream"

        async def main():
            first, second = [], []
            stream = await SseStream("127.0.0.1", port, path).open()
            reading = asyncio.create_task(read_versions(stream, first))
            await asyncio.to_thread(play, apis, mid, 1)
            started = time.monotonic()
            ended = await asyncio.wait_for(reading, 10)
            lasted = time.monotonic() - started
            again = await SseStream("127.0.0.1", port, path, {"Last-Event-ID": stream.last_id}).open()
            reading = asyncio.create_task(read_versions(again, second))
            await asyncio.to_thread(play, apis, mid, 1)
            await wait_until(lambda: second, 10, "the move made after the resume")
            again.close()
            await reading
            return ended, lasted, first, second

        ended, lasted, first, second = asyncio.run(main())
    assert ended == "end" and lasted < 4, (ended, lasted)
    assert first and second and second[0] == first[-1] + 1, (first, second)


def test_a_client_that_hangs_up_frees_its_slot(redis_url, tmp_path):
    with web(redis_url, tmp_path / "web.log", TURNSTREAM_STREAMS_PER_ADDRESS="3") as (base, port):
        ann, bob, apis, mid = duel(base)
        path = f"/api/matches/{mid}/stream"

        async def main():
            held = [await SseStream("127.0.0.1", port, path).open() for _ in range(3)]
            with pytest.raises(StreamRefused) as refused:
                await SseStream("127.0.0.1", port, path).open()
            for s in held[:2]:
                s.close()
            reopened, deadline = [], time.monotonic() + 5
            while len(reopened) < 2 and time.monotonic() < deadline:
                try:
                    reopened.append(await SseStream("127.0.0.1", port, path).open())
                except StreamRefused:
                    await asyncio.sleep(0.1)
            for s in [held[2], *reopened]:
                s.close()
            return refused.value.status, len(reopened)

        status, reopened = asyncio.run(main())
    assert (status, reopened) == (503, 2)


def test_signing_out_everywhere_ends_a_parked_stream_at_once(redis_url, tmp_path):
    with web(redis_url, tmp_path / "web.log") as (base, port):
        ann, bob, apis, mid = duel(base)
        path = f"/api/matches/{mid}/stream"

        async def main():
            got = []
            stream = await SseStream("127.0.0.1", port, path, {"Authorization": f"Bearer {ann['token']}"}).open()
            reading = asyncio.create_task(read_versions(stream, got))
            await asyncio.sleep(0.5)  # parked by now
            status, _ = await asyncio.to_thread(apis[ann["id"]].call, "DELETE", "/api/users/me/token")
            started = time.monotonic()
            ended = await asyncio.wait_for(reading, 5)
            return status, ended, time.monotonic() - started, got

        status, ended, lasted, got = asyncio.run(main())
    assert status == 204 and ended == "end" and lasted < 2, (status, ended, lasted)
    assert got == []


def test_stopping_the_server_ends_its_parked_streams(redis_url, tmp_path):
    port = free_port()
    proc = spawn(["web", "--port", str(port), "--workers", "1"], redis_url, tmp_path / "web.log")
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        base = f"http://127.0.0.1:{port}"
        ann, bob, apis, mid = duel(base)

        async def main():
            stream = await SseStream("127.0.0.1", port, f"/api/matches/{mid}/stream").open()
            reading = asyncio.create_task(read_versions(stream, []))
            await asyncio.sleep(0.5)
            started = time.monotonic()
            await asyncio.to_thread(stop, proc)
            ended = await asyncio.wait_for(reading, 10)
            return ended, time.monotonic() - started

        ended, lasted = asyncio.run(main())
    finally:
        stop(proc)
    assert ended in ("end", "cut") and lasted < 8, (ended, lasted)
