"""What every store is asked and answers (the Redis store and its in-memory twin alike): an append, append and read
results, and the decoded archive records a process keeps."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

from service.store.archive_codec import Decoded

ARCHIVE_CACHE_BYTES = 32 * 1024 * 1024  # decoded archive records a process keeps (a finished match: ~150 kB)
KNOWN_ARCHIVED = 100_000  # match ids a process remembers as archived (an archived match never changes)


class ArchiveCache:
    """The decoded archive records of this process, the least recently used dropped past `max_bytes`, and the
    ids of matches known to be archived (archived for good: nothing is ever appended to them)."""

    def __init__(self, max_bytes: int = ARCHIVE_CACHE_BYTES, known: int = KNOWN_ARCHIVED):
        self.max_bytes, self.known_max = max_bytes, known
        self._items: OrderedDict = OrderedDict()
        self._known: OrderedDict = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, match_id: str) -> Decoded | None:
        """The decoded record of an archived match, if this process holds it."""
        with self._lock:
            decoded = self._items.get(match_id)
            if decoded is not None:
                self._items.move_to_end(match_id)
            return decoded

    def put(self, decoded: Decoded) -> Decoded:
        """Keep a decoded record (of a match whose stream is gone: archived for good)."""
        with self._lock:
            self.note(decoded.match_id, locked=True)
            old = self._items.pop(decoded.match_id, None)
            self._size -= old.size if old is not None else 0
            self._items[decoded.match_id] = decoded
            self._size += decoded.size
            while self._size > self.max_bytes and len(self._items) > 1:
                _id, dropped = self._items.popitem(last=False)
                self._size -= dropped.size
        return decoded

    def note(self, match_id: str, locked: bool = False) -> None:
        """Remember that a match is archived."""
        if not locked:
            with self._lock:
                return self.note(match_id, locked=True)
        self._known[match_id] = True
        self._known.move_to_end(match_id)
        while len(self._known) > self.known_max:
            self._known.popitem(last=False)

    def knows(self, match_id: str) -> bool:
        """True when this process has seen the match archived."""
        return match_id in self._known


class Append(NamedTuple):  # immutable at a third of a frozen dataclass's cost: one is built per command
    """One all-or-nothing append: a match's sealed events (dicts, or their JSON already encoded), written only if the
    match is at `expected` with head `head_before` and `command_id` is new; then its head, status (and game, and the
    secret on creation) are the ones given, and the command id is kept with its answer."""

    match_id: str
    game_id: str
    expected: int
    envelopes: list
    head_before: str
    head_after: str
    status: str
    command_id: str = ""
    answer: dict | None = None
    secret: str = ""


@dataclass
class AppendResult:
    """The outcome of an append: ok (new version), conflict (current version) or dup (stored answer)."""

    status: str
    version: int = 0
    answer: dict | None = None
    envelopes: list | None = None  # on a stale-version conflict: the events after the expected version


@dataclass
class ReadResult:
    """Events after a version, plus the stored answer of a command id and the secret when asked."""

    envelopes: list
    answer: dict | None
    secret: str | None
    exists: bool
