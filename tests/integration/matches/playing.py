"""Matches of the four real games played a little through the API by the tests: the games, and one move by whoever may act."""
from __future__ import annotations


GAMES = ["uchronia", "merchant-of-venus", "ti4-exploration", "origins"]


def play_one_move(client, mid, seats) -> None:
    """The first seated player who may act makes their first legal command (a person played the match)."""
    for headers in seats:
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()
        if legal["commands"]:
            command = legal["commands"][0]
            answer = client.post(f"/api/matches/{mid}/commands", headers=headers,
                                 json={**command, "expected_version": legal["version"]})
            assert answer.status_code == 201, answer.get_json()
            return
    raise AssertionError("nobody may act")
