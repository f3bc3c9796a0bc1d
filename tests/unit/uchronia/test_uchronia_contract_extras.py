"""on_timeout defaults, describe sentences, result shape and data-file validation for Uchronia."""
from __future__ import annotations

import copy
import json

import pytest

from domain.engine import ALL, ScriptedRng, command
from domain.games.uchronia import GAME
from domain.games.uchronia.data import DATA, validate
from tests.gamekit import random_playout
from tests.unit.uchronia.uchronia_kit import first, given, send, types


def test_on_timeout_plots_at_choose_action():
    """A passed deadline at choose_action plots without copying (the neutral choice)."""
    st = given(hands={"karl": {"yellow": 1}})
    ev = GAME.on_timeout(st, "karl", ScriptedRng())
    assert first(ev, "plotted") == {"player": "karl", "copied_from": None, "order": None, "repetitions": None}
    assert GAME.on_timeout(st, "cedric", ScriptedRng()) == []


def test_on_timeout_ends_order_after_first_step_else_first_choice():
    """Mid-order the timeout ends the order; before the mandatory first step it takes the first choice."""
    st = given(hands={"karl": {"yellow": 1}}, operations={"karl": {"yellow": 1}}, forum={"blue": 1, "red": 1})
    st, _ = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    ev = GAME.on_timeout(st, "karl", ScriptedRng())
    assert first(ev, "card_taken_from_forum")["color"] == "red", "red precedes blue in the canonical order"
    st = given(hands={"karl": {"yellow": 1}}, operations={"karl": {"yellow": 2}}, forum={"blue": 3})
    st, _ = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    st, _ = send(st, "karl", "take_from_forum", color="blue")
    ev = GAME.on_timeout(st, "karl", ScriptedRng())
    assert types(ev)[0] == "order_finished" and first(ev, "order_finished")["unused"] == 2


def test_on_timeout_declines_monopoly_bonus_and_victim_gives_first_colour():
    """The bonus holder declines; a Draconias victim gives the first eligible colour."""
    st = given(hands={"karl": {"brown": 1}}, stock={"karl": {"red": 1}}, forum={"red": 1},
               under_construction={"karl": {"barracks_1": 1}}, monopolies={"red": "cedric"})
    st, _ = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    st, _ = send(st, "karl", "supply_building", building_id="barracks_1")
    assert first(GAME.on_timeout(st, "cedric", ScriptedRng()), "monopoly_bonus_resolved")["taken"] is False
    st = given(hands={"karl": {"red": 1, "blue": 1, "grey": 1}, "cedric": {"blue": 1, "grey": 1}},
               operations={"karl": {"red": 1}}, residence={"cedric": (["yellow"], "production")})
    st, _ = send(st, "karl", "issue_order", order="draconias", colors=["red"])
    st, _ = send(st, "karl", "reveal", colors=["grey", "blue"])
    assert GAME.legal_commands(st, "cedric") == [command("give_card", color="grey"), command("give_card", color="blue")]
    assert first(GAME.on_timeout(st, "cedric", ScriptedRng()), "card_given")["color"] == "grey"


def test_describe_every_event_of_a_playout_full_and_redacted():
    """describe gives a sentence for every event type, redacted or not, and survives odd events."""
    state, events, _, _ = random_playout(GAME, ["ann", "bob", "cy"], 5, 400)
    seen = set()
    for ev in events:
        seen.add(ev["type"])
        for viewer in (None, "ann", ALL):
            text = GAME.describe(GAME.redact(copy.deepcopy(ev), viewer), lambda p: f"<{p}>")
            assert text and text.endswith(".") and "{" not in text
    assert {"match_started", "order_issued", "turn_started", "match_finished"} <= seen
    assert GAME.describe({"type": "card_given", "data": {"from": "ann", "to": "bob", "color": "red"}},
                         str.upper) == "ANN gave a red card to BOB."
    for odd in ({}, {"type": "building_started"}, {"type": "great_works_revealed", "data": {"building_ids": None}},
                {"type": "mystery", "data": []}):
        assert isinstance(GAME.describe(odd, str), str)


def test_result_shape_and_options_defaults():
    """result has winners and VP scores; options fill defaults and reject unknown or out-of-range values."""
    state, _, _, options = random_playout(GAME, ["ann", "bob"], 3, 400)
    res = GAME.result(state)
    assert set(res["scores"]) == {"ann", "bob"} and all(isinstance(v, int) for v in res["scores"].values())
    assert res["winners"] and json.loads(json.dumps(res)) == res
    assert GAME.options_schema.load({}) == {"vp_target": None, "max_rounds": 30}
    for bad in ({"vp_target": 3}, {"max_rounds": 100}, {"colour": "red"}):
        with pytest.raises(Exception):
            GAME.options_schema.load(bad)


def test_data_file_validation_rejects_bad_files():
    """The JSON data is validated at import; a broken copy raises ValueError."""
    for breaker in (lambda d: d["colors"].pop(), lambda d: d["buildings"][0].update(color="pink"),
                    lambda d: d["buildings"][1].update(cost=0), lambda d: d.pop("starting_hand"),
                    lambda d: d["vp_target_default"].pop("3")):
        bad = copy.deepcopy(DATA)
        breaker(bad)
        with pytest.raises(ValueError):
            validate(bad)
    assert validate(copy.deepcopy(DATA)) == DATA
