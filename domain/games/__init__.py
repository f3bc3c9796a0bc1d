"""The registry of game packages, found rather than listed: every package folder here (`domain/games/<pkg>/`, its
game id the folder name with '-' for '_') that exports a `GAME`; adding a game edits no file outside its folder."""
from __future__ import annotations

import importlib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _packages() -> dict:
    """{game id: module name} of every game package folder, by folder name."""
    return {folder.name.replace("_", "-"): f"{__name__}.{folder.name}"
            for folder in sorted(HERE.iterdir())
            if (folder / "__init__.py").is_file() and not folder.name.startswith(("_", "."))}


GAME_PACKAGES = _packages()


def load_games() -> dict:
    """Import every game package and return {game id: GAME}, in folder order."""
    games = {}
    for game_id, package in GAME_PACKAGES.items():
        module = importlib.import_module(package)
        if module.GAME.id != game_id:
            raise ValueError(f"{package} declares id {module.GAME.id!r}, expected {game_id!r} (its folder's name)")
        games[game_id] = module.GAME
    return games
