"""Ratings are a projection: live play and `projections rebuild` reach the very same numbers."""
from __future__ import annotations

import json
import random

from service.app.invitations import accept_for_all
from projections.rebuild import rebuild_projections
from tests.conftest import drain_projections


def play_out(w, match_id: str, chooser: random.Random) -> None:
    """Random legal commands until the match finishes."""
    for _ in range(2000):
        match = w.matches.load(match_id)
        if match.finished:
            return
        player = match.active_players()[0]
        _version, legal = w.matches.legal(player, match_id)
        command = chooser.choice(legal)
        w.matches.submit(player, match_id, command["type"], command["payload"])
    raise AssertionError("the match did not finish")


def ratings_state(w, game: str) -> dict:
    """Everything the ratings projection stores for a game."""
    r = w.redis
    return {kind: r.hgetall(w.ratings.key(kind, game)) for kind in ("table", "changes", "records")}


def test_live_ratings_equal_rebuilt_ratings_with_four_players(wiring, client, make_user):
    w = wiring
    people = [make_user(name)[0] for name in ("ann", "bob", "cat", "dan")]
    chooser = random.Random(7)
    finished = []
    for n in range(8):
        seated = people if n % 2 == 0 else chooser.sample(people, 2)
        match = accept_for_all(w.matches, w.matches.create(seated[0], "dice-race", {"target": 8}, players=seated))
        play_out(w, match.id, chooser)
        finished.append(match.id)
        if n % 3 == 2:  # project now and then, so the live fold is incremental and partly out of order
            drain_projections(w)
    drain_projections(w)
    live = ratings_state(w, "dice-race")
    assert len(live["records"]) == 8 and len(live["changes"]) == 8
    board = client.get("/api/games/dice-race/leaderboard").get_json()["ratings"]
    assert {r["user"] for r in board} == set(people)
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    assert {r["name"] for r in board} == {"ann", "bob", "cat", "dan"}
    assert sum(r["matches"] for r in board) == 4 * 4 + 4 * 2

    rebuild_projections(w.projector)
    assert ratings_state(w, "dice-race") == live
    assert client.get("/api/games/dice-race/leaderboard").get_json()["ratings"] == board

    ann = client.get(f"/api/users/{people[0]}").get_json()
    assert ann["name"] == "ann" and ann["ratings"]["dice-race"] == next(r["rating"] for r in board
                                                                          if r["user"] == people[0])
    assert ann["matches"] and all(m["game"] == "dice-race" for m in ann["matches"])
    for m in ann["matches"]:
        change = json.loads(live["changes"][m["id"]])[people[0]]
        assert m["rating_change"] == round(change["after"] - change["before"], 2) and m["rank"] == change["rank"]
    assert client.get("/api/users/u_nobody").status_code == 404
    assert client.get("/api/games/chess/leaderboard").status_code == 404

    second = client.get("/api/games/dice-race/leaderboard?offset=1&limit=2").get_json()
    assert second["ratings"] == [dict(r, place=i + 2) for i, r in enumerate(board[1:3])]
    assert (second["total"], second["offset"], second["limit"]) == (4, 1, 2)
    for bad in ("limit=0", "limit=501", "offset=-1", "limit=ten"):
        answer = client.get(f"/api/games/dice-race/leaderboard?{bad}")
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "invalid_query", bad


def test_standings_pages_show_the_projection(wiring, client, make_user):
    """The leaderboard page lists each rated player linked to their page, which lists the finished match."""
    w = wiring
    people = [make_user(name)[0] for name in ("ann", "bob", "cat", "dan")]
    match = accept_for_all(w.matches, w.matches.create(people[0], "dice-race", {"target": 5}, players=people))
    play_out(w, match.id, random.Random(3))
    drain_projections(w)
    page = client.get("/games/dice-race/leaderboard").get_data(as_text=True)
    for p in people:
        assert f'href="/users/{p}"' in page
    player = client.get(f"/users/{people[1]}").get_data(as_text=True)
    assert "bob" in player and f'href="/matches/{match.id}"' in player and "→" in player
    assert client.get("/users/u_nobody").status_code == 404
    assert client.get("/games/chess/leaderboard").status_code == 404


def test_the_leaderboard_page_goes_fifty_places_at_a_time(wiring, client):
    """With more rated players than fit a page, ?page=2 shows places 51 onwards, with links both ways."""
    from tests.integration.projections.projected import GAME, Finished
    pairs = [[f"u{i:02d}a", f"u{i:02d}b"] for i in range(35)]  # 70 players, one two-player match each
    wiring.ratings.record_finished([Finished(f"m{i:02d}", pair, {"winners": [pair[0]]}, f"2026-02-01T00:00:{i:02d}Z")
                                    for i, pair in enumerate(pairs)])
    first = client.get(f"/games/{GAME}/leaderboard").get_data(as_text=True)
    assert first.count("<tr data-user=") == 50 and 'rel="next" href="?page=2"' in first and 'rel="prev"' not in first
    assert "70 rated players" in first and "page 1 of 2" in first
    second = client.get(f"/games/{GAME}/leaderboard?page=2").get_data(as_text=True)
    assert second.count("<tr data-user=") == 20 and "<td>51</td>" in second and "<td>70</td>" in second
    assert 'rel="prev" href="?page=1"' in second and 'rel="next"' not in second
    for odd, rows in (("99", 20), ("0", 50), ("-1", 50), ("two", 50), ("9" * 40, 20), ("%C2%B2", 50),
                      ("%E2%91%A0", 50), ("%D9%A2", 50)):
        answer = client.get(f"/games/{GAME}/leaderboard?page={odd}")
        assert answer.status_code == 200 and answer.get_data(as_text=True).count("<tr data-user=") == rows, odd
        assert ("page 2 of 2" if rows == 20 else "page 1 of 2") in answer.get_data(as_text=True), odd


def stood_in(w, match_id: str, player: str) -> None:
    """A stand-in bot takes `player`'s seat (as the deadline job does after their timeouts)."""
    from domain.engine import platform_events as pe
    from domain.engine.aggregate import new_event
    w.matches.execute(match_id, None, lambda match, rng: [new_event(pe.STAND_IN_STARTED, player=player,
                                                                    bot="greedy", after_timeouts=1)])


def play_out_with_stand_ins(w, match_id: str, chooser: random.Random) -> None:
    """Random legal commands until the match finishes; a stood-in player's seat is played by the stand-in."""
    for _ in range(2000):
        match = w.matches.load(match_id)
        if match.finished:
            return
        player = match.active_players()[0]
        _version, legal = w.matches.legal(player, match_id)
        command = chooser.choice(legal)
        w.matches.submit(player, match_id, command["type"], command["payload"], stand_in=player in match.stand_ins)
    raise AssertionError("the match did not finish")


def test_only_matches_a_person_played_count_for_ratings(wiring, client, make_user):
    """A match whose every move a bot or a stand-in made rates nobody (a user could farm a rating from it); one
    a person played rates every seat, the bot's and a stood-in player's included. A rebuild agrees."""
    w = wiring
    ann, bob = make_user("ann")[0], make_user("bob")[0]
    chooser = random.Random(5)

    def match(players, bots=(), stand_ins=()):
        made = accept_for_all(w.matches, w.matches.create(players[0], "dice-race", {"target": 6}, players=players,
                                                           bots=list(bots), replace_after_timeouts=1))
        for player in stand_ins:
            stood_in(w, made.id, player)
        play_out_with_stand_ins(w, made.id, chooser)
        return made.id

    farmed = [match([ann], ["bot:random:1"], stand_ins=[ann]) for _ in range(3)]  # ann never moves herself
    absent = match([ann, bob], stand_ins=[ann, bob])  # two people, both left to stand-ins from the start
    played = match([ann], ["bot:random:1"])  # ann plays the bot
    walked = match([ann, bob], stand_ins=[bob])  # bob left his seat to the stand-in, ann played
    drain_projections(w)
    changes = w.ratings.changes("dice-race", farmed + [absent, played, walked])
    assert set(changes) == {played, walked}
    assert set(changes[played]) == {ann, "bot:random:1"} and set(changes[walked]) == {ann, bob}
    assert set(w.ratings.unrated("dice-race", farmed + [absent, played])) == set(farmed + [absent])
    board = client.get("/api/games/dice-race/leaderboard").get_json()["ratings"]
    assert {r["user"]: r["matches"] for r in board} == {ann: 2, bob: 1, "bot:random:1": 1}
    me = client.get(f"/api/users/{ann}").get_json()
    assert {m["id"]: m["rating_change"] is None for m in me["matches"]} == {
        **{m: True for m in farmed + [absent]}, played: False, walked: False}
    live = ratings_state(w, "dice-race")
    rebuild_projections(w.projector)
    assert ratings_state(w, "dice-race") == live
    assert set(w.ratings.unrated("dice-race", farmed + [absent])) == set(farmed + [absent])
