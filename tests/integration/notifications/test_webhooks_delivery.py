"""Webhook notifications to a receiver on loopback: "your turn", "match finished", "dispute opened",
HMAC-signed, sent once per (user, match, version, kind), retried with backoff by a real worker."""
from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from rq import Queue, SimpleWorker
from rq.job import Job
from rq.registry import FinishedJobRegistry

from service.app.installation import webhook_secret
from service.store.connections import make_queue_redis
from service.store.keys import Keys
from tests.conftest import drain_projections
from tests.e2e.processes import Api, service
from tests.waiting import wait_for
from workers.notifications import SIGNATURE_HEADER, notices, notify
from workers.queues import NOTIFICATIONS as QUEUE
from tests.invites import start_http
from tests.mailbox import notifications_idle
from tests.integration.notifications.receivers import Receiver


@pytest.fixture
def settings(redis_url):
    """Settings that allow webhooks to the loopback receivers of these tests."""
    from service.config import Settings
    return Settings(redis_url=redis_url, rate_limit_per_minute=100000, webhook_allow="127.0.0.1")


@pytest.fixture
def receiver():
    """A loopback receiver that accepts everything."""
    r = Receiver()
    yield r
    r.close()


def valid_signature(call, secret: str) -> bool:
    """True when the call's signature header is the HMAC-SHA256 of its body."""
    expected = "sha256=" + hmac.new(secret.encode(), call["body"], hashlib.sha256).hexdigest()
    return hmac.compare_digest(call["headers"][SIGNATURE_HEADER], expected)


def deliver_all(wiring):
    """Run the queued notification jobs in this process."""
    conn = make_queue_redis(wiring.settings)
    SimpleWorker([Queue(QUEUE, connection=conn)], connection=conn).work(burst=True, logging_level="WARNING")


SECRETS: dict = {}  # user id -> the webhook secret their registration answered


def hooked_user(client, make_user, name, url):
    """A user with a webhook registered through the API (its secret kept in SECRETS)."""
    uid, headers = make_user(name)
    answer = client.put("/api/users/me/webhook", json={"url": url}, headers=headers)
    assert answer.status_code == 200 and answer.get_json()["url"] == url
    SECRETS[uid] = answer.get_json()["secret"]
    return uid, headers


def installation_secret(w) -> str:
    """The key that signs webhooks registered before per-user secrets (no TURNSTREAM_WEBHOOK_SECRET in tests:
    the installation's own, generated once and kept in Redis)."""
    return webhook_secret(w.settings, w.redis)


def test_your_turn_is_signed_and_sent_once(wiring, client, make_user, receiver):
    ann, ha = hooked_user(client, make_user, "ann", receiver.url)
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    drain_projections(wiring)
    deliver_all(wiring)
    assert [(n["kind"], n["user"], n["match"]) for n in receiver.notices()] == [("your_turn", ann, mid)]
    call = receiver.calls[0]
    assert valid_signature(call, SECRETS[ann]) and not valid_signature(call, installation_secret(wiring))
    assert call["headers"]["Content-Type"] == "application/json"
    assert receiver.notices()[0]["url"].endswith(f"/matches/{mid}")
    row = wiring.read_models.rows([mid])[0]
    assert notify([(None, row)], {mid: wiring.matches.load(mid)}) == [], "the same (user, match, version, kind) is never enqueued twice"
    deliver_all(wiring)
    assert len(receiver.calls) == 1


def test_finished_and_dispute_notices_reach_the_right_players(wiring, client, make_user, receiver):
    ann, ha = hooked_user(client, make_user, "ann", receiver.url)
    bob, hb = hooked_user(client, make_user, "bob", receiver.url)
    race = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 1}}, hb)
    duel = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    drain_projections(wiring)
    assert client.post(f"/api/matches/{race}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    noted = client.post(f"/api/matches/{duel}/commands", json={"type": "note", "payload": {"text": "hm"}},
                        headers=ha).get_json()["version"]
    resp = client.post(f"/api/matches/{duel}/disputes", json={"version": noted, "reason": "misclick"}, headers=hb)
    assert resp.status_code == 201, resp.get_json()
    drain_projections(wiring)
    deliver_all(wiring)
    got = {(n["kind"], n["user"], n["match"]) for n in receiver.notices()}
    assert {("match_finished", ann, race), ("match_finished", bob, race), ("dispute_opened", ann, duel)} <= got
    assert ("dispute_opened", bob, duel) not in got, "the disputer is not notified of their own dispute"
    finished = next(n for n in receiver.notices() if n["kind"] == "match_finished")
    assert finished["result"]["winners"] == [ann]
    dispute = next(n for n in receiver.notices() if n["kind"] == "dispute_opened")
    assert dispute["dispute"]["reason"] == "misclick" and dispute["dispute"]["by"] == bob
    assert all(valid_signature(c, SECRETS[json.loads(c["body"])["user"]]) for c in receiver.calls)
    assert SECRETS[ann] != SECRETS[bob], "each player verifies with their own secret: none can sign for another"


def test_users_without_a_webhook_get_nothing(wiring, client, make_user):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    match = wiring.matches.load(mid)
    drain_projections(wiring)
    row = wiring.read_models.rows([mid])[0]
    assert [(u, n["kind"]) for u, n in notices(match, None, row, "http://x")] == [(ann, "your_turn")]
    assert notify([(None, row)], {mid: match}) == []


def test_a_real_worker_retries_a_failed_delivery_with_backoff(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    flaky = Receiver(statuses=[500])
    try:
        with service(redis_url, tmp_path) as base:
            _, ann = Api(base).post("/api/users", {"name": "ann"})
            _, bob = Api(base).post("/api/users", {"name": "bob"})
            bob_api = Api(base, bob["token"])
            status, hook = bob_api.call("PUT", "/api/users/me/webhook", {"url": flaky.url, "secret": "b" * 24})
            assert status == 200 and hook["secret"] == "b" * 24
            status, match = Api(base, ann["token"]).post("/api/matches", {"game": "uchronia",
                                                                          "players": [ann["id"], bob["id"]]})
            assert status == 201
            wait_for(lambda: len(flaky.calls) >= 2, 20, "a failed delivery and its retry", interval=0.1)
            conn = redis.Redis.from_url(redis_url)
            wait_for(lambda: FinishedJobRegistry(queue=Queue(QUEUE, connection=conn)).get_job_ids()
                     and notifications_idle(conn), 20, "the delivery job finished and none left", interval=0.1)
        assert len(flaky.calls) == 2, "one failed attempt, one retry, nothing more"
        first, second = flaky.notices()
        assert first == second and first["kind"] == "invitation" and first["match"] == match["id"]
        assert first["from"] == ann["id"]
        assert second["user"] == bob["id"]
        (job,) = [Job.fetch(j, connection=conn) for j in
                  FinishedJobRegistry(queue=Queue(QUEUE, connection=conn)).get_job_ids()]
        assert job.retry_intervals == [1, 2, 4, 8, 16] and job.retries_left == 4, "retried once, with backoff"
        assert all(valid_signature(c, "b" * 24) for c in flaky.calls), "signed with the secret bob chose"
    finally:
        flaky.close()


def test_each_webhook_has_its_own_secret_kept_across_url_changes(wiring, client, make_user, receiver):
    """The first registration makes a random secret, a new URL keeps it, a chosen one replaces it, a bad one is
    a 400, DELETE forgets it; a webhook stored before secrets were per user is signed with the operator's."""
    ann, ha = hooked_user(client, make_user, "ann", receiver.url)
    first = SECRETS[ann]
    assert len(first) >= 32
    again = client.put("/api/users/me/webhook", json={"url": receiver.url + "?v=2"}, headers=ha).get_json()
    assert again["secret"] == first
    chosen = client.put("/api/users/me/webhook", json={"url": receiver.url, "secret": "s" * 20}, headers=ha)
    assert chosen.get_json()["secret"] == "s" * 20
    for bad in ("short", "has spaces in it ok", "x" * 129, 42, "a" * 16 + "\n"):
        refused = client.put("/api/users/me/webhook", json={"url": receiver.url, "secret": bad}, headers=ha)
        assert refused.status_code == 400 and "secret" in refused.get_json()["error"]["fields"], bad
    for port in ("99999", "0"):
        refused = client.put("/api/users/me/webhook", json={"url": f"http://example.com:{port}/h"}, headers=ha)
        assert refused.status_code == 400 and "url" in refused.get_json()["error"]["fields"], port
    assert client.delete("/api/users/me/webhook", headers=ha).get_json() == {"url": None}
    assert wiring.redis.hmget(Keys.user(ann), ["webhook", "webhook_secret"]) == [None, None]
    fresh = client.put("/api/users/me/webhook", json={"url": receiver.url}, headers=ha).get_json()["secret"]
    assert fresh not in (first, "s" * 20)

    bob, hb = make_user("bob")
    wiring.redis.hset(Keys.user(bob), "webhook", receiver.url)  # as a registration before per-user secrets
    start_http(client, hb, {"game": "dice-race", "players": [bob, ann]}, ha)
    drain_projections(wiring)
    deliver_all(wiring)
    to_bob = [c for c in receiver.calls if json.loads(c["body"])["user"] == bob]
    assert to_bob and all(valid_signature(c, installation_secret(wiring)) for c in to_bob)
