"""The live-stream e2e tests' kit: one gunicorn worker (`web`, `Server`), a duel and moves in it, the server's open
and parked stream counts, a stream's versions read to its end."""
from __future__ import annotations

import asyncio
import urllib.request
from contextlib import contextmanager

from service.cli.bench.sse_client import SseStream
from service.server.embedded_redis import free_port
from tests.e2e.processes import Api, spawn, start_invited, stop, wait_http


@contextmanager
def web(redis_url: str, log_path, port: int | None = None, **env):
    """One gunicorn worker (so the caps are one process's) on `redis_url`; yields (base URL, port)."""
    port = port or free_port()
    proc = spawn(["web", "--port", str(port), "--workers", "1"], redis_url, log_path,
                 {"TURNSTREAM_ACCESS_LOG": "-", **env})
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz")
        yield f"http://127.0.0.1:{port}", port
    finally:
        stop(proc)


def duel(base: str):
    """(ann, bob, {user id: Api}, match id): a Uchronia match of two new players."""
    _, ann = Api(base).post("/api/users", {"name": "ann"})
    _, bob = Api(base).post("/api/users", {"name": "bob"})
    apis = {ann["id"]: Api(base, ann["token"]), bob["id"]: Api(base, bob["token"])}
    status, match = start_invited(apis[ann["id"]], {"game": "uchronia", "players": [ann["id"], bob["id"]]},
                                  {bob["id"]: bob["token"]})
    assert status == 201
    return ann, bob, apis, match["id"]


def play(apis: dict, mid: str, moves: int) -> list:
    """Make `moves` legal moves (whoever must act); the statuses of the commands and of a /healthz each."""
    statuses = []
    any_api = next(iter(apis.values()))
    for _ in range(moves):
        _, match = any_api.get(f"/api/matches/{mid}")
        api = apis[match["active_players"][0]]
        _, legal = api.get(f"/api/matches/{mid}/legal")
        statuses.append(api.post(f"/api/matches/{mid}/commands", legal["commands"][0])[0])
        statuses.append(Api(any_api.base).get("/healthz")[0])
    return statuses


async def read_versions(stream: SseStream, into: list) -> str:
    """Append each event's version to `into` until the stream ends; how it ended ("end" or "cut")."""
    try:
        async for msg in stream:
            into.append(msg["data"]["version"])
        return "end"  # the chunked body ended: the server closed the stream cleanly
    except (ConnectionError, asyncio.IncompleteReadError):
        return "cut"


def parked(base: str) -> float:
    """The server's count of parked streams (/metrics)."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as resp:
        text = resp.read().decode()
    return next(float(line.split()[-1]) for line in text.splitlines()
                if line.startswith("turnstream_parked_streams "))


class Server:
    """`turnstream web` (one gunicorn worker) on a fixed port that can be stopped and started again."""

    def __init__(self, redis_url: str, tmp_path):
        self.redis_url, self.tmp_path, self.port = redis_url, tmp_path, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self) -> None:
        """Start the server and wait for /healthz."""
        self.proc = spawn(["web", "--port", str(self.port), "--workers", "1"], self.redis_url,
                          self.tmp_path / "web.log")
        wait_http(self.base + "/healthz")

    def stop(self) -> None:
        """Stop the server."""
        stop(self.proc)


def streams_open(base: str) -> int:
    """The live streams the (single) web process holds."""
    return Api(base).get("/healthz")[1]["streams"]
