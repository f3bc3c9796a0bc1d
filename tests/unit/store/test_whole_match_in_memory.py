"""The whole service built with no Redis server (a memory:// URL: every connection on one in-process fakeredis):
a match against a bot through the API, its projections, its bot turns as RQ jobs, and its live stream."""
from __future__ import annotations

import dataclasses
import random
import uuid

import pytest
from rq import Queue

from service.config import Settings
from service.store.connections import MEMORY, make_queue_redis

HIGH = "100000/minute"


@pytest.fixture
def memory_wiring(games):
    """The wiring of bootstrap.build on a memory:// URL; bots think 20 ms per move."""
    from service.bootstrap import build
    from workers import context
    settings = Settings(redis_url=f"{MEMORY}{uuid.uuid4().hex}", rate_limit_per_minute=100000, bot_ms=20.0,
                        account_rate_limit=HIGH, match_rate_limit=HIGH, chat_rate_limit=HIGH)
    w = build(settings, games=games)
    context.use(w)
    yield w
    context.use(None)
    w.live.stop()
    w.users.cache.close()


def run_jobs(w) -> None:
    """Project every partition and run the queued jobs (bot turns, deadlines) until nothing is left."""
    from workers.queues import MAIN, PROJECTIONS
    from workers.runner import drain
    conn = make_queue_redis(w.settings)
    drain(w.projector, [Queue(q, connection=conn) for q in MAIN if q != PROJECTIONS], conn, "memory-worker")


def test_a_match_against_a_bot_is_played_to_the_end_without_a_redis_server(memory_wiring, games):
    """Commands through the API, projected rows and inbox, the bot's moves made by jobs, a live stream's news."""
    from service import create_app
    from service.app.live import Subscriber
    w = memory_wiring
    client = create_app(wiring=w).test_client()
    made = client.post("/api/users", json={"name": "ann"}).get_json()
    ann, headers = made["id"], {"Authorization": f"Bearer {made['token']}"}
    resp = client.post("/api/matches", json={"game": "uchronia", "players": [ann], "bots": ["greedy"],
                                             "options": {"max_rounds": 5}}, headers=headers)
    assert resp.status_code == 201, resp.get_json()
    mid = resp.get_json()["id"]
    stream = w.live.subscribe(Subscriber(ann, "127.0.0.1", matches=[mid]))
    chooser, news = random.Random(1), []
    for _ in range(400):
        run_jobs(w)
        summary = client.get(f"/api/matches/{mid}").get_json()
        if summary["status"] == "finished":
            break
        if ann in summary["active_players"]:
            legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()
            command = dict(chooser.choice(legal["commands"]), expected_version=legal["version"])
            assert client.post(f"/api/matches/{mid}/commands", json=command, headers=headers).status_code == 201
        news += stream.take(0.01)
    assert summary["status"] == "finished"
    events = client.get(f"/api/matches/{mid}/events").get_json()["events"]
    assert any(e["actor"] == "bot:greedy:1" for e in events) and any(e["actor"] == ann for e in events)
    row, = w.read_models.rows([mid])
    assert (row["status"], row["version"]) == ("finished", len(events))  # projected to the last event
    assert mid in {r["id"] for r in w.read_models.list_matches(player=ann)}
    news += stream.take(1.0)
    assert news, "the live stream heard nothing"
    w.live.unsubscribe(stream)
