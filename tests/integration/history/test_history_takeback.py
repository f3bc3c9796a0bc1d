"""Take-back through the API: allowed, refused with the platform:undo rule, the stream only grows."""
from __future__ import annotations

from tests.integration.history.races import command, start_race


def takeback(client, mid, headers):
    return client.post(f"/api/matches/{mid}/takeback", headers=headers)


def test_takeback_of_a_free_move_and_the_stream_only_grows(client, make_user, wiring):
    """The note disappears from the state, every earlier event stays byte for byte, one event is added."""
    mid, people = start_race(client, make_user)
    ann, ha = people["ann"]
    before_state = client.get(f"/api/matches/{mid}/state", headers=ha).get_json()["view"]
    noted = command(client, mid, ha, "note", text="oops")["events"][0]
    stored = wiring.store.read_range(mid, 1)
    resp = takeback(client, mid, ha)
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert body["version"] == noted["version"] + 1 and body["from_version"] == noted["version"]
    after = wiring.store.read_range(mid, 1)
    assert after[:len(stored)] == stored and len(after) == len(stored) + 1
    assert after[-1]["type"] == "moves_reverted" and after[-1]["data"]["from_version"] == noted["version"]
    assert client.get(f"/api/matches/{mid}/state", headers=ha).get_json()["view"] == before_state
    assert client.get(f"/api/matches/{mid}/audit").get_json()["ok"] is True


def test_refusals_cite_platform_undo_rules(client, make_user):
    """Randomness, hidden information, someone else acted, nothing to take back: 422 with the rule."""
    mid, people = start_race(client, make_user)
    (ann, ha), (bob, hb) = people["ann"], people["bob"]
    cases = []
    cases.append((takeback(client, mid, ha), "platform:undo.no-command"))
    command(client, mid, ha, "roll")
    cases.append((takeback(client, mid, ha), "platform:undo.randomness"))
    command(client, mid, hb, "draw")
    cases.append((takeback(client, mid, hb), "platform:undo.hidden-information"))
    cases.append((takeback(client, mid, ha), "platform:undo.others-acted"))
    for resp, rule in cases:
        assert resp.status_code == 422 and resp.get_json()["error"]["rule"] == rule, resp.get_json()


def test_refused_while_disputed_and_once_finished(client, make_user):
    """A dispute pauses take-backs; a finished match cannot be taken back."""
    mid, people = start_race(client, make_user, target=1)
    (ann, ha), (bob, hb) = people["ann"], people["bob"]
    noted = command(client, mid, ha, "note", text="x")["events"][0]
    resp = client.post(f"/api/matches/{mid}/disputes", headers=hb, json={"version": noted["version"], "reason": "no"})
    assert resp.status_code == 201
    assert takeback(client, mid, ha).get_json()["error"]["rule"] == "platform:undo.dispute-open"
    client.post(f"/api/matches/{mid}/disputes/{resp.get_json()['id']}/votes", headers=ha, json={"accept": False})
    command(client, mid, ha, "roll")
    assert client.get(f"/api/matches/{mid}").get_json()["status"] == "finished"
    resp = takeback(client, mid, ha)
    assert resp.status_code == 422 and resp.get_json()["error"]["rule"] == "platform:undo.match-finished"


def test_lobby_outsider_and_auth(client, make_user):
    """Not started: 422; not seated: 403; no token: 401; unknown match: 404."""
    ann, ha = make_user("ann")
    _, hc = make_user("cy")
    mid = client.post("/api/matches", headers=ha, json={"game": "dice-race", "seats": 2}).get_json()["id"]
    assert takeback(client, mid, ha).get_json()["error"]["rule"] == "platform:undo.not-started"
    assert takeback(client, mid, hc).status_code == 403
    assert client.post(f"/api/matches/{mid}/takeback").status_code == 401
    assert takeback(client, "m_missing", ha).status_code == 404


def test_two_commands_in_one_millisecond_are_taken_back_one_at_a_time(client, make_user, wiring):
    """Commands sent without a command_id in the same millisecond stay separate: take-back reverts the last."""
    wiring.matches.clock = lambda: "2026-01-01T00:00:00.000Z"
    mid, people = start_race(client, make_user)
    ann, ha = people["ann"]
    first = client.post(f"/api/matches/{mid}/commands", json={"type": "note", "payload": {"text": "a"}}, headers=ha)
    second = client.post(f"/api/matches/{mid}/commands", json={"type": "note", "payload": {"text": "b"}}, headers=ha)
    assert first.status_code == second.status_code == 201
    resp = takeback(client, mid, ha)
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["from_version"] == second.get_json()["version"]
    assert client.get(f"/api/matches/{mid}/state", headers=ha).get_json()["view"]["notes"] == ["a"]
