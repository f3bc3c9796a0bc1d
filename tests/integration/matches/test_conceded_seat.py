"""A conceded seat has no powers: its player takes back none of the stand-in's moves (nor their own), neither opens
nor votes on a dispute (the others settle it without them), and GET /legal offers them nothing; the stand-in plays
on."""
from __future__ import annotations

import pytest

from tests.invites import start_http

CONCEDED = "platform:concede.conceded"


@pytest.fixture
def conceded(wiring, client, make_user):
    """(wiring, client, {name: (id, headers)}, match id): a three-player dice race in which bob conceded after
    ann's first move; the stand-in for bob is to move."""
    seats = {name: make_user(name) for name in ("ann", "bob", "cyd")}
    ids = [seats[n][0] for n in ("ann", "bob", "cyd")]
    mid = start_http(client, seats["ann"][1], {"game": "dice-race", "players": ids, "options": {"target": 50}},
                     seats["bob"][1], seats["cyd"][1])
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=seats["ann"][1]).status_code == 201
    assert client.post(f"/api/matches/{mid}/concede", headers=seats["bob"][1]).status_code == 201
    assert wiring.matches.load(mid).active_players() == [seats["bob"][0]]
    return wiring, client, seats, mid


def refused_rule(answer) -> str | None:
    return answer.get_json()["error"].get("rule") if answer.status_code == 422 else None


def test_the_conceded_player_takes_back_none_of_the_stand_ins_moves(conceded):
    w, client, seats, mid = conceded
    bob, hb = seats["bob"]
    w.matches.submit(bob, mid, "note", {"text": "a free move"}, stand_in=True)
    version = w.matches.load(mid).version
    answer = client.post(f"/api/matches/{mid}/takeback", headers=hb)
    assert (answer.status_code, refused_rule(answer)) == (422, CONCEDED)
    assert w.matches.load(mid).version == version


def test_the_conceded_player_is_offered_no_command_while_the_stand_in_plays_on(conceded):
    w, client, seats, mid = conceded
    bob, hb = seats["bob"]
    assert client.get(f"/api/matches/{mid}/legal", headers=hb).get_json()["commands"] == []
    w.matches.submit(bob, mid, "roll", {}, stand_in=True)
    assert w.matches.load(mid).active_players() == [seats["cyd"][0]]
    assert client.get(f"/api/matches/{mid}/legal", headers=seats["cyd"][1]).get_json()["commands"]


def test_the_conceded_player_neither_disputes_nor_votes_and_the_others_settle_it(conceded):
    w, client, seats, mid = conceded
    (ann, ha), (bob, hb), (cyd, hc) = seats["ann"], seats["bob"], seats["cyd"]
    w.matches.submit(bob, mid, "roll", {}, stand_in=True)
    rolled = w.matches.load(mid).version
    opened = client.post(f"/api/matches/{mid}/disputes", json={"version": rolled, "reason": "odd"}, headers=hb)
    assert (opened.status_code, refused_rule(opened)) == (422, CONCEDED)
    opened = client.post(f"/api/matches/{mid}/disputes", json={"version": rolled, "reason": "odd"}, headers=ha)
    assert opened.status_code == 201
    dispute = opened.get_json()["id"]
    listed = client.get(f"/api/matches/{mid}/disputes", headers=ha).get_json()["disputes"][0]
    assert listed["voters"] == [cyd]
    vote = client.post(f"/api/matches/{mid}/disputes/{dispute}/votes", json={"accept": False}, headers=hb)
    assert (vote.status_code, refused_rule(vote)) == (422, CONCEDED)
    vote = client.post(f"/api/matches/{mid}/disputes/{dispute}/votes", json={"accept": True}, headers=hc)
    assert vote.status_code == 200 and vote.get_json()["status"] == "accepted"
    assert w.matches.load(mid).active_players() == [bob], "the stand-in's roll was reverted: it rolls again"
