"""The API's happy paths: games catalogue, OpenAPI, state/legal/commands, idempotent retries, events."""
from __future__ import annotations

import threading

from tests.conftest import drain_projections
from tests.invites import start_http


def test_games_catalogue_lists_the_four_games(client):
    """GET /api/games lists every hosted game with option and command schemas."""
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert {"uchronia", "merchant-of-venus", "ti4-exploration", "origins"} <= set(games)
    for g in games.values():
        assert g["min_players"] <= g["max_players"]
        assert g["options"]["type"] == "object" and g["commands"]
        assert all(s["type"] == "object" for s in g["commands"].values())


def test_openapi_document(client):
    """The OpenAPI document names every contract path and the game schemas."""
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in ("/api/users", "/api/users/me", "/api/users/me/inbox", "/api/games", "/api/matches",
                 "/api/matches/{match_id}/commands", "/api/matches/{match_id}/legal", "/healthz"):
        assert path in doc["paths"], path
    assert "uchronia.issue_order" in doc["components"]["schemas"]


def test_retried_command_id_lands_once(client, make_user):
    """The same command_id twice: the same answer, one event."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    body = {"type": "note", "payload": {"text": "hi"}, "command_id": "c-1"}
    first = client.post(f"/api/matches/{mid}/commands", json=body, headers=ha)
    second = client.post(f"/api/matches/{mid}/commands", json=body, headers=ha)
    assert first.status_code == second.status_code == 201
    assert first.get_json() == second.get_json()
    events = client.get(f"/api/matches/{mid}/events?after=0", headers=ha).get_json()["events"]
    assert [e["type"] for e in events].count("noted") == 1


def test_racing_commands_exactly_one_lands(client, make_user, wiring):
    """16 threads submit at the same expected version: one 201, fifteen 409, versions contiguous."""
    from service import create_app
    from service.bootstrap import build
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    v = client.get(f"/api/matches/{mid}").get_json()["version"]
    # each racer behaves like its own web process: its own wiring and fold cache
    racers = [create_app(wiring=build(wiring.settings, games=wiring.games)).test_client()
              for _ in range(16)]
    barrier = threading.Barrier(16, timeout=30)
    results = []

    def go(i):
        barrier.wait()
        r = racers[i].post(f"/api/matches/{mid}/commands", headers=ha,
                           json={"type": "note", "payload": {"text": str(i)}, "expected_version": v})
        results.append(r.status_code)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [201] + [409] * 15
    events = client.get(f"/api/matches/{mid}/events?after=0", headers=ha).get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, v + 2))


def test_state_legal_and_events_are_redacted_per_viewer(client, make_user):
    """A drawn card shows to its owner only; spectators see the public part."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    legal = client.get(f"/api/matches/{mid}/legal", headers=ha).get_json()
    assert {"type": "draw", "payload": {}} in legal["commands"]
    assert client.get(f"/api/matches/{mid}/legal", headers=hb).get_json()["commands"] == []
    drawn = client.post(f"/api/matches/{mid}/commands", json={"type": "draw", "payload": {},
                                                              "expected_version": legal["version"]}, headers=ha)
    card = drawn.get_json()["events"][0]["data"]["card"]
    assert isinstance(card, int)
    for headers in (hb, {}):
        state = client.get(f"/api/matches/{mid}/state", headers=headers).get_json()
        assert state["view"]["hands"][ann] == 1 and state["view"]["deck"] == 19
        events = client.get(f"/api/matches/{mid}/events?after={legal['version']}", headers=headers).get_json()["events"]
        assert events[0]["data"]["card"] is None
    mine = client.get(f"/api/matches/{mid}/state", headers=ha).get_json()
    assert mine["view"]["hands"][ann] == [card]


def test_match_list_and_inbox_follow_the_latest_version(client, make_user, wiring):
    """After the projection job runs, the match list and inboxes show the latest version."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    open_id = client.post("/api/matches", json={"game": "dice-race", "seats": 3}, headers=hb).get_json()["id"]
    drain_projections(wiring)
    inbox = client.get("/api/users/me/inbox", headers=ha).get_json()["matches"]
    assert [m["id"] for m in inbox] == [mid]
    assert client.get("/api/users/me/inbox", headers=hb).get_json()["matches"] == []
    client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha)
    drain_projections(wiring)
    assert client.get("/api/users/me/inbox", headers=ha).get_json()["matches"] == []
    bob_inbox = client.get("/api/users/me/inbox", headers=hb).get_json()["matches"]
    assert [m["id"] for m in bob_inbox] == [mid] and bob_inbox[0]["version"] == 5
    listed = client.get(f"/api/matches?player={ann}").get_json()["matches"]
    assert [(m["id"], m["version"]) for m in listed] == [(mid, 5)]
    assert [m["id"] for m in client.get("/api/matches?status=open").get_json()["matches"]] == [open_id]
    assert client.get("/api/matches?status=active&game=uchronia").get_json()["matches"] == []
