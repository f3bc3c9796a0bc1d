"""The partition logs and read-model change feeds as one feed to follow (the live streams' reader): the last
positions, the new entries after them, the entries since a time; on Redis streams, by XREAD (a plain Redis) or
by a polled pipeline (a cluster cannot XREAD keys of several slots at once)."""
from __future__ import annotations

import time
from typing import Protocol

CLUSTER_POLL_SECONDS = 0.05  # a cluster's feed is polled this often


class LogFeed(Protocol):
    """What the live hub reads: entries are (id, fields); an id is `<ms>-<seq>`, in append order per key."""

    def latest(self) -> dict:
        """{followed key: the id of its last entry ("0-0": none)} now."""

    def read(self, positions: dict) -> list:
        """[(key, entries)] appended after `positions`, waiting a little for some when there are none."""

    def is_changes(self, key: str) -> bool:
        """True for a read-model change feed, False for a partition log."""

    def since(self, since_ms: int, limit: int) -> list | None:
        """Every partition log's entries from `since_ms` on (unsorted); None when one holds `limit` or more."""

    def played_by(self, user_id: str, match_ids: list) -> list:
        """Whether the user's match index lists each match, in order."""


class RedisLogFeed:
    """The feed on Redis streams (the live streams' own connections)."""

    def __init__(self, redis_client, keys, cluster: bool = False, block_ms: int = 5000, batch: int = 500):
        self.r = redis_client
        self.keys = keys
        self.cluster = cluster
        self.block_ms, self.batch = block_ms, batch

    def _followed(self) -> list:
        """The partition logs, then the change feeds."""
        parts = range(self.keys.partitions)
        return [self.keys.log(p) for p in parts] + [self.keys.changes(p) for p in parts]

    def latest(self) -> dict:
        """One pipelined XREVRANGE per key."""
        keys = self._followed()
        pipe = self.r.pipeline(transaction=False)
        for key in keys:
            pipe.xrevrange(key, "+", "-", count=1)
        return {key: (last[0][0] if last else "0-0") for key, last in zip(keys, pipe.execute())}

    def read(self, positions: dict) -> list:
        """One XREAD BLOCK on a plain Redis, a polled pipeline on a cluster."""
        if not self.cluster:
            return self.r.xread(dict(positions), count=self.batch, block=self.block_ms) or []
        pipe = self.r.pipeline()
        keys = list(positions)
        for key in keys:
            pipe.xread({key: positions[key]}, count=self.batch)
        found = [reply[0] for reply in pipe.execute() if reply]
        if not found:
            time.sleep(CLUSTER_POLL_SECONDS)
        return found

    def is_changes(self, key: str) -> bool:
        """Keys.changes ends so."""
        return key.endswith(":rm:changes")

    def since(self, since_ms: int, limit: int) -> list | None:
        """One pipelined XRANGE per partition log."""
        pipe = self.r.pipeline(transaction=False)
        for p in range(self.keys.partitions):
            pipe.xrange(self.keys.log(p), f"{max(since_ms, 0)}-0", "+", count=limit)
        entries = []
        for found in pipe.execute():
            if len(found) >= limit:
                return None
            entries.extend(found)
        return entries

    def played_by(self, user_id: str, match_ids: list) -> list:
        """One pipelined ZSCORE per match."""
        pipe = self.r.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.zscore(self.keys.player_index(user_id), match_id)
        return [score is not None for score in pipe.execute()]
