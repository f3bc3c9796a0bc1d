"""The Origins board (HTML parts and SVG pictures): well-formed for every viewer kind through a playout, escapes view text."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

from domain.engine import ALL
from domain.games.origins import GAME
from domain.games.origins.drawing import render_board
from tests.gamekit import random_playout, start

NS = "{http://www.w3.org/2000/svg}"


def _parse(svg: str):
    root = ET.fromstring(svg)
    assert root.tag == "div" and "board-set" in root.get("class")
    return root


def _texts(root) -> str:
    return " ".join(root.itertext())


def test_board_is_well_formed_for_every_viewer_through_a_playout():
    """Views of players, a spectator and ALL render to parseable SVG at several points of a game."""
    players = ["p1", "p2", "p3", "p4"]
    snapshots = []

    def grab(state, player, cmd, new):
        if len(snapshots) < 60:
            snapshots.append(copy.deepcopy(state))

    final, _, _, _ = random_playout(GAME, players, 3, 3000, on_step=grab)
    points = snapshots[::12] + [final]
    for state in points:
        for viewer in players + [None, ALL]:
            root = _parse(render_board(GAME.view(state, viewer), viewer))
            assert len(list(root.iter(f"{NS}rect"))) > 100
    text = _texts(_parse(render_board(GAME.view(final, ALL), ALL)))
    assert "Finished" in text and "Workshop" in text and "War track" in text


def test_board_draws_the_city_the_rows_and_whose_turn():
    """The opening board shows the Palace and Agora, the dice rows and the player to act."""
    state, _, _, _ = start(GAME, ["ann", "bob"])
    root = _parse(render_board(GAME.view(state, "ann"), "ann"))
    text = _texts(root)
    assert "Palace" in text and "Agora" in text and "Citizen row" in text and "Orator row" in text
    assert f"{state['current']} to act" in text
    assert "Temples" in text and "Market" in text and "District cards" in text


def test_board_escapes_text_from_the_view():
    """A player called <b>&"x is shown as text, never as markup."""
    evil = '<b>&"x'
    state, _, _, _ = start(GAME, [evil, "p2"])
    svg = render_board(GAME.view(state, evil), evil)
    root = _parse(svg)
    assert evil in _texts(root)
    assert "<b>" not in svg and not list(root.iter("b"))


def test_board_never_raises_on_odd_views():
    """An empty or partial view still gives well-formed SVG."""
    for view in ({}, {"players": {"x": {}}}, {"seats": ["x"], "players": {"x": {"city": {"Z9": {}}}}}):
        _parse(render_board(view, None))
