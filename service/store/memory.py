"""The event store's in-memory twin: EventStore's contract (append all-or-nothing, reads by version, command ids,
the partition change log, archived matches read from their record) in one process, for unit tests and tools that
need no Redis."""
from __future__ import annotations

import threading

from domain.engine.json_codec import compact_json, loads
from service.store.archive_codec import Decoded, decode
from service.store.results import Append, AppendResult, ArchiveCache, ReadResult
from service.store.keys import Keys


class InMemoryEventStore:
    """Append-only event streams of matches in dicts; every value is kept as its JSON text, as Redis keeps it."""

    def __init__(self, partitions: int = 64):
        self.keys = Keys(partitions)
        self._streams: dict[str, list[str]] = {}
        self._meta: dict[str, dict] = {}
        self._cmds: dict[str, dict[str, str]] = {}
        self._secrets: dict[str, str] = {}
        self._logs: dict[int, list[tuple[str, dict]]] = {}
        self._archives: dict[str, bytes] = {}
        self._entries = 0  # change-log entries appended, for their ids
        self._lock = threading.Lock()
        self.archives = ArchiveCache()

    def append(self, batch: Append) -> AppendResult:
        """Append a batch's events if the match is at its expected version and its command id is new; all or
        nothing."""
        match_id, command_id = batch.match_id, batch.command_id
        with self._lock:
            refusal = self._check(match_id, batch.expected, batch.head_before, command_id)
            if refusal is not None:
                return refusal
            stream = self._streams.setdefault(match_id, [])
            stream.extend(e if isinstance(e, str) else compact_json(e) for e in batch.envelopes)
            self._log(match_id, len(stream), len(batch.envelopes))
            self._meta[match_id] = {"version": str(len(stream)), "head": batch.head_after, "status": batch.status,
                                    "game": batch.game_id}
            if batch.secret:
                self._secrets[match_id] = batch.secret
            if command_id:
                answer = batch.answer
                self._cmds.setdefault(match_id, {})[command_id] = compact_json(answer) if answer is not None else ""
            return AppendResult("ok", len(stream))

    def _check(self, match_id: str, expected: int, head_before: str, command_id: str) -> AppendResult | None:
        """The refusal an append gets (a known command id, a stale version, another head), or None."""
        if command_id and command_id in self._cmds.get(match_id, {}):
            stored = self._cmds[match_id][command_id]
            return AppendResult("dup", answer=loads(stored) if stored else None)
        meta = self._meta.get(match_id, {})
        current = int(meta.get("version", 0))
        if meta.get("archived"):
            self.archives.note(match_id)
            return AppendResult("archived", current)
        if current != expected:
            after = [loads(e) for e in self._streams.get(match_id, [])[expected:]] if current > expected else []
            return AppendResult("conflict", current, envelopes=after)
        if current > 0 and meta.get("head") != head_before:
            return AppendResult("conflict", current, envelopes=[])
        return None

    def _log(self, match_id: str, version: int, count: int) -> None:
        """One change-log entry for the append, in the match's partition."""
        self._entries += 1
        entry = (f"{self._entries}-0", {"m": match_id, "v": str(version), "n": str(count)})
        self._logs.setdefault(self.keys.partition(match_id), []).append(entry)

    def read(self, match_id: str, after: int = 0, command_id: str | None = None,
             with_secret: bool = False) -> ReadResult:
        """The events after version `after`, a command id's stored answer, the secret."""
        decoded = self._archived(match_id)
        if decoded is not None:
            return ReadResult(decoded.envelopes(after), None, decoded.seed if with_secret else None, exists=True)
        with self._lock:
            envelopes = [loads(e) for e in self._streams.get(match_id, [])[after:]]
            stored = self._cmds.get(match_id, {}).get(command_id) if command_id else None
            secret = self._secrets.get(match_id) if with_secret else None
        return ReadResult(envelopes, loads(stored) if stored else None, secret, exists=bool(envelopes) or after > 0)

    def read_many(self, positions: dict) -> dict:
        """{match id: the envelopes after its version} for {match id: version}."""
        return {match_id: self.read(match_id, after).envelopes for match_id, after in positions.items()}

    def read_range(self, match_id: str, start: int, end: int | None = None) -> list:
        """The envelopes with start <= version <= end (end None = to the head)."""
        decoded = self._archived(match_id)
        if decoded is not None:
            return decoded.envelopes(max(start, 1) - 1, end)
        with self._lock:
            stream = self._streams.get(match_id, [])
            return [loads(e) for e in stream[max(start, 1) - 1:end]]

    def version(self, match_id: str) -> int:
        """The match's current version (0 if it does not exist)."""
        return int(self._meta.get(match_id, {}).get("version", 0))

    def secret(self, match_id: str) -> str | None:
        """The match's secret seed (hex)."""
        decoded = self._archived(match_id)
        return decoded.seed if decoded is not None else self._secrets.get(match_id)

    def meta(self, match_id: str) -> dict:
        """The match's meta: version, head, status and game (empty when it does not exist)."""
        return dict(self._meta.get(match_id, {}))

    def log(self, p: int) -> list:
        """Partition p's change log: [(entry id, {"m": match id, "v": version, "n": events})], oldest first."""
        with self._lock:
            return [(entry_id, dict(fields)) for entry_id, fields in self._logs.get(p, [])]

    # -- archives (EventStore's contract; service/store/archive.lua is the switch) ----------------------------
    def _archived(self, match_id: str) -> Decoded | None:
        """The decoded record of an archived match (whose stream is gone), or None."""
        decoded = self.archives.get(match_id)
        if decoded is not None or match_id in self._streams:
            return decoded
        record = self._archives.get(match_id)
        return self.archives.put(decode(record)) if record is not None else None

    def archived_bodies(self, match_id: str, upto: int) -> tuple[int, list, set] | None:
        """EventStore.archived_bodies."""
        decoded = self._archived(match_id)
        return decoded.bodies(upto) if decoded is not None else None

    def archived(self, match_id: str) -> bool:
        """True when the match is archived."""
        return bool(self._meta.get(match_id, {}).get("archived"))

    def known_archived(self, match_id: str) -> bool:
        """True when this store has seen the match archived."""
        return self.archives.knows(match_id)

    def read_matches(self, match_ids: list) -> dict:
        """{match id: (envelopes, meta, secret)}; a match that does not exist has ([], {}, None)."""
        return {m: (self.read_range(m, 1), self.meta(m), self.secret(m)) for m in match_ids}

    def archive_source(self, match_id: str) -> tuple[list, dict, str | None]:
        """The stored event texts, the meta and the secret of a match."""
        with self._lock:
            return list(self._streams.get(match_id, [])), self.meta(match_id), self._secrets.get(match_id)

    def archive_write(self, match_id: str, record: bytes) -> None:
        """Write a match's archive record (its stream stays until `archive_switch`)."""
        self._archives[match_id] = bytes(record)

    def archive_read_back(self, match_id: str) -> bytes | None:
        """The archive record as stored."""
        return self._archives.get(match_id)

    def archive_switch(self, match_id: str, version: int, head: str, record: bytes) -> tuple[str, int]:
        """As EventStore.archive_switch: drop the stream, command table and secret once the record is in place."""
        with self._lock:
            meta = self._meta.get(match_id, {})
            if meta.get("archived"):
                return "already", version
            if meta.get("version") != str(version) or meta.get("head") != head:
                self._archives.pop(match_id, None)
                return "moved", int(meta.get("version") or 0)
            if self._archives.get(match_id) != record or len(self._streams.get(match_id, [])) != version:
                return "mismatch", version
            self._streams.pop(match_id, None)
            self._cmds.pop(match_id, None)
            self._secrets.pop(match_id, None)
            meta["archived"] = "1"
            self.archives.note(match_id)
            return "ok", version
