"""Names of the read models a rebuild builds beside the live ones, in the same hash slot as each live key, so
that a switch can RENAME every shadow key over its live name (one script on one Redis, one per slot on a cluster)."""
from __future__ import annotations

from service.store.keys import Keys


MARK = "rebuild"  # no live key has it: shadow keys are found by SCAN and never mistaken for live ones
GLOBAL_PATTERN = "{ts:*}:" + MARK  # the shadows of unslotted keys (indexes, inboxes)


def shadow(live: str) -> str:
    """The shadow of a live read-model key: `ts:{tag}:rest` -> `ts:{tag}:rebuild:rest` (the tag keeps the slot),
    an untagged key K -> `{K}:rebuild` (hashed on K itself: the same slot as K)."""
    if live.startswith(Keys.SLOTTED_PREFIX):
        head, _, rest = live.partition("}:")
        return f"{head}}}:{MARK}:{rest}"
    return "{" + live + "}:" + MARK


def live_of(shadow_key: str) -> str:
    """The live key a shadow key replaces at the switch (shadow's inverse)."""
    if shadow_key.startswith("{"):
        return shadow_key[1:-len("}:" + MARK)]
    head, _, rest = shadow_key.partition("}:" + MARK + ":")
    return f"{head}}}:{rest}"


def partition_pattern(p: int) -> str:
    """SCAN pattern of partition p's shadow keys (rows, checkpoint, news)."""
    return shadow(Keys.partition_pattern(p))


class ShadowKeys:
    """A store's key names with every read model (rows, checkpoints, indexes, inboxes, news) in its shadow; the
    other names (streams, logs, leases) are the store's own."""

    _SHADOWED = ("checkpoint", "changes", "summary", "status_index", "status_game_index", "player_index", "inbox")

    def __init__(self, keys):
        self.live = keys

    def __getattr__(self, name: str):
        attr = getattr(self.live, name)
        if name in self._SHADOWED:
            return lambda *args: shadow(attr(*args))
        return attr
