"""render_board draws a well-formed, escaped board (HTML around an SVG map) for every viewer at several points of a playout."""
from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

from domain.engine import ALL
from domain.games.ti4_exploration import GAME
from domain.games.ti4_exploration.drawing import render_board
from tests.gamekit import random_playout
from tests.unit.ti4_exploration.ti4_kit import control, fresh, reveal, send

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str):
    root = ET.fromstring(svg)
    assert root.tag == "div" and "board-set" in root.get("class")
    return root


def test_board_for_every_viewer_during_a_playout():
    """Well-formed SVG for players, spectator and ALL, at the start, mid-game and at the end."""
    players = ["p1", "p2", "p3"]
    snapshots = []

    def on_step(state, player, cmd, new):
        if len(snapshots) < 25 or state["exploration"] or state["proposal"]:
            snapshots.append(copy.deepcopy(state))

    final, *_ = random_playout(GAME, players, 3, 900, on_step=on_step)
    snapshots.append(final)
    for state in snapshots:
        for viewer in players + [None, ALL]:
            root = _parse(render_board(GAME.view(state, viewer), viewer))
            polygons = root.findall(f".//{SVG}polygon")
            assert len(polygons) >= 19, "one hex per system at least"


def test_board_shows_controller_attachments_tokens_and_pending_card():
    """Planets in their controller's colour, the frontier token, and the revealed card appear in the SVG."""
    st = reveal(control(fresh(), "p1", "kaleth-veil", forces=1, attachments=["dyson-sphere#1"]), "p1",
                "mercenary-outfit#1", planet="kaleth-veil")
    svg = render_board(GAME.view(st, "p2"), "p2")
    _parse(svg)
    assert "Mercenary Outfit" in svg and "Dyson Sphere" in svg and "#d64541" in svg and ">⚑<" in svg


def test_board_escapes_text():
    """A hostile player name is escaped everywhere it is drawn."""
    name = '<b>&"x'
    st = fresh()
    st["order"] = [name, "p2"]
    st["players"][name] = st["players"].pop("p1")
    st["turn_player"] = name
    st, _ = send(st, name, "propose_transaction", to="p2", give={"item": "trade_goods", "count": 1}, receive=None)
    svg = render_board(GAME.view(st, name), name)
    root = _parse(svg)
    assert "<b>" not in svg
    texts = "".join(root.itertext())
    assert name in texts


def test_board_never_raises_on_sparse_views():
    """Empty or odd views still give an SVG (e.g. the initial state before setup)."""
    for view in ({}, GAME.view(GAME.initial_state(["a", "b"], {"rounds": 2}), None),
                 {"players": {"x": {"seat": "?"}}, "systems": {"s": {"q": None}}, "exploration": {"card": None}}):
        _parse(render_board(view, None))
