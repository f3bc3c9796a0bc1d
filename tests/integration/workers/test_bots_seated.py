"""Bots take seats at creation and play through the command path (a real Redis, RQ jobs run in-process)."""
from __future__ import annotations

import random

import pytest

from domain.engine.bot_seats import is_bot
from tests.integration.workers.jobs import run_jobs


def test_a_match_with_a_bot_is_played_to_the_end(client, make_user, fast_bots):
    """ann against the greedy bot: the bot's moves are events it is the actor of, made by a job each."""
    ann, headers = make_user("ann")
    resp = client.post("/api/matches", json={"game": "uchronia", "players": [ann], "bots": ["greedy"], "options": {"max_rounds": 5}}, headers=headers)
    assert resp.status_code == 201, resp.get_json()
    match = resp.get_json()
    assert match["status"] == "active" and match["players"] == [ann, "bot:greedy:1"]
    mid = match["id"]
    chooser = random.Random(1)
    for _ in range(600):
        run_jobs(fast_bots)
        summary = client.get(f"/api/matches/{mid}").get_json()
        if summary["status"] == "finished":
            break
        assert summary["active_players"], "nobody to move in an unfinished match"
        if ann not in summary["active_players"]:
            continue
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()
        command = dict(chooser.choice(legal["commands"]), expected_version=legal["version"])
        assert client.post(f"/api/matches/{mid}/commands", json=command, headers=headers).status_code == 201
    assert summary["status"] == "finished"
    events = client.get(f"/api/matches/{mid}/events").get_json()["events"]
    by_bot = [e for e in events if e["actor"] == "bot:greedy:1"]
    assert by_bot and all(e["scope"] == "game" for e in by_bot)
    assert fast_bots.users.get("bot:greedy:1")["name"] == "Greedy bot"


def test_bots_in_an_open_match_and_bad_levels(client, make_user, fast_bots):
    """Bots take seats beside the creator of an open match; an unknown level is a 400 and creates nothing."""
    ann, headers = make_user("ann")
    resp = client.post("/api/matches", json={"game": "uchronia", "seats": 3, "bots": ["random", "random"]},
                       headers=headers)
    assert resp.status_code == 201
    assert resp.get_json()["players"] == [ann, "bot:random:1", "bot:random:2"]
    assert resp.get_json()["status"] == "active"
    resp = client.post("/api/matches", json={"game": "uchronia", "seats": 3, "bots": ["random"]}, headers=headers)
    assert resp.get_json()["status"] == "open"
    bad = client.post("/api/matches", json={"game": "uchronia", "players": [ann], "bots": ["genius"]}, headers=headers)
    assert bad.status_code == 400 and bad.get_json()["error"]["fields"]["bots"]
    too_many = client.post("/api/matches", json={"game": "uchronia", "seats": 2, "bots": ["random", "mcts"]},
                           headers=headers)
    assert too_many.status_code == 422 and "platform:match.player-count" in too_many.get_json()["error"]["rule"]
    assert all(is_bot(p) or p == ann for p in resp.get_json()["players"])


@pytest.mark.parametrize("game", ["uchronia", "merchant-of-venus", "ti4-exploration", "origins"])
def test_a_bot_named_among_the_players_and_added_again_is_refused(client, make_user, game):
    """`players: [me, bot:greedy:1]` with `bots: [greedy]` would seat one bot twice: a 422 citing the rule, in
    every game (it was a 201 with the bot in two seats, and a 500 in Uchronia), and no match is created."""
    me, headers = make_user("ann")
    first = client.post("/api/matches", json={"game": game, "players": [me], "bots": ["greedy"]}, headers=headers)
    assert first.status_code == 201, first.get_json()  # the bot's user exists from now on
    body = {"game": game, "players": [me, "bot:greedy:1"], "bots": ["greedy"]}
    resp = client.post("/api/matches", json=body, headers=headers)
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["error"]["rule"] == "platform:match.distinct-players"
