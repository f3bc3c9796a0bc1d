"""The rating fold: ranks from results (ties share a rank) and openskill Plackett-Luce updates for 4 players."""
from __future__ import annotations

from projections.ratings import rate, ranks


def test_ranks_put_winners_first_and_share_ties():
    result = {"winners": ["a"], "scores": {"a": 9, "b": 5, "c": 5, "d": 2}}
    assert ranks(result, ["a", "b", "c", "d"]) == [1, 2, 2, 3]
    shared = {"winners": ["a", "b"], "scores": {"a": 7, "b": 7, "c": {"total": 3}, "d": {"total": 3}}}
    assert ranks(shared, ["d", "c", "b", "a"]) == [2, 2, 1, 1]


def test_four_players_with_ties_move_as_their_places_say():
    table = {}
    changes = rate(table, {"players": ["a", "b", "c", "d"], "ranks": [1, 2, 2, 3]})
    assert changes["a"]["after"] > changes["b"]["after"] == changes["c"]["after"] > changes["d"]["after"]
    assert all(c["before"] == changes["a"]["before"] for c in changes.values()), "everyone started equal"
    assert table["b"] == table["c"] and all(row["matches"] == 1 for row in table.values())
    again = rate(table, {"players": ["d", "a", "b", "c"], "ranks": [1, 1, 2, 2]})  # a shared win
    assert again["d"]["after"] > again["d"]["before"] and again["b"]["after"] < again["b"]["before"]
    assert again["b"]["after"] == again["c"]["after"] and table["a"]["matches"] == 2
