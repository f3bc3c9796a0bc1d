"""Board pictures: dispatch a game's view to service/boards/<package>.py's SVG renderer."""
from __future__ import annotations

import importlib
import json
import logging

from markupsafe import Markup, escape

log = logging.getLogger("turnstream.boards")


def module_name(game_id: str) -> str:
    """The renderer module of a game id (`merchant-of-venus` -> service.boards.merchant_of_venus)."""
    return f"{__name__}.{game_id.replace('-', '_')}"


def renderer(game_id: str):
    """The game's `render_board(view, viewer)` function, or None when its module is absent."""
    name = module_name(game_id)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None
    return getattr(module, "render_board", None)


def json_board(view) -> Markup:
    """The readable fallback: the view as escaped, indented JSON."""
    text = json.dumps(view, indent=2, sort_keys=True, ensure_ascii=False)
    return Markup('<pre class="board-json">') + escape(text) + Markup("</pre>")


def has_picture(game_id: str) -> bool:
    """True when the game's board is drawn as a picture (its renderer module exists)."""
    return renderer(game_id) is not None


def with_names(svg: str, names: dict | None) -> str:
    """Show display names instead of user ids in a drawn board (ids are unique random tokens)."""
    for user_id, name in sorted((names or {}).items(), key=lambda kv: -len(kv[0])):
        if user_id and name and user_id != name:
            svg = svg.replace(str(escape(user_id)), str(escape(name)))
    return svg


def render_board(game_id: str, view, viewer, names: dict | None = None) -> Markup:
    """The board of `view` as markup-safe SVG (the escaped JSON view when no renderer exists)."""
    draw = renderer(game_id)
    if draw is None:
        return json_board(view)
    try:
        return Markup(with_names(draw(view, viewer), names))
    except Exception:  # a drawing bug must not hide the match: show the view as text instead
        log.exception("the %s board renderer failed", game_id)
        return json_board(view)
