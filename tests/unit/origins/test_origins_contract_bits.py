"""Data validation, options and command schemas, views, redaction and the move-log sentences."""
from __future__ import annotations

import copy
import json

import pytest
from marshmallow import ValidationError

from domain.engine import ALL
from domain.games.origins import GAME
from domain.games.origins.command_text import tile_name
from domain.games.origins import data as data_module
from tests.unit.origins.origins_kit import P1, P2, given, play


def _write(tmp_path, mutate):
    raw = json.loads(data_module._PATH.read_text())
    mutate(raw)
    path = tmp_path / "origins.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.mark.parametrize("mutate", [
    lambda raw: raw.pop("sites"),
    lambda raw: raw["buildings"][0].update(colour="green"),
    lambda raw: raw["temple_vp"].pop(),
    lambda raw: raw["war"]["bands"].pop(),
    lambda raw: raw["zodiac_cards"][0].update(temple="desert"),
    lambda raw: raw["district_cards"][0].update(needs=["blue"]),
    lambda raw: raw["options"]["max_rounds"].update(default=99),
])
def test_bad_data_file_raises_value_error(tmp_path, mutate):
    """A malformed origins.json is refused at load with ValueError."""
    with pytest.raises(ValueError):
        data_module.load(_write(tmp_path, mutate))


def test_data_file_loads_the_published_tables():
    """The shipped file loads: 25 tiles, 5 sites, 12 zodiac cards, 8 district cards."""
    assert len(data_module.TILE_IDS) == 25 and len(data_module.SITES) == 5
    assert len(data_module.ZODIAC) == 12 and len(data_module.DISTRICT_CARDS) == 8
    with pytest.raises(ValueError):
        data_module.load(data_module._PATH.with_name("missing.json"))


def test_options_schema_defaults_and_range():
    """max_rounds defaults to 6 and must lie in 3..10; unknown options are rejected."""
    assert GAME.options_schema.load({}) == {"max_rounds": 6}
    for bad in ({"max_rounds": 2}, {"max_rounds": 11}, {"colour": "red"}):
        with pytest.raises(ValidationError):
            GAME.options_schema.load(bad)


def test_command_schemas_reject_unknown_and_missing_fields():
    """Payload schemas require their fields and reject extras; card may be null."""
    assert GAME.command_schemas["close_district"].load({"anchor": "B2", "die": "d8", "card": None})["card"] is None
    with pytest.raises(ValidationError):
        GAME.command_schemas["visit"].load({"worker": "d8"})
    with pytest.raises(ValidationError):
        GAME.command_schemas["pass"].load({"now": True})
    with pytest.raises(ValidationError):
        GAME.command_schemas["spend_food"].load({"to_die": "1", "to_war": 0})


def test_view_shape_and_own_zodiac_only():
    """view: public tables for all; a player's zodiac ids only for that player and ALL."""
    state = given()
    state["players"][P1]["zodiac"] = [{"temple": "sea", "card": "cancer"}]
    mine, theirs, spectator, everything = (GAME.view(state, v) for v in (P1, P2, None, ALL))
    assert {"round", "order", "current", "passed", "visit", "sites", "citizen_row", "orator_row", "market",
            "stack_count", "zodiac_deck_counts", "district_cards", "players"} <= set(mine)
    assert mine["players"][P1]["zodiac"] == [{"temple": "sea", "card": "cancer"}]
    assert "zodiac" not in theirs["players"][P1] and "zodiac" not in spectator["players"][P1]
    assert theirs["players"][P1]["zodiac_count"] == {"sea": 1, "forest": 0, "mountain": 0}
    assert "zodiac_decks" not in mine and everything["zodiac_decks"]["sea"] == state["zodiac_decks"]["sea"]


def test_redact_hides_the_drawn_card_from_everyone_else():
    """zodiac_card_taken.card is null for other players and spectators, kept for the taker and ALL."""
    state, _ = play(given(), P1, "visit", worker="archon", site="observatory")
    _, events = play(state, P1, "advance_temple", temple="sea")
    taken = next(e for e in events if e["type"] == "zodiac_card_taken")
    assert GAME.redact(copy.deepcopy(taken), P1) == taken and GAME.redact(copy.deepcopy(taken), ALL) == taken
    for viewer in (P2, None):
        red = GAME.redact(copy.deepcopy(taken), viewer)
        assert red["data"]["card"] is None and red["data"]["temple"] == "sea"
        assert "a card" in GAME.describe(red, str.upper)
    assert "the Aquarius card" in GAME.describe(taken, str.upper) and "P1" in GAME.describe(taken, str.upper)


def test_describe_every_event_type_and_odd_events():
    """describe gives a sentence for every event a game produces and never raises on odd input."""
    state, _ = play(given(), P1, "visit", worker="archon", site="workshop")
    _, events = play(state, P1, "build", tile=state["market"][0], as_farm=True, cell="C2")
    lines = [GAME.describe(e, lambda pid: f"<{pid}>") for e in events]
    assert lines[0] == f"<p1> bought the {tile_name(state['market'][0])} as a farm and placed it on C2."
    assert lines[-1] == "<p2> is next."
    for odd in ({}, {"type": "site_visited"}, {"type": "attack_made", "data": None}, {"type": "nope", "data": {}}):
        assert isinstance(GAME.describe(odd, str), str)
