"""A non-editable install (`pip install .`, the Quickstart's) carries every file of every game package, its frozen
versions included: otherwise an installed version's digest would differ from the lock and the one its matches
recorded, and upgrade-check would call a clean deploy changed."""
from __future__ import annotations

import fnmatch
import sys
import tomllib
from pathlib import Path

from domain.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[3]


def package_data() -> list:
    """The package-data patterns pyproject.toml gives every package ("*")."""
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return doc["tool"]["setuptools"]["package-data"]["*"]


def owner(path: Path) -> Path:
    """The deepest folder above `path` that setuptools finds as a package: every folder from the top package down to
    it has an __init__.py (a frozen version under versions/, which has none, is data of its game's package)."""
    folder = ROOT
    for part in path.relative_to(ROOT).parts[:-1]:
        if not (folder / part / "__init__.py").is_file():
            break
        folder = folder / part
    return folder


def test_every_file_of_a_game_package_is_installed():
    """Each file is a module of a package or matches a package-data pattern relative to its package."""
    patterns, missing = package_data(), []
    for package in GAME_PACKAGES.values():
        home = ROOT.joinpath(*package.split("."))
        for path in home.rglob("*"):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            base = owner(path)
            if path.suffix == ".py" and base == path.parent:
                continue  # a module of a package: installed as code
            relative = path.relative_to(base).as_posix()
            if not any(fnmatch.fnmatch(relative, pattern) for pattern in patterns):
                missing.append(path.relative_to(ROOT).as_posix())
    assert missing == [], f"not installed by `pip install .` (add a pattern to pyproject's package-data): {missing}"


def test_the_check_sees_a_file_that_would_be_left_out(tmp_path, monkeypatch):
    """A frozen version's module is data of its game's package; a stray kind of file is named."""
    me = sys.modules[__name__]  # this module: its ROOT is moved to the scratch tree
    patterns = package_data()
    game = tmp_path / "domain" / "games" / "pile"
    (game / "versions" / "2026.11").mkdir(parents=True)
    for folder in (tmp_path / "domain", tmp_path / "domain" / "games", game, game / "versions" / "2026.11"):
        (folder / "__init__.py").write_text("")
    monkeypatch.setattr(me, "ROOT", tmp_path)
    assert me.owner(game / "versions" / "2026.11" / "game.py") == game
    assert any(fnmatch.fnmatch("versions/2026.11/game.py", pattern) for pattern in patterns)
    assert not any(fnmatch.fnmatch("notes.md", pattern) for pattern in patterns)
