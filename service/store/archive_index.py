"""The reads of the archive sweep (service/app/archive.py): the finished matches by last update, from the read
model's index, and which of them are not archived yet, from their meta (in memory: the store's own answer)."""
from __future__ import annotations

from datetime import datetime


def finished_candidates(redis_client, keys, cutoff: datetime, start: float = float("-inf"), limit: int = 500,
                        offset: int = 0) -> list:
    """[(match id, last update epoch seconds)] of finished matches last updated in [start, cutoff], oldest first
    (the read model's index of finished matches)."""
    low = "-inf" if start == float("-inf") else repr(start)
    return redis_client.zrangebyscore(keys.status_index("finished"), low, repr(cutoff.timestamp()),
                                      start=offset, num=limit, withscores=True)


def not_archived(store, match_ids: list) -> list:
    """The ids of these matches whose meta does not say archived (one pipelined read)."""
    if not match_ids:
        return []
    if not hasattr(store, "r"):
        return [m for m in match_ids if not store.archived(m)]
    pipe = store.r.pipeline(transaction=False)
    for match_id in match_ids:
        pipe.hget(store.keys.meta(match_id), "archived")
    return [m for m, flag in zip(match_ids, pipe.execute()) if not flag]
