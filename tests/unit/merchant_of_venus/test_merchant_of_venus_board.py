"""The board (HTML around an SVG map): well-formed for every viewer kind at several points of a playout, and escaped."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.engine import ALL
from domain.games.merchant_of_venus import GAME
from domain.games.merchant_of_venus.drawing import render_board
from tests.gamekit import random_playout

EVIL = '<b>&"x'


def test_board_is_well_formed_for_every_viewer_during_a_playout():
    """render_board parses as XML for players, spectators and ALL at many steps."""
    players = ["ann", EVIL, "cy"]
    checked = []

    def on_step(state, player, cmd, new):
        if len(checked) % 37 == 0 or state["phase"] == "finished":
            for viewer in players + [None, ALL]:
                svg = render_board(GAME.view(state, viewer), viewer)
                root = ET.fromstring(svg)
                assert root.tag == "div" and root.find(".//{http://www.w3.org/2000/svg}svg") is not None
        checked.append(1)

    state, _, _, _ = random_playout(GAME, players, 5, 3000, on_step=on_step)
    final = render_board(GAME.view(state, ALL), ALL)
    assert "Finished" in final
    assert len(checked) > 50


def test_board_escapes_text():
    """Player names with markup characters are escaped."""
    state, _, _, _ = random_playout(GAME, ["ann", EVIL], 9, 3000)
    svg = render_board(GAME.view(state, EVIL), EVIL)
    ET.fromstring(svg)
    assert EVIL not in svg and "&lt;b&gt;&amp;&quot;x" in svg


def test_board_draws_map_ships_and_panels():
    """Every square, a ship per player, a panel per player and the turn line are drawn."""
    from tests.unit.merchant_of_venus.mov_kit import given
    st = given(revealed=["cw"], pl={"p2": {"square": "cw.city", "cargo": ["good:graw"]}})
    svg = render_board(GAME.view(st, "p1"), "p1")
    root = ET.fromstring(svg)
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "p1's ship" in titles and "p2's ship" in titles and sum(1 for t in titles if "(" in t) == 78
    assert "Colony World: Humans" in svg and "p1 to act" in svg and "Glorious Junk" in svg


def test_board_survives_odd_views():
    """An empty or partial view still renders."""
    ET.fromstring(render_board({}, None))
    ET.fromstring(render_board({"players": ["a"], "player_states": {"a": {"square": "nowhere"}}}, "a"))
