"""A match is drawn by the board of its own rules version: `game.at(version).table.board`, the drawing frozen with
the rest of the package by `turnstream rules bump`, so a later edit of the game's drawing leaves old matches drawn
as they were; a game that declares no board shows its view as JSON."""
from __future__ import annotations

import dataclasses

from domain.games import load_games
from service.cli.rules import bump
from service.web import boards
from tests.gamekit import start
from tests.rules_copies import BUMP_DAY, copy_game, import_fresh

LABEL = 'aria-label="Uchronia board"'


def test_an_older_version_is_drawn_by_its_frozen_drawing(tmp_path):
    folder, lock = copy_game(tmp_path), tmp_path / "rules.lock.json"
    frozen, _new, files = bump("uchronia", folder, lock, BUMP_DAY)
    drawing = folder / "drawing.py"
    drawing.write_text(drawing.read_text().replace('_("Uchronia board")', '_("Uchronia board, new edition")'))
    game = import_fresh(tmp_path)
    old = game.at(frozen)
    assert boards.board_of(old) is not boards.board_of(game)
    assert boards.board_of(old).TERMS.path == files / "text" / "glossary.json", "its glossary is frozen with it"
    view = old.view(start(old, ["ann", "bob"])[0], "ann")
    assert LABEL in str(boards.render_board(old, view, "ann"))
    assert 'aria-label="Uchronia board, new edition"' in str(boards.render_board(game, view, "ann"))


def test_places_come_from_the_versions_drawing(tmp_path):
    folder, lock = copy_game(tmp_path), tmp_path / "rules.lock.json"
    frozen, _new, _files = bump("uchronia", folder, lock, BUMP_DAY)
    drawing = folder / "drawing.py"
    drawing.write_text(drawing.read_text() + "\n\ndef place_of(view, command):\n    return ('new-place', 'f')\n")
    game = import_fresh(tmp_path)
    state = start(game, ["ann", "bob"])[0]
    command = game.legal_commands(state, game.active_players(state)[0])[0]
    assert boards.place_of(game, game.view(state, "ann"), command) == ("new-place", "f")
    assert boards.place_of(game.at(frozen), game.view(state, "ann"), command) != ("new-place", "f")


def test_a_game_without_a_board_shows_its_view_as_json():
    game = next(iter(load_games().values()))
    bare = dataclasses.replace(game, table=dataclasses.replace(game.table, board=None))
    for plain in (bare, dataclasses.replace(game, table=None)):
        assert not boards.has_picture(plain) and boards.place_of(plain, {}, {"type": "x"}) is None
        assert str(boards.render_board(plain, {"a": "<b>"}, None)).startswith('<pre class="board-json">')
    assert boards.has_picture(game)
