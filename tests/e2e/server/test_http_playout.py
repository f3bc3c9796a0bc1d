"""End to end over real HTTP with a real worker: random matches to the end, read models within a second."""
from __future__ import annotations

import random
import time

import pytest

from tests.e2e.processes import Api, service, start_invited
from tests.waiting import wait_for


def make_players(base, n):
    """Create n users; return their API clients."""
    players = []
    for i in range(n):
        status, user = Api(base).post("/api/users", {"name": f"player{i}"})
        assert status == 201
        api = Api(base, user["token"])
        api.id = user["id"]
        players.append(api)
    return players


def tokens(players) -> dict:
    """{user id: token} of API clients made by make_players."""
    return {p.id: p.token for p in players}


def play_to_the_end(players, game, seed, budget):
    """Create an invited match and play random legal commands until it finishes; return (id, commands)."""
    by_id = {p.id: p for p in players}
    status, match = start_invited(players[0], {"game": game, "players": list(by_id)}, tokens(players))
    assert status == 201, match
    mid = match["id"]
    chooser = random.Random(seed)
    sent = 0
    while True:
        status, state = players[0].get(f"/api/matches/{mid}/state")
        assert status == 200
        if state["status"] == "finished":
            return mid, sent, state
        assert sent < budget, f"{game} did not finish in {budget} commands"
        actor = by_id[chooser.choice(state["active_players"])]
        status, legal = actor.get(f"/api/matches/{mid}/legal")
        assert status == 200 and legal["commands"], legal
        cmd = chooser.choice(legal["commands"])
        status, answer = actor.post(f"/api/matches/{mid}/commands",
                                    dict(cmd, expected_version=legal["version"], command_id=f"c{sent}"))
        assert status == 201, (cmd, answer)
        assert answer["version"] > legal["version"]
        sent += 1


def seconds_until(predicate, timeout=1.0, what="the read model"):
    """How long until predicate() is truthy (fails after `timeout` seconds)."""
    start = time.monotonic()
    wait_for(predicate, timeout, what, interval=0.02)
    return time.monotonic() - start


@pytest.fixture(scope="module")
def base(redis_url, tmp_path_factory):
    """One real web server and worker for this module's tests."""
    with service(redis_url, tmp_path_factory.mktemp("svc")) as url:
        yield url


GAMES = {"uchronia": 5, "merchant-of-venus": 4, "ti4-exploration": 4, "origins": 4}
CASES = [(g, n) for g, top in GAMES.items() for n in (2, top)]


@pytest.mark.slow
@pytest.mark.parametrize("game,n", CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_random_match_through_http_reaches_its_end(base, game, n):
    """A random match of each game, 2 and max players, through the API to its end; the list catches up."""
    players = make_players(base, n)
    mid, sent, state = play_to_the_end(players, game, seed=3, budget=3000)
    assert state["result"]["winners"]
    status, events = players[0].get(f"/api/matches/{mid}/events?after=0")
    versions = [e["version"] for e in events["events"]]
    assert versions == list(range(1, len(versions) + 1))
    assert events["events"][-1]["type"] == "seed_revealed"
    assert not any(e.get("redacted") for e in events["events"])  # everything is public once finished
    final = state["version"]

    def listed():
        rows = Api(base).get(f"/api/matches?player={players[0].id}")[1]["matches"]
        return rows and rows[0]["version"] == final and rows[0]["status"] == "finished"

    seconds_until(listed, timeout=1.0, what="the match list to show the final version")
    assert players[0].get("/api/users/me/inbox")[1]["matches"] == []


@pytest.mark.slow
def test_inbox_reflects_each_turn_within_a_second(base):
    """Whose move it is shows in the inbox within a second of every command (5-player Uchronia)."""
    players = make_players(base, 5)
    by_id = {p.id: p for p in players}
    status, match = start_invited(players[0], {"game": "uchronia", "players": list(by_id)}, tokens(players))
    mid = match["id"]
    chooser = random.Random(5)
    lags = []
    for _ in range(25):
        state = players[0].get(f"/api/matches/{mid}/state")[1]
        for pid in state["active_players"]:
            lags.append(seconds_until(lambda: any(m["id"] == mid and m["version"] == state["version"]
                                             for m in by_id[pid].get("/api/users/me/inbox")[1]["matches"])))
        actor = by_id[chooser.choice(state["active_players"])]
        legal = actor.get(f"/api/matches/{mid}/legal")[1]
        status, _ = actor.post(f"/api/matches/{mid}/commands", dict(chooser.choice(legal["commands"])))
        assert status == 201
    assert max(lags) < 1.0


@pytest.mark.slow
def test_sixteen_racing_http_commands_at_one_version_exactly_one_lands(base):
    """16 clients send a legal command at the same expected version over HTTP: one 201, fifteen 409."""
    import threading

    players = make_players(base, 2)
    status, match = start_invited(players[0], {"game": "uchronia", "players": [p.id for p in players]},
                                  tokens(players))
    mid = match["id"]
    legal = players[0].get(f"/api/matches/{mid}/legal")[1]
    barrier = threading.Barrier(16, timeout=30)
    codes = []

    def race(i):
        barrier.wait()
        cmd = dict(legal["commands"][i % len(legal["commands"])], expected_version=legal["version"],
                   command_id=f"race-{i}")
        codes.append(players[0].post(f"/api/matches/{mid}/commands", cmd)[0])

    threads = [threading.Thread(target=race, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(codes) == [201] + [409] * 15
    events = players[0].get(f"/api/matches/{mid}/events?after=0")[1]["events"]
    assert [e["version"] for e in events] == list(range(1, legal["version"] + 2))
