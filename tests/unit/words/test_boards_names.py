"""Board pictures show display names, escaped, in place of user ids."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from service.web.boards import render_board
from tests.gamekit import start
from domain.games import load_games


def test_boards_show_escaped_display_names_instead_of_ids():
    """Every game's board names players by display name, and a hostile name stays text."""
    for game in load_games().values():
        players = [f"u_{i:012x}" for i in range(1, game.min_players + 1)]
        state, *_ = start(game, players)
        names = {players[0]: '<b>&"ann', players[1]: "bob"}
        svg = str(render_board(game, game.view(state, players[0]), players[0], names))
        ET.fromstring(svg)
        assert "&lt;b&gt;&amp;" in svg and "<b>" not in svg, game.id
        assert players[1] not in svg and "bob" in svg, game.id
