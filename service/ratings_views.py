"""Ratings for people: a game's leaderboard and a player's record, read from the ratings projection."""
from __future__ import annotations

from domain.engine.bot_seats import is_bot

from .errors import ApiError


def leaderboard_rows(w, game_id: str) -> list:
    """The game's ratings, best first, each with the player's display name."""
    if game_id not in w.games:
        raise ApiError(404, "not_found", f"no game {game_id!r}")
    rows = w.ratings.leaderboard(game_id)
    names = w.users.names([r["user"] for r in rows])
    return [{**r, "name": names[r["user"]]} for r in rows]


def player_record(w, user_id: str) -> dict:
    """A user's public record: name, rating per game and finished matches with their rating changes."""
    user = w.users.get(user_id)
    if user is None:
        raise ApiError(404, "not_found", f"no user {user_id!r}")
    rows = w.read_models.list_matches("finished", None, user_id, 200)
    by_game: dict = {}
    for row in rows:
        by_game.setdefault(row["game"], []).append(row["id"])
    changes = {}
    for game, ids in by_game.items():
        changes.update(w.ratings.changes(game, ids))
    names = w.users.names([p for row in rows for p in row["players"]])
    matches = []
    for row in rows:
        mine = changes.get(row["id"], {}).get(user_id)
        result = row.get("result") or {}
        matches.append({"id": row["id"], "game": row["game"], "finished_at": row["updated_at"],
                        "players": [{"id": p, "name": names[p]} for p in row["players"]],
                        "winners": result.get("winners") or [], "won": user_id in (result.get("winners") or []),
                        "score": (result.get("scores") or {}).get(user_id),
                        "rank": mine["rank"] if mine else None,
                        "rating_before": mine["before"] if mine else None,
                        "rating_after": mine["after"] if mine else None,
                        "rating_change": round(mine["after"] - mine["before"], 2) if mine else None})
    return {"id": user["id"], "name": user["name"], "bot": is_bot(user_id),
            "ratings": w.ratings.of_user(user_id), "matches": matches}
