"""The Uchronia board (a list of parts with SVG chips and cards): well-formed for every viewer at several points of a playout, and escaped."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.engine import ALL
from domain.games.uchronia import GAME
from domain.games.uchronia import drawing as board
from tests.gamekit import random_playout, start


SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> str:
    root = ET.fromstring(svg)
    assert root.tag == "div" and "board-set" in root.get("class")
    return " ".join(root.itertext())


def test_board_is_well_formed_for_every_viewer_through_a_playout():
    """Parse the SVG for players, spectator and ALL at several points, including the finish."""
    players = ["ann", "bob", "cy"]
    snapshots = []

    def on_step(state, player, cmd, new):
        if len(snapshots) < 40 and len(new) > 1:
            snapshots.append(state)

    state, *_ = random_playout(GAME, players, 4, 400, on_step=on_step)
    start_state = start(GAME, players)[0]
    for st in [start_state] + snapshots[::4] + [state]:
        for viewer in players + [None, ALL]:
            text = _texts(board.render_board(GAME.view(st, viewer), viewer))
            assert "round" in text.lower() and "Forum" in text
    final = _texts(board.render_board(GAME.view(state, ALL), ALL))
    assert "Finished" in final


def test_board_shows_own_hand_colours_but_only_counts_for_others():
    """The viewer's hand is drawn as chips; other hands as a card count."""
    st = start(GAME, ["ann", "bob"])[0]
    text = _texts(board.render_board(GAME.view(st, "ann"), "ann"))
    assert "6 card(s)" in text and "ann (you)" in text
    assert text.count("6 card(s)") == 1


def test_board_escapes_player_names():
    """A hostile name is escaped everywhere it appears."""
    evil = '<b>&"x'
    st = start(GAME, [evil, "bob"])[0]
    for viewer in (evil, None, ALL):
        svg = board.render_board(GAME.view(st, viewer), viewer)
        assert "<b>" not in svg
        assert evil in _texts(svg)


def test_board_never_raises_on_sparse_views():
    """Missing or odd fields render as an empty board rather than an error."""
    for view in ({}, {"players": {"x": None}}, {"pending": {"order": "odd"}, "forum": [1]}):
        ET.fromstring(board.render_board(view, None))
