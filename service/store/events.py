"""The Redis event store: one Lua append script, reads by version with XRANGE."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from redis.exceptions import NoScriptError

from domain.engine.json_codec import compact_json, loads

from service.store.keys import Keys
from service.metrics import count_round_trip

APPEND_LUA = (Path(__file__).with_name("append.lua")).read_text()


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


class EventStore:
    """Append-only event streams of matches, partitioned by hash tag."""

    def __init__(self, redis_client, partitions: int = 64):
        self.r = redis_client
        self.keys = Keys(partitions)
        self._append = redis_client.register_script(APPEND_LUA)

    def append(self, match_id: str, game_id: str, expected: int, envelopes: list, head_before: str,
               head_after: str, status: str, command_id: str = "", answer: dict | None = None,
               secret: str = "") -> AppendResult:
        """Append envelopes (dicts, or their JSON already encoded) if the match is at `expected` and
        `command_id` is new; all or nothing."""
        stored = compact_json(answer) if (command_id and answer is not None) else ""  # kept only for a command id
        args = [expected, command_id or "", stored, head_before, head_after, status, match_id, game_id, secret]
        args += [e if isinstance(e, str) else compact_json(e) for e in envelopes]
        keys = self.keys.match_keys(match_id)
        count_round_trip()
        try:  # EVALSHA straight through execute_command: the Script wrapper costs a few µs a call
            reply = self.r.execute_command("EVALSHA", self._append.sha, len(keys), *keys, *args)
        except NoScriptError:
            reply = self._append(keys=keys, args=args)  # loads the script, then runs it
        kind, value = reply[0], reply[1]
        if kind == "ok":
            return AppendResult("ok", int(value))
        if kind == "dup":
            return AppendResult("dup", answer=loads(value))
        return AppendResult("conflict", int(value), envelopes=[loads(e) for e in reply[2:]])

    def read(self, match_id: str, after: int = 0, command_id: str | None = None,
             with_secret: bool = False) -> ReadResult:
        """One round trip: the events after version `after`, a command id's stored answer, the secret."""
        count_round_trip()
        stream_range = (self.keys.stream(match_id), f"0-{after + 1}", "+")
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
        entries = replies[0]
        answer = loads(replies[1]) if command_id and replies[1] else None
        secret = replies[-1] if with_secret else None
        envelopes = [loads(fields["e"]) for _id, fields in entries]
        return ReadResult(envelopes, answer, secret, exists=bool(envelopes) or after > 0)

    def read_many(self, positions: dict) -> dict:
        """{match id: the envelopes after its version} for {match id: version}, in one pipelined round trip."""
        count_round_trip()
        pipe = self.r.pipeline(transaction=False)
        for match_id, after in positions.items():
            pipe.xrange(self.keys.stream(match_id), f"0-{after + 1}", "+")
        return {match_id: [loads(fields["e"]) for _id, fields in entries]
                for match_id, entries in zip(positions, pipe.execute())}

    def read_range(self, match_id: str, start: int, end: int | None = None) -> list:
        """The envelopes with start <= version <= end (end None = to the head)."""
        entries = self.r.xrange(self.keys.stream(match_id), f"0-{start}", f"0-{end}" if end else "+")
        return [loads(fields["e"]) for _id, fields in entries]

    def version(self, match_id: str) -> int:
        """The match's current version (0 if it does not exist)."""
        return int(self.r.hget(self.keys.meta(match_id), "version") or 0)

    def secret(self, match_id: str) -> str | None:
        """The match's secret seed (hex)."""
        return self.r.get(self.keys.secret(match_id))

    def meta(self, match_id: str) -> dict:
        """The match's meta: version, head, status and game (empty when it does not exist)."""
        return self.r.hgetall(self.keys.meta(match_id))

    def log(self, p: int) -> list:
        """Partition p's change log: [(entry id, {"m": match id, "v": version, "n": events})], oldest first."""
        return self.r.xrange(self.keys.log(p))
