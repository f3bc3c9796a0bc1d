"""Who a player played lately: invitation name suggestions list recent opponents first."""
from __future__ import annotations

from domain.engine.bot_seats import is_bot

from service.app.users import short_id

RECENT_MATCHES = 50  # the player's latest matches looked at


def recent_opponents(read_models, user_id: str) -> list:
    """The people the user shared a match with, the most recent first (bots and the user left out)."""
    seen: dict = {}
    for row in read_models.list_matches(player=user_id, limit=RECENT_MATCHES):
        for player in row.get("players", []):
            if player != user_id and not is_bot(player) and player not in seen:
                seen[player] = True
    return list(seen)


def suggestions(users, read_models, user_id: str | None, prefix: str, limit: int = 10) -> list:
    """Players whose name starts with `prefix`: the caller's recent opponents first (marked `"recent": true`),
    then the others in name order; [{"id", "name", "short_id", "recent"}]."""
    key = prefix.casefold()
    recent = []
    if user_id and key:
        opponents = recent_opponents(read_models, user_id)
        names = users.names(opponents)
        recent = [{"id": p, "name": names[p], "short_id": short_id(p), "recent": True}
                  for p in opponents if names[p] != p and names[p].casefold().startswith(key)][:limit]
    known = {u["id"] for u in recent}
    others = [{**u, "recent": False} for u in users.search(prefix, limit + len(known))
              if u["id"] not in known and u["id"] != user_id]
    return (recent + others)[:limit]
