"""The match list reads the narrowest index newest first and stops at `limit`: a game's matches are found
however many newer matches of other games there are, and a short list reads only a few rows."""
from __future__ import annotations

from service.app.invitations import accept_for_all, decline
from tests.conftest import drain_projections
from tests.waiting import next_millisecond


def started(w, players, game="dice-race", options=None):
    """An active match of `game` between `players`."""
    return accept_for_all(w.matches, w.matches.create(players[0], game, options or {"target": 8}, players=players))


def row_reads(r, action) -> tuple:
    """(what `action()` returned, how many GETs it sent to Redis)."""
    r.config_resetstat()
    out = action()
    stats = r.info("commandstats")
    return out, stats.get("cmdstat_get", {}).get("calls", 0)


def test_a_game_filter_finds_older_matches_and_reads_only_what_it_lists(wiring, make_user, client):
    w = wiring
    ann, bob = make_user("ann")[0], make_user("bob")[0]
    old = [started(w, [ann, bob], "uchronia", {}).id for _ in range(3)]
    next_millisecond()  # the newer matches' timestamps are later than every old one's
    newer = [started(w, [ann, bob]).id for _ in range(30)]
    cancelled = w.matches.create(ann, "dice-race", {"target": 8}, players=[ann, bob]).id
    decline(w.matches, bob, cancelled)
    drain_projections(w)

    everyone = w.read_models.list_matches(limit=200)
    listed, reads = row_reads(w.redis, lambda: w.read_models.list_matches("active", "uchronia", None, 2))
    assert [m["id"] for m in listed] == [m["id"] for m in everyone if m["id"] in old][:2] and reads == 2
    answer = client.get("/api/matches?game=uchronia&status=active&limit=2").get_json()["matches"]
    assert answer == listed
    both = client.get("/api/matches?game=uchronia").get_json()["matches"]
    assert {m["id"] for m in both} == set(old)

    listed, reads = row_reads(w.redis, lambda: w.read_models.list_matches(limit=5))
    assert listed == everyone[:5] and {m["id"] for m in listed} <= set(newer) and reads == 5
    assert {m["id"] for m in everyone} == set(old + newer), "a list without a status leaves cancelled out"
    assert [m["updated_at"] for m in everyone] == sorted((m["updated_at"] for m in everyone), reverse=True)
    mine = w.read_models.list_matches(status="cancelled", player=bob, limit=10)
    assert [m["id"] for m in mine] == [cancelled]
