"""The game over in words: the tiebreak that decided (or that the tie stood), why the match ended, the columns
in the game's order whatever order the result's keys come in."""
import pytest
from flask import Flask
from flask_babel import Babel

from domain.games import load_games
from service.web.pages import game_over

NAMES = {"a": "Ann", "b": "bob"}
GAMES = load_games()


@pytest.fixture(autouse=True)
def english():
    app = Flask(__name__)
    Babel(app)
    with app.test_request_context():
        yield


def rows(*specs):
    return [{"player": p, "score": s, "winner": w, "conceded": False} for p, s, w in specs]


def test_the_first_tiebreak_that_differs_decides_and_says_both_numbers():
    view = {"players": {"a": {"relics_drawn": 1, "trade_goods": 3}, "b": {"relics_drawn": 1, "trade_goods": 7}}}
    said = game_over.tiebreak_sentence(GAMES["ti4-exploration"], {}, view, rows(("b", 2, True), ("a", 2, False)), NAMES)
    assert said == "bob and Ann tied on 2; bob won on more trade goods (7 to 3)."
    details = {"details": {"a": {"buildings": 2, "operations": 1}, "b": {"buildings": 1, "operations": 5}}}
    said = game_over.tiebreak_sentence(GAMES["uchronia"], details, {}, rows(("a", 6, True), ("b", 6, False)), NAMES)
    assert said == "Ann and bob tied on 6; Ann won on more completed buildings (2 to 1)."
    cash = {"player_states": {"a": {"cash": 90}, "b": {"cash": 40}}}
    said = game_over.tiebreak_sentence(GAMES["merchant-of-venus"], {}, cash, rows(("a", 300, True), ("b", 300, False)), NAMES)
    assert said.endswith("Ann won on more cash (90 to 40).")


def test_a_tie_that_stood_and_no_tie_at_all():
    shared = rows(("a", 0, True), ("b", 0, True))
    assert game_over.tiebreak_sentence(GAMES["origins"], {}, {}, shared, NAMES) == \
        "Ann and bob tied on 0 and on every tiebreak the rules name."
    assert game_over.tiebreak_sentence(GAMES["origins"], {}, {}, rows(("a", 5, True), ("b", 3, False)), NAMES) is None


def test_reasons_are_sentences_and_columns_keep_the_games_order():
    uchronia = GAMES["uchronia"]
    assert game_over.reason_sentence(uchronia, {"reason": "max_rounds"}) == \
        "The last round was played, so the match ended."
    assert game_over.reason_sentence(uchronia, {"reason": "draw_pile_empty"}) == \
        "The draw pile ran out, so the match ended."
    assert game_over.reason_sentence(uchronia, {"reason": "comet_hit"}) == "The match ended (comet hit)."
    assert game_over.reason_sentence(uchronia, {}) is None
    sorted_keys = {"a": {"influence": 1, "planets": 2, "relics": 0, "shard": 0, "tokens": 0, "total": 3}}
    assert game_over.column_keys(GAMES["ti4-exploration"], sorted_keys) == \
        ["planets", "influence", "relics", "shard", "tokens"]
    assert game_over.column_label(GAMES["origins"], "vp") == "VP during play"
    assert game_over.winners_sentence(["b", "a"], NAMES) == "bob and Ann share the win."


@pytest.mark.parametrize("game_id", ["ti4-exploration", "origins"])
def test_a_game_that_names_no_reason_ends_for_the_reason_its_end_state_shows(game_id):
    """TI4 and Origins record no reason: a random playout's end state says it (the last round, or for Origins
    all the gold taken before it), and a concession says so first."""
    from tests.gamekit import random_playout
    game = GAMES[game_id]
    state, *_ = random_playout(game, ["a", "b"], 2, 5000)
    view, result = game.view(state, "a"), game.result(state)
    limit = view.get("rounds") or view.get("max_rounds")
    expected = "max_rounds" if view["round"] >= limit else "gold_taken"
    assert game_over.ending(game, result, view) == expected
    assert game_over.reason_sentence(game, {"reason": expected}).endswith("so the match ended.")
    assert game_over.ending(game, {**result, "conceded": ["b"]}, view) == "conceded"
    assert game_over.ending(game, {"reason": "vp_target"}, view) == "vp_target"
    assert game_over.ending(GAMES["origins"], result, {**view, "round": 2, "max_rounds": 6}) == "gold_taken"
