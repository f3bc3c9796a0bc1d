"""Ratings for people: a game's leaderboard and a player's record, read from the ratings projection."""
from __future__ import annotations

from domain.engine.bot_seats import is_bot

from service.web.errors import ApiError
from service.web.bot_names import said_names


PAGE_SIZE = 50  # players per leaderboard page


def leaderboard_rows(w, game_id: str, offset: int = 0, limit: int = 100) -> dict:
    """A page of the game's ratings, best first, each with the player's display name and place:
    {"ratings", "total", "offset", "limit"}."""
    if game_id not in w.games:
        raise ApiError(404, "not_found", f"no game {game_id!r}")
    rows, total = w.ratings.leaderboard(game_id, offset, limit)
    names = said_names(w.users.names([r["user"] for r in rows]))
    return {"ratings": [{**r, "name": names[r["user"]], "place": offset + i + 1} for i, r in enumerate(rows)],
            "total": total, "offset": offset, "limit": limit}


def leaderboard_page(w, game_id: str, page_arg: str | None) -> dict:
    """One page of the leaderboard page (1-based `?page=`; anything else reads as the first page), with
    the numbers of the pages before and after it (None at either end)."""
    digits = page_arg is not None and page_arg.isascii() and page_arg.isdigit()  # not "²" nor "٢"
    page = max(1, int(page_arg[:9])) if digits else 1
    data = leaderboard_rows(w, game_id, (page - 1) * PAGE_SIZE, PAGE_SIZE)
    last = max(1, -(-data["total"] // PAGE_SIZE))
    if page > last:  # past the end: the last page
        page = last
        data = leaderboard_rows(w, game_id, (page - 1) * PAGE_SIZE, PAGE_SIZE)
    return {**data, "page": page, "pages": last, "previous": page - 1 if page > 1 else None,
            "next": page + 1 if page < last else None}


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
    names = said_names(w.users.names([p for row in rows for p in row["players"]]))
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
