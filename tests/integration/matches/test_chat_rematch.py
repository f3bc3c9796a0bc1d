"""Chat (a platform event, never game state, not a move) and the rematch of a finished match."""
from __future__ import annotations

from tests.integration.api.errors import error_of
from tests.invites import start_http


def chat(client, mid, headers, text):
    """POST a chat message."""
    return client.post(f"/api/matches/{mid}/chat", json={"text": text}, headers=headers)


def test_seated_players_chat_and_everyone_reads_it(client, make_user):
    """201 {"version"}; a chat_posted event with the stripped text and the author as actor, visible to
    spectators too; the game state and the legal commands are untouched."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    before = client.get(f"/api/matches/{mid}/state", headers=ha).get_json()
    legal = client.get(f"/api/matches/{mid}/legal", headers=ha).get_json()["commands"]
    posted = chat(client, mid, hb, "  good luck <b>ann</b>  ")
    assert posted.status_code == 201 and posted.get_json() == {"version": before["version"] + 1}
    (event,) = client.get(f"/api/matches/{mid}/events?after={before['version']}").get_json()["events"]
    assert (event["type"], event["scope"], event["actor"], event["data"]) == \
        ("chat_posted", "platform", bob, {"text": "good luck <b>ann</b>"})
    after = client.get(f"/api/matches/{mid}/state", headers=ha).get_json()
    assert after["view"] == before["view"] and after["active_players"] == [ann]
    assert client.get(f"/api/matches/{mid}/legal", headers=ha).get_json()["commands"] == legal


def test_chat_refusals_change_nothing(client, make_user):
    """Spectators 403, no token 401, too long 400, blank or holding control characters or direction
    overrides 422, unknown match 404; the version stays. Line breaks, tabs, RTL text and emoji pass."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    _, he = make_user("eve")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    version = client.get(f"/api/matches/{mid}").get_json()["version"]
    error_of(chat(client, mid, he, "hi"), 403, "not_seated")
    error_of(client.post(f"/api/matches/{mid}/chat", json={"text": "hi"}), 401)
    error_of(chat(client, mid, ha, "x" * 501), 400, "invalid_body")
    assert error_of(chat(client, mid, ha, "   "), 422)["rule"] == "platform:chat.empty"
    for hidden in ("hi\u0000there", "gg \u202ekcab", "a\u2066b", "bell\u0007"):
        assert error_of(chat(client, mid, ha, hidden), 422)["rule"] == "platform:chat.invisible-character"
    error_of(client.post(f"/api/matches/{mid}/chat", json={}, headers=ha), 400, "invalid_body")
    error_of(chat(client, "m_nope", ha, "hi"), 404, "not_found")
    assert client.get(f"/api/matches/{mid}").get_json()["version"] == version
    assert chat(client, mid, ha, "x" * 500).status_code == 201
    assert chat(client, mid, ha, "two\nlines\tand a tab, مرحبا, 👩\u200d💻").status_code == 201
    assert chat(client, mid, ha, "sent\r\nfrom windows").status_code == 201
    invited = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob]}, headers=ha).get_json()
    assert chat(client, invited["id"], hb, "see you there").status_code == 201, "before the start is fine"
    assert client.post(f"/api/matches/{invited['id']}/decline", headers=hb).status_code == 200
    assert error_of(chat(client, invited["id"], ha, "hello?"), 422)["rule"] == "platform:chat.cancelled"


def test_chat_is_not_a_move_for_take_back(client, make_user):
    """The opponent's chat after my free move does not stop me taking it back (chat is talk, not acting)."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "note", "payload": {"text": "a"}},
                       headers=ha).status_code == 201
    assert chat(client, mid, hb, "nice note").status_code == 201
    taken = client.post(f"/api/matches/{mid}/takeback", headers=ha)
    assert taken.status_code == 201, taken.get_json()


def test_the_move_log_escapes_chat(client, make_user):
    """The match page's log shows the message as text, never as markup."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    chat(client, mid, ha, "<script>alert(1)</script>")
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def finished_race(client, make_user):
    """A dice race with target 1 that ann won at her first roll: (match id, ann, bob, ha, hb, cy's headers)."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    _, hc = make_user("cy")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 1},
                                  "turn_deadline_hours": 2}, hb)
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    return mid, ann, bob, ha, hb, hc


def test_a_rematch_is_a_new_invited_match_with_the_same_seats_and_options(client, make_user, wiring):
    """Same game, seats (in order), options and deadline; the asker created it, the others are invited;
    a second ask, by anyone seated, names the same match."""
    mid, ann, bob, ha, hb, _ = finished_race(client, make_user)
    asked = client.post(f"/api/matches/{mid}/rematch", headers=hb)
    assert asked.status_code == 201, asked.get_json()
    new = asked.get_json()
    assert new["id"] != mid and new["status"] == "invited" and new["players"] == [ann, bob]
    assert new["created_by"] == bob and new["invited"] == [ann] and new["game"] == "dice-race"
    again = client.post(f"/api/matches/{mid}/rematch", headers=ha)
    assert again.status_code == 201 and again.get_json()["id"] == new["id"]
    assert client.get(f"/api/matches/{mid}").get_json()["rematch"] == new["id"]
    rematch = wiring.matches.load(new["id"])
    assert rematch.options == {"target": 1} and rematch.turn_deadline_hours == 2
    types = [e["type"] for e in client.get(f"/api/matches/{mid}/events").get_json()["events"]]
    assert types.count("rematch_created") == 1
    assert client.post(f"/api/matches/{new['id']}/accept", headers=ha).get_json()["status"] == "active"


def test_rematch_refusals(client, make_user):
    """Not finished: 409; not seated: 403; no token: 401; unknown: 404."""
    mid, ann, bob, ha, hb, hc = finished_race(client, make_user)
    running = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    assert error_of(client.post(f"/api/matches/{running}/rematch", headers=ha), 409, "match_not_finished")["rule"] \
        == "platform:rematch.not-finished"
    error_of(client.post(f"/api/matches/{mid}/rematch", headers=hc), 403, "not_seated")
    error_of(client.post(f"/api/matches/{mid}/rematch"), 401)
    error_of(client.post("/api/matches/m_nope/rematch", headers=ha), 404)
