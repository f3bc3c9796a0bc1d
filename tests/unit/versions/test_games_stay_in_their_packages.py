"""A game is one package: no module, template or script outside a game's own folder names a game id or imports a
game package (the bench game and the games' registry, which finds them by folder, aside). Everything that knows a
game is reached through its GAME declaration."""
from __future__ import annotations

import re
from pathlib import Path

from domain.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("domain", "projections", "service", "workers")
SUFFIXES = {".py", ".html", ".js", ".cfg", ".toml"}
EXEMPT = (ROOT / "service" / "cli" / "bench",  # the benchmarks name the games they measure
          ROOT / "domain" / "games" / "dice_race.py")  # the bench game is one module


def own_folders() -> list:
    """Every game package's folder (its frozen versions inside it)."""
    return [ROOT / "domain" / "games" / package.rpartition(".")[2] for package in GAME_PACKAGES.values()]


ENGLISH = {"origins"}  # ids that are also English words: named only when quoted or in a path


def patterns() -> list:
    """What names a game: its id or package name as a word (quoted or in a path only for an English word), or its
    package in a dotted import path."""
    found = []
    for game_id, package in GAME_PACKAGES.items():
        pkg = package.rpartition(".")[2]
        for name in {game_id, pkg}:
            word = re.escape(name)
            bare = rf"(?<![\w-]){word}(?![\w-])" if name not in ENGLISH else rf"""(["'`]){word}\1|/{word}[/.]"""
            found.append(re.compile(rf"{bare}|games\.{re.escape(pkg)}\b"))
    return found


def outside_files():
    """The source files outside every game's own folder."""
    owners = own_folders()
    for top in SOURCES:
        for path in (ROOT / top).rglob("*"):
            if (path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts
                    and not any(path.is_relative_to(folder) for folder in owners + list(EXEMPT))):
                yield path


def test_no_module_outside_a_game_names_it():
    """Each hit is a place that knows a game without going through its declaration."""
    hits = []
    compiled = patterns()
    for path in outside_files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if any(p.search(line) for p in compiled):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert hits == [], "these name a game outside its package:\n" + "\n".join(hits)


def test_the_check_would_see_a_named_game(tmp_path):
    """The patterns catch an import and a quoted id."""
    compiled = patterns()
    game_id, package = next(iter(GAME_PACKAGES.items()))
    for line in (f"from {package} import data", f'STEPS = {{"{game_id}": 1}}'):
        assert any(p.search(line) for p in compiled), line
