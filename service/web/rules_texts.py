"""The games' rules texts, written for a player: data in each game's own package (text/rules.<lang>.json in its
declared `table.folder`, frozen with its rules version), read by the rules page, the match page's explanations and
the game titles of the page's language."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from service.web.http import wiring


def texts_of(game, lang: str) -> dict | None:
    """A game's rules texts in `lang` (English when that language has none), or None for a game without."""
    table = getattr(game, "table", None)
    return _texts(Path(table.folder) / "text", lang) if table is not None else None


@cache
def _texts(folder: Path, lang: str) -> dict | None:
    """The rules texts in a game's text folder, in `lang` or else English (None: there are none)."""
    for code in (lang, "en"):
        path = folder / f"rules.{code}.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    return None


def rules_text(game_id: str, lang: str) -> dict | None:
    """The rules texts in `lang` of this app's game `game_id` (None for an unknown game or one without)."""
    return texts_of(wiring().games.get(game_id), lang)

