"""Undo tells the truth: the match page offers "Take back my last move" exactly when the take-back policy allows it,
and a move the page asks about first (a pass, an end of turn, a skip) says whether Undo can take it back; both are
checked by taking the move back through the API."""
from __future__ import annotations

import html
import json
import random
import re

import pytest

from service.web.sessions import SESSION_COOKIE, Sessions
from tests.invites import start_http

GAMES = ["merchant-of-venus", "ti4-exploration", "origins"]  # Uchronia asks nothing first
ASKED = re.compile(r'data-command="([^"]*)"[^>]*?data-ask="([^"]*)"')
CAN_UNDO = "You can take it back"
CANNOT_UNDO = "This cannot be taken back"
ASKED_MOVES = 3  # asked moves checked per game


def page_of(client, redis_client, mid: str, user: str) -> str:
    """The match page as `user` sees it in English."""
    client.set_cookie(SESSION_COOKIE, Sessions(redis_client).create(user)[0])
    return client.get(f"/matches/{mid}", headers={"Accept-Language": "en"}).get_data(as_text=True)


def offers_undo(page: str) -> bool:
    return "data-can-take-back" in page


@pytest.mark.parametrize("game", GAMES)
def test_the_page_says_when_a_move_can_be_taken_back(client, make_user, redis_client, game):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    headers = {ann: ha, bob: hb}
    mid = start_http(client, ha, {"game": game, "players": [ann, bob]}, hb)
    chooser = random.Random(7)
    asked = {True: 0, False: 0}
    for _step in range(300):
        if sum(asked.values()) >= ASKED_MOVES:
            break
        match = client.get(f"/api/matches/{mid}").get_json()
        if match["status"] != "active":
            break
        player = match["active_players"][0]
        page = page_of(client, redis_client, mid, player)
        questions = {html.unescape(c): html.unescape(q) for c, q in ASKED.findall(page)}
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers[player]).get_json()["commands"]
        if questions and chooser.random() < 0.5:
            text, question = chooser.choice(sorted(questions.items()))
            command = json.loads(text)
        else:
            command, question = chooser.choice(legal), None
        sent = client.post(f"/api/matches/{mid}/commands", headers=headers[player], json=command)
        assert sent.status_code == 201, sent.get_json()
        if client.get(f"/api/matches/{mid}").get_json()["status"] != "active":
            break
        offered = offers_undo(page_of(client, redis_client, mid, player))
        undone = client.post(f"/api/matches/{mid}/takeback", headers=headers[player])
        assert offered == (undone.status_code == 201), (command, undone.get_json())
        if question is not None:
            assert (CAN_UNDO in question) == (undone.status_code == 201), (question, undone.get_json())
            assert (CANNOT_UNDO in question) != (CAN_UNDO in question)
            asked[undone.status_code == 201] += 1
        if undone.status_code == 201:  # the move again, to go on
            again = client.post(f"/api/matches/{mid}/commands", headers=headers[player], json=command)
            assert again.status_code == 201, again.get_json()
    assert sum(asked.values()) >= 1, f"no asked move was played in {game}"
