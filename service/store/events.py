"""The Redis event store: one Lua append script, reads by version with XRANGE; a finished match archived into one
compact record (service/store/archive_codec.py) is read from it, the same events byte for byte."""
from __future__ import annotations

from pathlib import Path

from redis.exceptions import NoScriptError

from domain.engine.json_codec import compact_json, loads

from service.store.archive_codec import Decoded, decode
from service.store.connections import direct_calls
from service.store.keys import Keys
from service.store.results import ARCHIVE_CACHE_BYTES, Append, AppendResult, ArchiveCache, ReadResult
from service.metrics import count_round_trip

APPEND_LUA = (Path(__file__).with_name("append.lua")).read_text()
ARCHIVE_LUA = (Path(__file__).with_name("archive.lua")).read_text()
RAW = {"NEVER_DECODE": []}  # an archive record is bytes: read it past the client's UTF-8 decoding
APPEND_KEYS_KEPT = 4096  # matches whose append KEYS a store keeps made (a crc32 and five formats each)


def _after_proof(entries: list, after: int) -> list | None:
    """The entries after version `after` of an XRANGE started AT `after` (so that a stream which still holds
    the event at `after` proves it exists: an archived match's stream is gone); None when the stream is missing."""
    if after > 0:
        if entries and entries[0][0] == f"0-{after}":
            return entries[1:]
        return entries or None
    return entries or None


def _range_start(after: int) -> str:
    """Where the XRANGE of the events after `after` starts: at `after` itself (see _after_proof)."""
    return f"0-{after}" if after > 0 else "0-1"


class EventStore:
    """Append-only event streams of matches, partitioned by hash tag."""

    def __init__(self, redis_client, partitions: int = 64, archive_cache_bytes: int = ARCHIVE_CACHE_BYTES):
        self.r = redis_client
        self.keys = Keys(partitions)
        self._append = redis_client.register_script(APPEND_LUA)
        self._call = direct_calls(redis_client) or redis_client.execute_command  # the append's own connections
        self._append_keys: dict = {}
        self._switch = redis_client.register_script(ARCHIVE_LUA)
        self.archives = ArchiveCache(archive_cache_bytes)

    def append(self, batch: Append) -> AppendResult:
        """Append a batch's events if the match is at its expected version and its command id is new; all or
        nothing."""
        match_id, command_id, answer = batch.match_id, batch.command_id, batch.answer
        stored = compact_json(answer) if (command_id and answer is not None) else ""  # kept only for a command id
        args = [batch.expected, command_id, stored, batch.head_before, batch.head_after, batch.status, match_id,
                batch.game_id, batch.secret]
        args += [e if isinstance(e, str) else compact_json(e) for e in batch.envelopes]
        keys = self._append_keys.get(match_id)
        if keys is None:
            if len(self._append_keys) >= APPEND_KEYS_KEPT:
                self._append_keys.clear()
            keys = self._append_keys[match_id] = self.keys.match_keys(match_id)
        count_round_trip()
        try:  # EVALSHA straight on a connection: the Script wrapper and redis-py's pool cost more than the call
            reply = self._call("EVALSHA", self._append.sha, len(keys), *keys, *args)
        except NoScriptError:
            reply = self._append(keys=keys, args=args)  # loads the script, then runs it
        kind, value = reply[0], reply[1]
        if kind == "ok":
            return AppendResult("ok", int(value))
        if kind == "archived":
            self.archives.note(match_id)
            return AppendResult("archived", int(value))
        if kind == "dup":
            return AppendResult("dup", answer=loads(value))
        return AppendResult("conflict", int(value), envelopes=[loads(e) for e in reply[2:]])

    def read(self, match_id: str, after: int = 0, command_id: str | None = None,
             with_secret: bool = False) -> ReadResult:
        """One round trip: the events after version `after`, a command id's stored answer, the secret. The XRANGE
        starts at `after` itself: a stream holding that event is not archived. A missing stream costs a second
        round trip (the archive record, decoded once per process; an archived match then costs none)."""
        count_round_trip()
        decoded = self.archives.get(match_id)
        if decoded is not None:
            return _archived_read(decoded, after, with_secret)
        stream_range = (self.keys.stream(match_id), _range_start(after), "+")
        if not command_id and not with_secret:  # a read of a cached match: one command, no pipeline to build
            replies = [self.r.xrange(*stream_range)]
        else:
            pipe = self.r.pipeline(transaction=False)
            pipe.xrange(*stream_range)
            if command_id:
                pipe.hget(self.keys.cmds(match_id), command_id)
            if with_secret:
                pipe.get(self.keys.secret(match_id))
            replies = pipe.execute()
        entries = _after_proof(replies[0], after)
        if entries is None:
            decoded = self._archived(match_id)
            if decoded is not None:
                return _archived_read(decoded, after, with_secret)
            entries = []
        answer = loads(replies[1]) if command_id and replies[1] else None
        secret = replies[-1] if with_secret else None
        envelopes = [loads(fields["e"]) for _id, fields in entries]
        return ReadResult(envelopes, answer, secret, exists=bool(envelopes) or after > 0)

    def read_many(self, positions: dict) -> dict:
        """{match id: the envelopes after its version} for {match id: version}, in one pipelined round trip (an
        archived match's from its record)."""
        count_round_trip()
        found = {}
        pipe = self.r.pipeline(transaction=False)
        streams = []
        for match_id, after in positions.items():
            decoded = self.archives.get(match_id)
            if decoded is not None:
                found[match_id] = decoded.envelopes(after)
            else:
                streams.append((match_id, after))
                pipe.xrange(self.keys.stream(match_id), _range_start(after), "+")
        for (match_id, after), entries in zip(streams, pipe.execute() if streams else []):
            entries = _after_proof(entries, after)
            if entries is None:
                decoded = self._archived(match_id)
                found[match_id] = decoded.envelopes(after) if decoded is not None else []
            else:
                found[match_id] = [loads(fields["e"]) for _id, fields in entries]
        return {match_id: found[match_id] for match_id in positions}

    def read_range(self, match_id: str, start: int, end: int | None = None) -> list:
        """The envelopes with start <= version <= end (end None = to the head)."""
        decoded = self.archives.get(match_id)
        if decoded is None:
            entries = self.r.xrange(self.keys.stream(match_id), f"0-{start}", f"0-{end}" if end else "+")
            if entries:
                return [loads(fields["e"]) for _id, fields in entries]
            decoded = self._archived(match_id)
            if decoded is None:
                return []
        return decoded.envelopes(max(start, 1) - 1, end or None)

    def version(self, match_id: str) -> int:
        """The match's current version (0 if it does not exist)."""
        return int(self.r.hget(self.keys.meta(match_id), "version") or 0)

    def secret(self, match_id: str) -> str | None:
        """The match's secret seed (hex)."""
        secret = self.r.get(self.keys.secret(match_id))
        if secret is None:
            decoded = self.archives.get(match_id) or self._archived(match_id)
            return decoded.seed if decoded is not None else None
        return secret

    def meta(self, match_id: str) -> dict:
        """The match's meta: version, head, status and game (empty when it does not exist)."""
        return self.r.hgetall(self.keys.meta(match_id))

    def log(self, p: int) -> list:
        """Partition p's change log: [(entry id, {"m": match id, "v": version, "n": events})], oldest first."""
        return self.r.xrange(self.keys.log(p))

    # -- archives ---------------------------------------------------------------------------------------------
    def _archived(self, match_id: str) -> Decoded | None:
        """The decoded archive record of a match whose stream is missing (kept for this process), or None."""
        record = self.r.execute_command("GET", self.keys.archive(match_id), **RAW)
        return self.archives.put(decode(record)) if record is not None else None

    def archived_bodies(self, match_id: str, upto: int) -> tuple[int, list, set] | None:
        """(the last version, the envelopes of versions 1..upto, the types of the later events) of an archived
        match, or None when it has no record: a replay's read, from the record decoded once and kept for this
        process (each read decoding it again would cost every replay the whole record)."""
        decoded = self.archives.get(match_id) or self._archived(match_id)
        return decoded.bodies(upto) if decoded is not None else None

    def archived(self, match_id: str) -> bool:
        """True when the match is archived (known to this process, or said by its meta)."""
        if self.archives.knows(match_id):
            return True
        if self.r.hget(self.keys.meta(match_id), "archived"):
            self.archives.note(match_id)
            return True
        return False

    def known_archived(self, match_id: str) -> bool:
        """True when this process has seen the match archived (no Redis call)."""
        return self.archives.knows(match_id)

    def read_matches(self, match_ids: list) -> dict:
        """{match id: (envelopes, meta, secret)} in one pipelined round trip (an archived match's events and
        secret from its record); a match that does not exist has ([], {}, None)."""
        pipe = self.r.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.xrange(self.keys.stream(match_id))
            pipe.hgetall(self.keys.meta(match_id))
            pipe.get(self.keys.secret(match_id))
        replies = pipe.execute()
        out = {}
        for i, match_id in enumerate(match_ids):
            entries, meta, secret = replies[3 * i:3 * i + 3]
            envelopes = [loads(fields["e"]) for _id, fields in entries]
            if not entries and meta:
                decoded = self.archives.get(match_id) or self._archived(match_id)
                if decoded is not None:
                    envelopes, secret = decoded.envelopes(), decoded.seed
            out[match_id] = (envelopes, meta, secret)
        return out

    def archive_source(self, match_id: str) -> tuple[list, dict, str | None]:
        """What an archive record is made from, in one round trip: the stored event texts, the meta, the secret."""
        pipe = self.r.pipeline(transaction=False)
        pipe.xrange(self.keys.stream(match_id))
        pipe.hgetall(self.keys.meta(match_id))
        pipe.get(self.keys.secret(match_id))
        entries, meta, secret = pipe.execute()
        return [fields["e"] for _id, fields in entries], meta, secret

    def archive_write(self, match_id: str, record: bytes) -> None:
        """Write a match's archive record (its stream stays until `archive_switch`)."""
        self.r.set(self.keys.archive(match_id), record)

    def archive_read_back(self, match_id: str) -> bytes | None:
        """The archive record as stored (to check it before the switch)."""
        return self.r.execute_command("GET", self.keys.archive(match_id), **RAW)

    def archive_switch(self, match_id: str, version: int, head: str, record: bytes) -> tuple[str, int]:
        """Atomically, when the match is still at (version, head) and its stored record is `record`: drop its
        stream, command table, secret and replay snapshots and mark its meta archived (archive.lua). Answers
        ("ok" | "already" | "moved" | "mismatch", the current version when it moved)."""
        keys = [self.keys.stream(match_id), self.keys.meta(match_id), self.keys.cmds(match_id),
                self.keys.secret(match_id), self.keys.snapshot(match_id), self.keys.archive(match_id)]
        reply = self._switch(keys=keys, args=[str(version), head, record])
        status = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
        if status in ("ok", "already"):
            self.archives.note(match_id)
        return status, int(reply[1]) if len(reply) > 1 else version


def _archived_read(decoded: Decoded, after: int, with_secret: bool) -> ReadResult:
    """A read answered by an archive record (no stored command answers: they are not archived)."""
    return ReadResult(decoded.envelopes(after), None, decoded.seed if with_secret else None, exists=True)
