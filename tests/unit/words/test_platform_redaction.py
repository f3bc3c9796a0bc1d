"""Platform events pass through the viewer redaction too: a game's secret options never leave match_created
before the match ends, for any viewer; the stored event keeps them."""
from __future__ import annotations

from domain.engine import platform_events as pe
from domain.games.dice_race import GAME as RACE
from domain.games.merchant_of_venus import GAME as MOV
from tests.gamekit import MatchSim
from tests.unit.merchant_of_venus.mov_kit import PLACEMENT


def test_secret_options_are_left_out_of_match_created_for_every_viewer_until_the_end():
    """Merchant of Venus's fixed_cultures: absent for both players and a spectator, present once finished."""
    sim = MatchSim(MOV, players=("ann", "bob"), options={"fixed_cultures": PLACEMENT, "max_rounds": 1})
    created = sim.match.envelopes[0]
    assert created["type"] == pe.MATCH_CREATED and created["data"]["options"]["fixed_cultures"] == PLACEMENT
    for viewer in ("ann", "bob", None):
        seen = sim.match.redact(created, viewer)
        assert "fixed_cultures" not in seen["data"]["options"] and seen["redacted"] is True
        assert seen["data"]["options"]["max_rounds"] == 1
        assert seen["data"]["commitment"] == created["data"]["commitment"]
        assert "fixed_cultures" not in str(sim.match.redact(sim.match.envelopes[1], viewer)["data"])
    sim.match.status = "finished"
    assert sim.match.redact(created, "ann")["data"] == created["data"]


def test_a_game_without_secret_options_shows_match_created_whole():
    """No secret options declared: the event is not marked redacted."""
    sim = MatchSim(RACE, options={"target": 10})
    seen = sim.match.redact(sim.match.envelopes[0], None)
    assert seen["data"] == sim.match.envelopes[0]["data"] and "redacted" not in seen
