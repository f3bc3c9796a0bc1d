"""Queries over the read models: the match list and the inbox."""
from __future__ import annotations

from domain.engine.json_codec import loads
from domain.engine.timestamps import from_epoch

from .summary import waits


class ReadModels:
    """Reads what the projection worker wrote."""

    def __init__(self, redis_client, keys):
        self.r = redis_client
        self.keys = keys

    def rows(self, match_ids) -> list:
        """The stored rows of these matches (missing ones left out)."""
        pipe = self.r.pipeline(transaction=False)
        for mid in match_ids:
            pipe.get(self.keys.summary(mid))
        return [loads(raw) for raw in pipe.execute() if raw]

    def list_matches(self, status=None, game=None, player=None, limit: int = 50) -> list:
        """Matches, newest activity first, filtered by status, game and player."""
        if player:
            index = self.keys.player_index(player)
        elif status:
            index = self.keys.status_index(status)
        else:
            index = None
        if index:
            ids = self.r.zrevrange(index, 0, 999)
        else:
            ids = []
            for s in ("invited", "active", "open", "finished"):
                ids += self.r.zrevrange(self.keys.status_index(s), 0, 999)
        out = []
        for row in self.rows(ids):
            if (status and row["status"] != status) or (game and row["game"] != game):
                continue
            if player and player not in row["players"]:
                continue
            row.pop("waiting", None)
            out.append(row)
        out.sort(key=lambda r: r["updated_at"] or "", reverse=True)
        return out[:limit]

    def inbox(self, user_id: str) -> list:
        """Matches waiting for this user, longest-waiting first."""
        entries = self.r.zrange(self.keys.inbox(user_id), 0, 199, withscores=True)
        rows = {r["id"]: r for r in self.rows([mid for mid, _ in entries])}
        out = []
        for mid, score in entries:
            row = rows.get(mid)
            reason = waits(row).get(user_id) if row is not None else None
            if reason is None:
                continue
            since = from_epoch(score)
            out.append({"id": mid, "game": row["game"], "version": row["version"], "waiting_since": since,
                        "waiting_for": reason, "status": row["status"], "players": row["players"],
                        "created_by": row.get("created_by")})
        return out
