"""`turnstream new-game` writes a package that passes `turnstream check-game`; a broken module fails clearly."""
from __future__ import annotations

from service.cli import main
from service.cli.game import load_game


def test_scaffold_passes_the_kit_and_draws_its_board(tmp_path, capsys):
    """The scaffold's files are written, its GAME passes every clause, its board renders an SVG."""
    assert main(["new-game", "stone-pile", "--root", str(tmp_path)]) == 0
    package = tmp_path / "domain" / "games" / "stone_pile"
    assert (package / "versions" / "index.json").exists()
    for path in (package / "game.py", package / "stone_pile.json", package / "drawing.py", package / "table.py",
                 tmp_path / "tests" / "unit" / "stone_pile" / "test_stone_pile.py"):
        assert path.exists(), path
    capsys.readouterr()
    assert main(["check-game", str(package)]) == 0
    out = capsys.readouterr().out
    assert "PASSED" in out and "FAIL" not in out, out
    board = load_game(str(package)).table.board  # the board its declaration names
    assert board.render_board({"pile": 5}, None).startswith("<svg") and "5 stones left" in board.render_board(
        {"pile": 5}, None)
    assert main(["new-game", "stone-pile", "--root", str(tmp_path)]) == 2  # never overwrites
    assert main(["new-game", "Not An Id", "--root", str(tmp_path)]) == 2


def test_a_broken_module_fails_with_a_clear_message(tmp_path, capsys):
    """legal_commands listing takes beyond the pile: the report names the clause and the refused command."""
    assert main(["new-game", "broken-pile", "--root", str(tmp_path)]) == 0
    game_py = tmp_path / "domain" / "games" / "broken_pile" / "game.py"
    text = game_py.read_text()
    assert 'range(1, min(state["max_take"], state["pile"]) + 1)' in text
    game_py.write_text(text.replace('range(1, min(state["max_take"], state["pile"]) + 1)',
                                    'range(1, state["max_take"] + 1)'))
    capsys.readouterr()
    assert main(["check-game", str(tmp_path / "domain" / "games" / "broken_pile")]) == 1
    out = capsys.readouterr().out
    assert "FAIL  listed commands are accepted" in out and "take.pile" in out, out
    assert out.strip().splitlines()[-1].startswith("FAILED:")


def test_check_game_on_a_registered_game(capsys):
    """A module name works as well as a path (one seed, the fastest game)."""
    assert main(["check-game", "domain.games.uchronia", "--seeds", "1"]) == 0
    assert "PASSED" in capsys.readouterr().out
