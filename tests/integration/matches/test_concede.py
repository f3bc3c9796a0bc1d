"""Concede in every game: POST /api/matches/<id>/concede; a two-player match ends with the other player the winner
(match_finished + seed_revealed), a larger one goes on with a stand-in bot in the conceding seat and ranks the
conceding players last; standings (the page) and ratings show it."""
from __future__ import annotations

import pytest

from domain.engine import platform_events as pe
from domain.engine.results import ranked_last
from tests.conftest import drain_projections
from tests.invites import start_http
from tests.integration.matches.playing import GAMES, play_one_move

@pytest.mark.parametrize("game", GAMES)
def test_conceding_a_two_player_match_ends_it_and_counts_in_standings_and_ratings(wiring, client, make_user, game):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": game, "players": [ann, bob]}, hb)
    play_one_move(client, mid, [ha, hb])
    answer = client.post(f"/api/matches/{mid}/concede", headers=hb)
    assert answer.status_code == 201, answer.get_json()
    version = answer.get_json()["version"]
    match = client.get(f"/api/matches/{mid}").get_json()
    assert match["status"] == "finished" and match["version"] == version
    assert match["result"]["winners"] == [ann] and match["result"]["conceded"] == [bob]
    events = client.get(f"/api/matches/{mid}/events?after={version - 3}", headers=ha).get_json()["events"]
    assert [e["type"] for e in events] == [pe.PLAYER_CONCEDED, pe.MATCH_FINISHED, pe.SEED_REVEALED]
    assert events[0]["actor"] == bob and events[0]["data"] == {"player": bob}
    assert client.get(f"/api/matches/{mid}/audit").get_json()["ok"] is True
    drain_projections(wiring)
    records = {u: client.get(f"/api/users/{u}").get_json() for u in (ann, bob)}
    (won,), (lost,) = records[ann]["matches"], records[bob]["matches"]
    assert (won["rank"], won["won"]) == (1, True) and (lost["rank"], lost["won"]) == (2, False)
    assert won["rating_change"] > 0 > lost["rating_change"]
    assert game in records[ann]["ratings"] and game in records[bob]["ratings"]
    page = client.get(f"/matches/{mid}").get_data(as_text=True)
    assert "A player conceded, so the match ended." in page and "data-conceded" in page and "bob conceded." in page  # as he wrote his name
    assert page.index("data-conceded") > page.index("winner-badge"), "the conceding player is listed last"
    again = client.post(f"/api/matches/{mid}/concede", headers=ha)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "match_finished"


@pytest.mark.parametrize("game", GAMES)
def test_in_a_three_player_match_a_stand_in_takes_the_conceding_seat(wiring, client, make_user, game):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    cyd, hc = make_user("cyd")
    mid = start_http(client, ha, {"game": game, "players": [ann, bob, cyd]}, hb, hc)
    play_one_move(client, mid, [ha, hb, hc])
    answer = client.post(f"/api/matches/{mid}/concede", headers=hc)
    assert answer.status_code == 201
    version = answer.get_json()["version"]
    events = client.get(f"/api/matches/{mid}/events?after={version - 2}", headers=ha).get_json()["events"]
    assert [e["type"] for e in events] == [pe.PLAYER_CONCEDED, pe.STAND_IN_STARTED]
    assert client.get(f"/api/matches/{mid}").get_json()["status"] == "active"
    again = client.post(f"/api/matches/{mid}/concede", headers=hc)
    assert again.status_code == 422 and again.get_json()["error"]["rule"] == "platform:concede.conceded"
    for command in client.get(f"/api/matches/{mid}/legal", headers=hc).get_json()["commands"][:1]:
        refused = client.post(f"/api/matches/{mid}/commands", json=command, headers=hc)
        assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "platform:concede.conceded"
    ended = client.post(f"/api/matches/{mid}/concede", headers=hb)  # one seat left in play: it wins
    assert ended.status_code == 201
    match = client.get(f"/api/matches/{mid}").get_json()
    assert match["status"] == "finished"
    assert match["result"]["winners"] == [ann] and match["result"]["conceded"] == [cyd, bob]
    drain_projections(wiring)
    ranks = {u: client.get(f"/api/users/{u}").get_json()["matches"][0]["rank"] for u in (ann, bob, cyd)}
    assert ranks[ann] == 1 and ranks[bob] > 1 and ranks[cyd] > 1


def test_only_seated_players_of_an_active_match_concede(wiring, client, make_user):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    _eve, he = make_user("eve")
    invited = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob]}, headers=ha).get_json()
    assert client.post(f"/api/matches/{invited['id']}/concede", headers=ha).status_code == 409
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    assert client.post(f"/api/matches/{mid}/concede", headers=he).status_code == 403
    assert client.post(f"/api/matches/{mid}/concede").status_code == 401
    assert client.post("/api/matches/m_nosuchmatch/concede", headers=ha).status_code == 404


def test_a_finished_game_ranks_conceding_players_last_whatever_the_stand_in_scored():
    result = {"winners": ["cyd"], "scores": {"ann": 7, "bob": 9, "cyd": 12}}
    ranked = ranked_last(result, ["cyd"], ["ann", "bob", "cyd"])
    assert ranked["winners"] == ["bob"] and ranked["conceded"] == ["cyd"]
    from projections.ratings import ranks
    assert ranks(ranked, ["ann", "bob", "cyd"]) == [2, 1, 3]
    assert ranks({"winners": ["ann"], "scores": {"ann": 1, "bob": 5}, "conceded": ["bob"]}, ["ann", "bob"]) == [1, 2]


def test_the_stand_in_plays_the_conceded_seat_to_the_end_and_its_player_is_last(wiring, client, make_user):
    from workers.bot_turns import bots_to_move
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    cyd, hc = make_user("cyd")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob, cyd], "options": {"target": 12}}, hb, hc)
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    assert client.post(f"/api/matches/{mid}/concede", headers=hb).status_code == 201
    seats = {ann: ha, cyd: hc}
    for _ in range(200):
        match = wiring.matches.load(mid)
        if match.finished:
            break
        (player,) = match.active_players()
        if player == bob:
            assert bots_to_move(match) == [(bob, "greedy", True)]
            wiring.matches.submit(bob, mid, "roll", {}, stand_in=True)
        else:
            assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=seats[player]).status_code == 201
    result = wiring.matches.load(mid).result
    assert result["conceded"] == [bob] and bob not in result["winners"] and result["winners"]


def test_the_match_page_concedes_through_its_button_action(wiring, client, make_user):
    from service.web.sessions import SESSION_COOKIE, Sessions
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    session_id, csrf = Sessions(wiring.redis).create(bob)
    browser = client.application.test_client()
    browser.set_cookie(SESSION_COOKIE, session_id)
    page = browser.get(f"/matches/{mid}").get_data(as_text=True)
    assert 'id="concede"' in page and "data-concede" in page
    answer = browser.post(f"/matches/{mid}/act/concede", json={}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 201
    assert client.get(f"/api/matches/{mid}").get_json()["result"]["winners"] == [ann]
    assert 'id="concede"' not in browser.get(f"/matches/{mid}").get_data(as_text=True)
