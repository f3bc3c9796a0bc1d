"""A match is drawn by the board module of its own rules version when one was kept (`<package>_<version>`), else by
the game's: a rules bump that changes the view's shape keeps old matches drawn."""
from __future__ import annotations

import sys
import types

import pytest

from service.web import boards


@pytest.fixture
def kept_board():
    """A board module kept for uchronia's rules version 2000.01 (as `turnstream rules bump` tells one to copy)."""
    name = boards.module_name("uchronia", "2000.01")
    module = types.ModuleType(name)
    module.render_board = lambda view, viewer: f'<svg class="kept">{len(view)}</svg>'
    module.place_of = lambda view, command: ("kept-place", "field")
    sys.modules[name] = module
    boards.board_module.cache_clear()
    yield name
    del sys.modules[name]
    boards.board_module.cache_clear()


def test_a_kept_version_is_drawn_by_its_own_board(kept_board):
    assert kept_board == "service.web.boards.uchronia_2000_01"
    drawn = str(boards.render_board("uchronia", {"a": 1, "b": 2}, None, rules_version="2000.01"))
    assert 'class="kept"' in drawn and ">2</svg>" in drawn
    assert boards.place_of("uchronia", {}, {"type": "x"}, "2000.01") == ("kept-place", "field")


def test_a_version_without_its_own_board_is_drawn_by_the_games(kept_board):
    assert boards.board_module("uchronia", "2026.11") is boards.board_module("uchronia")
    assert boards.renderer("uchronia", "2026.11") is boards.renderer("uchronia") is not None
    assert boards.board_module("no-such-game", "2000.01") is None
