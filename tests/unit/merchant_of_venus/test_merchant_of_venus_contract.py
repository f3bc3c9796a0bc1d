"""Module-level contract details: options, data validation, redaction, describe and timeouts."""
from __future__ import annotations

from pathlib import Path

import pytest
from marshmallow import ValidationError

from domain.engine import ALL, ScriptedRng
from domain.games.merchant_of_venus import GAME
from domain.games.merchant_of_venus import data
from tests.unit.merchant_of_venus.mov_kit import PLACEMENT, first, given, moving, send, types


def test_options_defaults_and_validation():
    """options_schema fills defaults and rejects out-of-range or unknown options."""
    opts = GAME.options_schema.load({})
    assert (opts["target_net_worth"], opts["max_rounds"], opts["starting_cash"]) == (800, 20, 200)
    for bad in ({"max_rounds": 0}, {"races": ["humans", "humans"]}, {"fixed_cultures": {"cw": "humans"}},
                {"colour": "red"}):
        with pytest.raises(ValidationError):
            GAME.options_schema.load(bad)


def test_setup_deals_cards_and_races():
    """setup: match_started, cards_dealt (8th card aside), turn_started for the rng's first player."""
    opts = GAME.options_schema.load({})
    events = GAME.setup(["a", "b"], opts, ScriptedRng(ints=[1]))
    assert types(events) == ["match_started", "cards_dealt", "turn_started"]
    assert events[0]["data"]["first_player"] == "b" and events[2]["data"] == {"player": "b", "round": 1}
    dealt = events[1]["data"]
    assert set(dealt["placement"]) == set(data.SYSTEM_ORDER)
    assert sorted(list(dealt["placement"].values()) + [dealt["set_aside"]]) == sorted(data.CULTURE_ORDER)
    assert GAME.redact(events[1], "a") == {"type": "cards_dealt", "data": {}}
    assert GAME.redact(events[1], ALL) == events[1]


def test_fixed_cultures_are_hidden_from_players():
    """The fixed_cultures option never shows in a player's match_started or view."""
    opts = GAME.options_schema.load({"fixed_cultures": PLACEMENT})
    ev = GAME.setup(["a", "b"], opts, ScriptedRng())[0]
    assert "fixed_cultures" not in GAME.redact(ev, "a")["data"]["options"]
    assert "fixed_cultures" in GAME.redact(ev, ALL)["data"]["options"]


def test_bad_data_file_raises_value_error(tmp_path: Path):
    """A malformed data file is rejected at load time."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"squares": []}')
    with pytest.raises(ValueError):
        data.load(bad)
    bad.write_text("not json")
    with pytest.raises(ValueError):
        data.load(bad)


def test_map_matches_spec_counts():
    """78 squares, sell.buyers derived from groups matches the spec's list."""
    assert len(data.SQUARES) == 78
    assert data.BUYS_FROM["humans"] == ["nillis", "volois", "graw"]
    assert data.BUYS_FROM["eeepeeep"] == ["humans"]
    assert set(data.BUYS_FROM["qossuth"]) == {"cholos", "whynom", "eeepeeep"}


def test_describe_sentences():
    """describe gives readable sentences, also for redacted events."""
    st = given(revealed=["cw"], phase="trade", pl={"p1": {"square": "cw.city"}})
    _, ev = send(st, "p1", "buy", item="good")
    assert GAME.describe(ev[0], lambda p: "ann") == "ann bought Rock Videos for c120"
    obs = {"type": "culture_observed", "data": {"player": "p1", "system": "jw"}}
    assert GAME.describe(obs, str) == "p1 secretly observed Jungle World"
    assert GAME.describe({"type": "cards_dealt", "data": {}}, str)
    assert isinstance(GAME.describe({"weird": 1}, str), str)


def test_unknown_ids_are_payload_errors():
    """turn.payload: unknown item ids in jettison and buy targets."""
    from tests.unit.merchant_of_venus.mov_kit import rejected
    st = given(revealed=["tr"], phase="trade", pl={"p1": {"square": "tr.city"}})
    assert rejected(st, "p1", "jettison", item="good:martians") == "turn.payload"
    assert rejected(st, "p1", "buy", item="spaceport_deed", target="nowhere") == "turn.payload"
    assert rejected(st, "p1", "buy", item="ship", target="yacht") == "turn.payload"
    assert rejected(st, "p1", "buy", item="good", target="tr.o1") == "turn.payload"


def test_on_timeout_is_neutral():
    """on_timeout skips movement, stops when allowed, ends the turn, or jettisons in free space."""
    assert types(GAME.on_timeout(given(), "p1", ScriptedRng())) == ["movement_skipped"]
    st = moving("cw.port", prev="cw.o1", mp=5)
    assert first(GAME.on_timeout(st, "p1", ScriptedRng()), "movement_ended")["reason"] == "stopped"
    trade = given(phase="trade")
    assert types(GAME.on_timeout(trade, "p1", ScriptedRng()))[0] == "turn_ended"
    full = given(phase="trade", pl={"p1": {"cargo": ["good:graw"] * 5}})
    full["free_space"] = True
    assert types(GAME.on_timeout(full, "p1", ScriptedRng())) == ["item_jettisoned"]
    assert GAME.on_timeout(given(), "p2", ScriptedRng()) == []
