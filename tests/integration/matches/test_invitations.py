"""Consent to a seat: invited matches start when every invited player accepts; a decline cancels them;
the inbox says what waits (an invitation, a dispute vote, a turn); invitations reach webhooks."""
from __future__ import annotations

from tests.conftest import drain_projections
from tests.integration.api.errors import error_of
from workers.notifications import notices


def events_of(client, mid, headers=None):
    """The types of a match's events."""
    return [e["type"] for e in client.get(f"/api/matches/{mid}/events", headers=headers or {}).get_json()["events"]]


def inbox(client, headers):
    """[(match id, waiting_for)] of the caller's inbox."""
    return [(m["id"], m["waiting_for"]) for m in client.get("/api/users/me/inbox", headers=headers).get_json()["matches"]]


def test_the_creator_must_take_a_seat(client, make_user, wiring):
    """Seating only other users is refused with the platform rule, and no match is written."""
    _, ha = make_user("ann")
    bob, _ = make_user("bob")
    cy, _ = make_user("cy")
    err = error_of(client.post("/api/matches", json={"game": "dice-race", "players": [bob, cy]}, headers=ha), 422)
    assert err["rule"] == "platform:match.creator-seated"
    drain_projections(wiring)
    assert client.get("/api/matches").get_json()["matches"] == []


def test_an_invited_match_waits_for_every_acceptance_then_starts(client, make_user, wiring):
    """Nothing is dealt and nobody may act until the last invited player accepts; then match_started and
    the setup follow in the same append, and the inboxes go from invitations to the first turn."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    cy, hc = make_user("cy")
    created = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob, cy]}, headers=ha)
    assert created.status_code == 201
    match = created.get_json()
    mid = match["id"]
    assert match["status"] == "invited" and match["invited"] == [bob, cy] and match["version"] == 1
    drain_projections(wiring)
    assert inbox(client, hb) == [(mid, "invitation")] and inbox(client, hc) == [(mid, "invitation")]
    assert inbox(client, ha) == []
    assert client.get(f"/api/matches?status=invited&player={bob}").get_json()["matches"][0]["id"] == mid
    error_of(client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha), 409, "match_not_started")
    assert client.get(f"/api/matches/{mid}/legal", headers=ha).get_json()["commands"] == []

    first = client.post(f"/api/matches/{mid}/accept", headers=hb)
    assert first.status_code == 200 and first.get_json()["status"] == "invited" and first.get_json()["invited"] == [cy]
    again = client.post(f"/api/matches/{mid}/accept", headers=hb)
    assert again.status_code == 200 and again.get_json()["version"] == 2, "accepting twice changes nothing"
    drain_projections(wiring)
    assert inbox(client, hb) == [] and inbox(client, hc) == [(mid, "invitation")]

    last = client.post(f"/api/matches/{mid}/accept", headers=hc).get_json()
    assert last["status"] == "active" and last["invited"] == [] and last["active_players"] == [ann]
    assert events_of(client, mid) == ["match_created", "invitation_accepted", "invitation_accepted",
                                      "match_started", "deck_shuffled"]
    drain_projections(wiring)
    assert inbox(client, ha) == [(mid, "turn")] and inbox(client, hc) == []
    error_of(client.post(f"/api/matches/{mid}/accept", headers=make_user("dan")[1]), 403, "not_seated")
    error_of(client.post(f"/api/matches/{mid}/decline", headers=hb), 409, "invitation_not_pending")


def test_a_decline_cancels_the_match_for_everyone(client, make_user, wiring):
    """invitation_declined + match_cancelled; the match never starts, nothing else may happen to it."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    cy, hc = make_user("cy")
    mid = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob, cy]}, headers=ha).get_json()["id"]
    assert client.post(f"/api/matches/{mid}/accept", headers=hb).status_code == 200
    drain_projections(wiring)
    declined = client.post(f"/api/matches/{mid}/decline", headers=hc)
    assert declined.status_code == 200 and declined.get_json()["status"] == "cancelled"
    assert events_of(client, mid)[-2:] == ["invitation_declined", "match_cancelled"]
    version = declined.get_json()["version"]
    error_of(client.post(f"/api/matches/{mid}/accept", headers=hc), 409, "match_cancelled")
    error_of(client.post(f"/api/matches/{mid}/decline", headers=hb), 409, "match_cancelled")
    error_of(client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha), 409, "match_cancelled")
    assert client.get(f"/api/matches/{mid}").get_json()["version"] == version
    drain_projections(wiring)
    assert inbox(client, hc) == [] and inbox(client, ha) == []
    assert [m["id"] for m in client.get("/api/matches?status=cancelled").get_json()["matches"]] == [mid]


def test_the_creator_may_withdraw_an_invitation(client, make_user):
    """The creator's own decline cancels the match before anyone accepted."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob]}, headers=ha).get_json()["id"]
    assert client.post(f"/api/matches/{mid}/decline", headers=ha).get_json()["status"] == "cancelled"
    error_of(client.post(f"/api/matches/{mid}/accept", headers=hb), 409, "match_cancelled")


def test_open_matches_still_start_when_the_last_seat_is_taken(client, make_user):
    """Joining an open match is consent: no invitation step (a stray accept changes nothing)."""
    _, ha = make_user("ann")
    _, hb = make_user("bob")
    mid = client.post("/api/matches", json={"game": "dice-race", "seats": 2}, headers=ha).get_json()["id"]
    joined = client.post(f"/api/matches/{mid}/join", headers=hb).get_json()
    assert joined["status"] == "active"
    assert client.post(f"/api/matches/{mid}/accept", headers=hb).get_json()["version"] == joined["version"]
    error_of(client.post(f"/api/matches/{mid}/decline", headers=hb), 409, "invitation_not_pending")


def test_a_dispute_vote_waits_in_the_voters_inbox(client, make_user, wiring):
    """While a dispute is open, each voter who has not voted finds it in their inbox as a dispute vote."""
    from tests.invites import start_http
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    cy, hc = make_user("cy")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob, cy]}, hb, hc)
    noted = client.post(f"/api/matches/{mid}/commands", json={"type": "note", "payload": {"text": "x"}}, headers=ha)
    resp = client.post(f"/api/matches/{mid}/disputes", json={"version": noted.get_json()["version"], "reason": "no"},
                       headers=hb)
    assert resp.status_code == 201
    drain_projections(wiring)
    assert inbox(client, ha) == [(mid, "dispute_vote")] and inbox(client, hc) == [(mid, "dispute_vote")]
    assert inbox(client, hb) == []
    assert client.post(f"/api/matches/{mid}/disputes/{resp.get_json()['id']}/votes", json={"accept": True},
                       headers=hc).status_code == 200
    drain_projections(wiring)
    assert inbox(client, hc) == [] and inbox(client, ha) == [(mid, "dispute_vote")]


def test_an_invitation_is_a_webhook_notice_for_the_invited_player_only(client, make_user, wiring):
    """The projection change of a new invited match calls for one "invitation" notice per invited player,
    naming who invites; no "your_turn" is sent before the match starts."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob]}, headers=ha).get_json()["id"]
    drain_projections(wiring)
    row = wiring.read_models.rows([mid])[0]
    sent = notices(wiring.matches.load(mid), None, row, "http://x")
    assert [(user, n["kind"], n["from"]) for user, n in sent] == [(bob, "invitation", ann)]
    client.post(f"/api/matches/{mid}/accept", headers=hb)
    drain_projections(wiring)
    started = wiring.read_models.rows([mid])[0]
    assert [(u, n["kind"]) for u, n in notices(wiring.matches.load(mid), row, started, "http://x")] == [(ann, "your_turn")]
