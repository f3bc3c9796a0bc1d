"""The registry of game modules: game id -> its `GAME` object."""
from __future__ import annotations

import importlib

GAME_PACKAGES = {
    "uchronia": "domain.games.uchronia",
    "merchant-of-venus": "domain.games.merchant_of_venus",
    "ti4-exploration": "domain.games.ti4_exploration",
    "origins": "domain.games.origins",
}


def load_games() -> dict:
    """Import every game package and return {game id: GAME}, in the registry's order."""
    games = {}
    for game_id, package in GAME_PACKAGES.items():
        module = importlib.import_module(package)
        if module.GAME.id != game_id:
            raise ValueError(f"{package} declares id {module.GAME.id!r}, expected {game_id!r}")
        games[game_id] = module.GAME
    return games
