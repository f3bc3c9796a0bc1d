"""The game-over standings: ranks (ties share one), score breakdowns, winners named as a sentence."""
from service.app.standings import names_sentence, standings, winners_sentence

NAMES = {"a": "Ann", "b": "Bob", "c": "Cy"}


def test_winners_are_named_as_a_sentence():
    assert winners_sentence(["a"], NAMES) == "Ann won."
    assert winners_sentence(["b", "a"], NAMES) == "Bob and Ann won (a shared victory)."
    assert winners_sentence([], NAMES) == "Nobody won."
    assert names_sentence(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy"


def test_rows_are_ranked_best_first_with_the_breakdown_as_columns():
    result = {"winners": ["b"], "scores": {"a": 3, "b": 9, "c": 3},
              "breakdown": {"a": {"vp": 1, "gold": 2, "total": 3}, "b": {"vp": 9, "gold": 0, "total": 9},
                            "c": {"vp": 3, "gold": 0, "total": 3}}, "reason": "round_limit"}
    table = standings(result, ["a", "b", "c"], NAMES)
    assert table["columns"] == ["Gold", "VP"], "by name unless the page names an order: the same for every viewer"
    assert [(r["rank"], r["name"], r["score"], r["parts"]) for r in table["rows"]] == [
        (1, "Bob", 9, [0, 9]), (2, "Ann", 3, [2, 1]), (2, "Cy", 3, [0, 3])]
    assert table["sentence"] == "Bob won." and "reason" not in table, "why it ended is the game's words, not a table here"


def test_a_game_ranking_decides_between_equal_scores():
    result = {"winners": ["b"], "ranking": ["b", "a"], "scores": {"a": 0, "b": 0}}
    rows = standings(result, ["a", "b"], NAMES)["rows"]
    assert [(r["rank"], r["name"], r["winner"]) for r in rows] == [(1, "Bob", True), (2, "Ann", False)]
    assert standings(None, ["a"], NAMES) is None


def test_a_details_column_that_is_the_score_is_shown_once():
    result = {"winners": ["a", "b"], "scores": {"a": 4, "b": 4}, "reason": "max_rounds",
              "details": {"a": {"vp": 4, "buildings": 1, "operations": 0}, "b": {"vp": 4, "buildings": 1, "operations": 0}}}
    table = standings(result, ["a", "b"], NAMES, column_order=lambda d: ["vp", "buildings", "operations"])
    assert table["keys"] == ["buildings", "operations"] and table["rows"][0]["parts"] == [1, 0]
    origins = {"winners": ["a"], "scores": {"a": 0, "b": 0},
               "breakdown": {"a": {"vp": 0, "gold": 0, "total": 0}, "b": {"vp": 0, "gold": 0, "total": 0}}}
    assert standings(origins, ["a", "b"], NAMES)["keys"] == ["gold", "vp"], "a sum's parts stay, 0 or not"
