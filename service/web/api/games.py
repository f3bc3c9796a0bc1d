"""The game catalogue: ids, player counts, option and command schemas."""
from __future__ import annotations

from flask import Blueprint

from service.web import ratings_views, schemas
from service.web.http import query, wiring
from service.web.openapi import documented, schema_json

bp = Blueprint("games", __name__)


def describe_game(game) -> dict:
    """A game's public declaration."""
    return {"id": game.id, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players, "rules_version": game.rules_version,
            "rules_versions": list(game.rules_versions), "options": schema_json(game.options_schema),
            "commands": {t: schema_json(s) for t, s in game.command_schemas.items()}}


@bp.get("/api/games")
@documented("the games, their options and command schemas", store=False)
def list_games():
    """Every game this service hosts."""
    return {"games": [describe_game(g) for g in wiring().games.values()]}


@bp.get("/api/games/<game_id>/leaderboard")
@documented("a page of the game's ratings (openskill Plackett-Luce, shown as mu - 3 sigma), best first",
            query=schemas.LeaderboardQuery)
def leaderboard(game_id):
    """A page of the game's ratings (openskill Plackett-Luce, shown as mu - 3 sigma), best first."""
    q = query(schemas.LeaderboardQuery)
    return {"game": game_id, **ratings_views.leaderboard_rows(wiring(), game_id, q["offset"], q["limit"])}

