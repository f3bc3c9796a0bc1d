"""The same ETag carries the same bytes: the web process that ran a match's commands and fresh processes over the
same Redis (a restart, another worker) answer every read of it byte for byte alike."""
from __future__ import annotations

import random

import pytest

from domain.games import load_games
from tests.invites import start_http

GAMES = sorted(load_games())
COMMANDS = 12  # commands played through the first process before the others read


@pytest.fixture
def fresh_client(wiring):
    """Makes test clients of new app instances, each with its own wiring over the same Redis."""
    from service import create_app
    from service.bootstrap import build
    made = []

    def make():
        made.append(build(wiring.settings, games=wiring.games))
        return create_app(wiring=made[-1]).test_client()

    yield make
    for w in made:
        w.live.stop()
        w.users.cache.close()


def play(client, mid: str, seats: dict, count: int) -> None:
    """Up to `count` random legal commands, each by a player to move."""
    chooser = random.Random(1)
    for _ in range(count):
        active = client.get(f"/api/matches/{mid}").get_json()["active_players"]
        if not active:
            break
        headers = seats[chooser.choice(sorted(active))]
        command = chooser.choice(client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()["commands"])
        answer = client.post(f"/api/matches/{mid}/commands", headers=headers, json=command)
        assert answer.status_code == 201, answer.get_json()


def reads(client, mid: str, seats: dict) -> dict:
    """{(who, path): (status, ETag, bytes)} of every read of the match, by each player and a spectator."""
    out = {}
    for who, headers in [*seats.items(), ("spectator", {})]:
        paths = [f"/api/matches/{mid}", f"/api/matches/{mid}/state", f"/api/matches/{mid}/events?after=0"]
        if headers:
            paths.append(f"/api/matches/{mid}/legal")
        for path in paths:
            answer = client.get(path, headers=headers)
            out[(who, path)] = (answer.status_code, answer.headers.get("ETag"), answer.data)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_process_answers_a_match_with_the_same_bytes(client, make_user, fresh_client, game_id):
    """The playing process and two fresh ones: same status, same ETag, same bytes for every read."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    seats = {ann: ha, bob: hb}
    mid = start_http(client, ha, {"game": game_id, "players": [ann, bob]}, hb)
    play(client, mid, seats, COMMANDS)
    live = reads(client, mid, seats)
    first, second = reads(fresh_client(), mid, seats), reads(fresh_client(), mid, seats)
    assert first == second
    for key, (status, tag, data) in live.items():
        assert status == 200 and first[key] == (status, tag, data), key
    assert all(live[(who, f"/api/matches/{mid}/state")][1] for who in [*seats, "spectator"])

