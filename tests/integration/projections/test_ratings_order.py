"""The ratings fold on a real Redis: any recording order reaches the from-zero fold, and a match recorded late
refolds only the matches after it, each player starting from their own last earlier match."""
from __future__ import annotations

import random

import projections.ratings as ratings_module
from projections.ratings import Ratings
from tests.integration.projections.projected import GAME, Finished


def season(n: int, seed: int = 3) -> list:
    """`n` finished matches of 2-4 players from a pool of 12, one second apart, some at the very same second."""
    rng = random.Random(seed)
    pool = [f"u{i:02d}" for i in range(12)]
    out = []
    for i in range(n):
        players = rng.sample(pool, rng.choice((2, 3, 4)))
        second = i - (1 if i % 7 == 6 else 0)  # every seventh match ties with the one before it
        out.append(Finished(f"m{i:03d}", players, {"winners": [players[rng.randrange(len(players))]]},
                            f"2026-01-01T00:{second // 60:02d}:{second % 60:02d}Z"))
    return out


def stored(r) -> dict:
    """Every per-game rating hash, as stored."""
    return {kind: r.hgetall(Ratings(None).key(kind, GAME)) for kind in ("table", "changes", "states", "records")}


def test_any_recording_order_reaches_the_from_zero_fold(redis_client):
    matches = season(40)
    ratings = Ratings(redis_client)
    shuffled = matches[:]
    random.Random(11).shuffle(shuffled)
    for i in range(0, len(shuffled), 3):  # a worker records a few at a time, in whatever order it met them
        assert ratings.record_finished(shuffled[i:i + 3]) == len(shuffled[i:i + 3])
    live = stored(redis_client)
    assert len(live["changes"]) == 40 and len(live["states"]) == 40
    ratings.refold(GAME)
    assert stored(redis_client) == live
    assert ratings.record_finished(matches[:5]) == 0, "a folded match is not folded twice"


def test_a_late_match_refolds_only_what_follows_it(redis_client, monkeypatch):
    matches = season(60)
    ratings = Ratings(redis_client)
    late = matches.pop(50)
    ratings.record_finished(matches)
    before = stored(redis_client)
    rated = []
    real_rate = ratings_module.rate
    monkeypatch.setattr(ratings_module, "rate", lambda table, record, model=None: (
        rated.append(record["match"]), real_rate(table, record, model))[1])
    ratings.record_finished([late])
    assert rated == [late.id] + [m.id for m in matches[50:]]
    after = stored(redis_client)
    assert all(after["changes"][m.id] == before["changes"][m.id] for m in matches[:50]), "earlier ones stand"
    ratings.refold(GAME)
    assert stored(redis_client) == after


def test_an_in_order_match_reads_and_writes_only_its_players(redis_client):
    ratings = Ratings(redis_client)
    matches = season(30)
    ratings.record_finished(matches[:-1])
    table_before = redis_client.hgetall(Ratings(None).key("table", GAME))
    redis_client.config_resetstat()
    ratings.record_finished(matches[-1:])
    calls = {name.removeprefix("cmdstat_"): row["calls"] for name, row in redis_client.info("commandstats").items()}
    assert not {"hgetall", "zrange", "zrangebyscore", "hkeys", "hvals"} & set(calls), calls
    table_after = redis_client.hgetall(Ratings(None).key("table", GAME))
    changed = {u for u in table_after if table_after[u] != table_before.get(u)}
    assert changed == set(matches[-1].players)


def test_a_game_folded_before_the_states_were_kept_is_folded_again_from_zero(redis_client):
    ratings = Ratings(redis_client)
    matches = season(20)
    late = matches.pop(10)
    ratings.record_finished(matches)
    redis_client.delete(Ratings(None).key("states", GAME), Ratings(None).key("layout", GAME))  # as an older layout left it
    ratings.record_finished([late])
    after = stored(redis_client)
    assert len(after["states"]) == 20
    ratings.refold(GAME)
    assert stored(redis_client) == after


def test_the_leaderboard_reads_a_page_in_the_order_of_the_whole_table(redis_client):
    ratings = Ratings(redis_client)
    ratings.record_finished(season(40))
    everyone, total = ratings.leaderboard(GAME)
    assert total == 12 and len(everyone) == 12
    assert everyone == sorted(everyone, key=lambda row: (-row["rating"], -row["matches"], row["user"]))
    pages = [ratings.leaderboard(GAME, offset, 5) for offset in (0, 5, 10)]
    assert [row for rows, _ in pages for row in rows] == everyone and all(t == 12 for _, t in pages)
    assert ratings.leaderboard(GAME, 20, 5) == ([], 12)
    redis_client.delete(Ratings(None).key("rank", GAME))  # as a game folded before the rank index left it
    assert ratings.leaderboard(GAME, 5, 5) == pages[1]
