"""Writes match-list rows, indexes and inboxes to Redis, idempotently and in version order."""
from __future__ import annotations

from redis.cluster import RedisCluster

from domain.engine.json_codec import compact_json, loads
from domain.engine.timestamps import epoch

from .atomic_writes import AtomicWrites
from .summary import inbox_changes, last_actions, match_row, waiting

STATUSES = ("invited", "open", "active", "finished", "cancelled")
CHANGES_MAXLEN = 10000  # the change feed only wakes live streams; they resume from the event logs


class ProjectionWriter:
    """Applies folded matches to the read models of one store."""

    def __init__(self, redis_client, keys):
        self.r = redis_client
        self.keys = keys
        self.cluster = isinstance(redis_client, RedisCluster)

    def queue_previous_reads(self, pipe, matches: list) -> None:
        """Queue on `pipe` the reads of these matches' stored rows, one GET each (a cluster's pipeline has no
        MGET), whose replies, in order, are `apply`'s `stored`."""
        for m in matches:
            pipe.get(self.keys.summary(m.id))

    def apply(self, p: int, matches: list, checkpoint: str, stored: list | None = None) -> list:
        """Write rows of `matches` (folded) plus partition p's checkpoint; return [(previous row, row)].
        `stored`: the replies of queue_previous_reads, when the caller read the rows already."""
        rows = []
        if stored is None:
            pipe = self.r.pipeline(transaction=False)
            self.queue_previous_reads(pipe, matches)
            stored = pipe.execute()
        for match, raw in zip(matches, stored):
            prev = loads(raw) if raw else None
            if prev is not None and prev["version"] >= match.version:
                continue
            at = match.envelopes[-1]["at"] if match.envelopes else None
            row = match_row(match, at)
            row["waiting"] = waiting(prev, row, at, last_actions(match.envelopes, set(match.players)))
            rows.append((prev, row))
        # per-match rows and the checkpoint share the slot: one MULTI on a cluster, one script on one Redis
        tx = self.r.pipeline(transaction=True) if self.cluster else AtomicWrites(self.r)
        for _prev, row in rows:
            tx.set(self.keys.summary(row["id"]), compact_json(row))
        tx.set(self.keys.checkpoint(p), checkpoint)
        # one Redis: the indexes, inboxes and news join the rows' script, all or nothing; a cluster keeps its
        # indexes in other slots, so they follow the MULTI, and the news follow them (a woken stream reads them)
        indexes = tx if not self.cluster else self.r.pipeline(transaction=False)
        news = tx if not self.cluster else self.r.pipeline(transaction=False)
        inboxes = [self._indexes(indexes, prev, row) for prev, row in rows]
        for (_prev, row), changed in zip(rows, inboxes):
            self._announce(news, row, changed)
        for pipe in dict.fromkeys((tx, indexes, news)):  # in this order; an empty pipeline sends nothing
            pipe.execute()
        return rows

    def _indexes(self, pipe, prev: dict | None, row: dict) -> set:
        """Queue the global index writes of one row on `pipe`: by status, by player, and the inboxes
        (idempotent); return the players whose inbox changed."""
        score = epoch(row["updated_at"]) if row["updated_at"] else 0.0
        for status in STATUSES:
            for index in (self.keys.status_index(status), self.keys.status_game_index(status, row["game"])):
                if status == row["status"]:
                    pipe.zadd(index, {row["id"]: score})
                else:
                    pipe.zrem(index, row["id"])
        for player in row["players"]:
            pipe.zadd(self.keys.player_index(player), {row["id"]: score})
        adds, removes = inbox_changes(prev, row)
        for player, since in adds.items():
            pipe.zadd(self.keys.inbox(player), {row["id"]: epoch(since)})
        for player in removes:
            pipe.zrem(self.keys.inbox(player), row["id"])
        return set(adds) | set(removes)

    def _announce(self, pipe, row: dict, inbox_changed: set) -> None:
        """Queue on `pipe` the news for the live streams that this row, and these players' inboxes, changed."""
        p = self.keys.partition(row["id"])
        pipe.xadd(self.keys.changes(p), {"m": row["id"], "v": row["version"], "status": row["status"],
                                          "players": ",".join(row["players"]),
                                          "inbox": ",".join(sorted(inbox_changed))},
                    maxlen=CHANGES_MAXLEN, approximate=True)
