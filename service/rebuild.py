"""Rebuild every read model from the event streams: drop them and their checkpoints, replay every partition log."""
from __future__ import annotations

from .keys import Keys

PROJECTED = ("ts:idx:*", "ts:inbox:*")  # except the user-name index (Keys.user_names): users own it


def rebuild_projections(w, say=print) -> int:
    """Drop every read model (rows, indexes, inboxes, ratings) and checkpoint, then run every partition's
    projection job in this process; return the match rows written."""
    from workers import context
    from workers.jobs import project_partition
    context.use(w)
    keys = w.store.keys
    dropped = 0
    for pattern in PROJECTED:
        for key in w.redis.scan_iter(match=pattern, count=500):
            if key != Keys.user_names():
                dropped += w.redis.delete(key)
    dropped += w.ratings.drop_all()
    for p in range(keys.partitions):
        w.redis.delete(keys.checkpoint(p))
        for key in w.redis.scan_iter(match=f"ts:{{p{p:02d}}}:rm:m:*", count=500):
            dropped += w.redis.delete(key)
    say(f"dropped {dropped} read-model keys; rebuilding {keys.partitions} partitions")
    total = 0
    for p in range(keys.partitions):
        total += project_partition(p)
        if (p + 1) % 8 == 0 or p + 1 == keys.partitions:
            say(f"  partitions {p + 1}/{keys.partitions}: {total} match rows written")
    say(f"rebuilt: {total} match rows")
    return total
