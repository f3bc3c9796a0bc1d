"""/metrics in one process: command outcomes, projection lag before and after the projector ran, webhook
delivery outcomes, live streams and the token guard."""
from __future__ import annotations

from dataclasses import replace

from prometheus_client.parser import text_string_to_metric_families

from service import create_app
from service.metrics import LIVE_STREAMS, live_stream
from service.store.webhook_outcomes import record_webhook
from tests.conftest import drain_projections
from tests.invites import start_http


def scrape(client, headers=None) -> dict:
    """{(name, frozen labels): value} of GET /metrics."""
    resp = client.get("/metrics", headers=headers or {})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return {(s.name, frozenset(s.labels.items())): s.value
            for f in text_string_to_metric_families(resp.get_data(as_text=True)) for s in f.samples}


def lag(got: dict) -> float:
    """The largest projection lag of any partition."""
    return max(v for (name, _), v in got.items() if name == "turnstream_projection_lag_seconds")


def test_counts_lag_webhooks_and_streams(client, wiring, make_user):
    """Outcomes are counted by game; a partition with unapplied changes lags until the projector runs."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    key = ("turnstream_commands_total", frozenset({"game": "dice-race", "outcome": "accepted"}.items()))
    refused = ("turnstream_commands_total", frozenset({"game": "dice-race", "outcome": "409"}.items()))
    before = scrape(client)
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll", "expected_version": 1},
                       headers=ha).status_code == 409
    got = scrape(client)
    assert got[key] - before.get(key, 0) == 1 and got[refused] - before.get(refused, 0) == 1
    assert lag(got) > 0
    drain_projections(wiring)
    got = scrape(client)
    assert lag(got) == 0
    assert got[("turnstream_matches", frozenset({"status": "active"}.items()))] == 1
    record_webhook(wiring.redis, "delivered")
    record_webhook(wiring.redis, "delivered")
    record_webhook(wiring.redis, "failed")
    got = scrape(client)
    assert got[("turnstream_webhook_deliveries_total", frozenset({"outcome": "delivered"}.items()))] == 2
    assert got[("turnstream_webhook_deliveries_total", frozenset({"outcome": "failed"}.items()))] == 1
    open_before = LIVE_STREAMS._value.get()
    with live_stream():
        assert scrape(client)[("turnstream_live_streams", frozenset())] == open_before + 1
    assert scrape(client)[("turnstream_live_streams", frozenset())] == open_before


def test_metrics_token_guard(wiring):
    """With TURNSTREAM_METRICS_TOKEN set, /metrics wants it as a Bearer token."""
    wiring.settings = replace(wiring.settings, metrics_token="m-token")
    client = create_app(wiring=wiring).test_client()
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert scrape(client, {"Authorization": "Bearer m-token"})[("turnstream_redis_up", frozenset())] == 1
