"""Queries over the read models: the match list and the inbox."""
from __future__ import annotations

import heapq
import itertools

from domain.engine.json_codec import loads
from domain.engine.timestamps import from_epoch

from .summary import waits


LISTED = ("invited", "active", "open", "finished")  # a list without a status leaves cancelled matches out
SCAN_LIMIT = 5000  # index entries one list may look at when its filters leave most of them out


def _batches(items, size: int):
    """Lists of consecutive items: `size` first (a list whose index matches its filters is read at once),
    then twice as many each time, at most 500 (one whose filters leave most out is read in few round trips)."""
    while batch := list(itertools.islice(items, size)):
        yield batch
        size = min(size * 2, 500)


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

    def still_waiting(self, match_id: str, player: str, since: str) -> bool:
        """True when the match's row still shows `player` waiting since `since` (the same turn)."""
        rows = self.rows([match_id])
        return bool(rows) and rows[0].get("waiting", {}).get(player) == since

    def list_matches(self, status=None, game=None, player=None, limit: int = 50) -> list:
        """Matches, newest activity first, filtered by status, game and player: the narrowest index read
        newest first, a chunk at a time, until `limit` rows match (at most SCAN_LIMIT looked at)."""
        if player:
            sources = [self.keys.player_index(player)]
        else:
            statuses = [status] if status else LISTED
            sources = [self.keys.status_game_index(s, game) if game else self.keys.status_index(s) for s in statuses]
        out = []
        chunk = max(limit, 50)
        candidates = heapq.merge(*(self._newest_first(key, chunk) for key in sources), key=lambda e: -e[1])
        for batch in _batches(itertools.islice(candidates, SCAN_LIMIT), limit):
            for row in self.rows([mid for mid, _score in batch]):
                if (status and row["status"] != status) or (game and row["game"] != game):
                    continue
                if (player and player not in row["players"]) or (not status and row["status"] not in LISTED):
                    continue
                row.pop("waiting", None)
                out.append(row)
                if len(out) == limit:
                    return out
        return out

    def _newest_first(self, key: str, chunk: int):
        """(match id, score) of one index, highest score first, read `chunk` entries at a time."""
        start = 0
        while True:
            entries = self.r.zrevrange(key, start, start + chunk - 1, withscores=True)
            yield from entries
            if len(entries) < chunk:
                return
            start += chunk

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
