"""A game's secret options (Merchant of Venus's fixed_cultures) reach no viewer before the match ends: not
through /events, /replay or the live stream; the stored event keeps them and they show once finished."""
from __future__ import annotations

import random

import pytest

from tests.integration.live.streams import messages, race_app, read_all, stop_app
from tests.unit.merchant_of_venus.mov_kit import PLACEMENT


@pytest.fixture
def mov(settings, redis_client, games):
    """(wiring, client, users, headers, match id): a Merchant of Venus match of ann and bob with a secret
    face-down placement; eve is not seated."""
    w, client, users, headers, _ = race_app(settings, games, stream_lifetime_seconds=0.5)
    resp = client.post("/api/matches", headers=headers["ann"], json={
        "game": "merchant-of-venus", "players": [users["ann"]["id"], users["bob"]["id"]],
        "options": {"fixed_cultures": PLACEMENT, "max_rounds": 1}})
    assert resp.status_code == 201, resp.get_json()
    assert "fixed_cultures" not in resp.get_data(as_text=True)
    accepted = client.post(f"/api/matches/{resp.get_json()['id']}/accept", headers=headers["bob"])
    assert accepted.status_code == 200 and "fixed_cultures" not in accepted.get_data(as_text=True)
    yield w, client, users, headers, resp.get_json()["id"]
    stop_app(w)


def test_secret_options_reach_no_viewer_until_the_end(mov):
    """Every read path, for both players, an unseated user and a spectator; then the end reveals them."""
    w, client, users, headers, mid = mov
    stored = w.store.read_range(mid, 1, 1)[0]
    assert stored["data"]["options"]["fixed_cultures"] == PLACEMENT, "the stream keeps what the chain covers"
    for who in ("ann", "bob", "eve", None):
        auth = headers[who] if who else {}
        events = client.get(f"/api/matches/{mid}/events?after=0", headers=auth)
        assert events.status_code == 200 and "fixed_cultures" not in events.get_data(as_text=True), who
        created = events.get_json()["events"][0]
        assert created["type"] == "match_created" and created["redacted"] is True
        assert created["data"]["options"]["max_rounds"] == 1
        replay = client.get(f"/api/matches/{mid}/replay?version=1", headers=auth)
        assert replay.status_code == 200 and "fixed_cultures" not in replay.get_data(as_text=True), who
        stream = client.get(f"/api/matches/{mid}/stream?last_event_id=0", headers=auth, buffered=False)
        sent = [m for m in messages(read_all(stream)) if "id" in m]
        assert sent and sent[0]["id"] == 1 and "fixed_cultures" not in str(sent), who
    chooser = random.Random(4)
    while client.get(f"/api/matches/{mid}").get_json()["status"] != "finished":
        mover = client.get(f"/api/matches/{mid}").get_json()["active_players"][0]
        mover_name = next(n for n, u in users.items() if u["id"] == mover)
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers[mover_name]).get_json()["commands"]
        answer = client.post(f"/api/matches/{mid}/commands", headers=headers[mover_name], json=chooser.choice(legal))
        assert answer.status_code == 201 and "fixed_cultures" not in answer.get_data(as_text=True)
    revealed = client.get(f"/api/matches/{mid}/events?after=0").get_json()["events"][0]
    assert revealed["data"]["options"]["fixed_cultures"] == PLACEMENT and "redacted" not in revealed
    audit = client.get(f"/api/matches/{mid}/audit").get_json()
    assert audit["ok"] and audit["randomness"]["verified"] is True
    rematch = client.post(f"/api/matches/{mid}/rematch", headers=headers["bob"])
    assert rematch.status_code == 201, rematch.get_json()
    again = w.matches.load(rematch.get_json()["id"])
    assert "fixed_cultures" not in again.options and again.options["max_rounds"] == 1, \
        "the rematch keeps the options but the secret one, which this match's end revealed"
