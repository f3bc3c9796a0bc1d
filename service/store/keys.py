"""Redis key names: every key of a match shares its partition's hash tag {pNN}."""
from __future__ import annotations

import zlib


def partition_of(match_id: str, partitions: int) -> int:
    """The partition a match lives in: crc32(match id) mod P."""
    return zlib.crc32(match_id.encode()) % partitions


def tag(p: int) -> str:
    """The hash tag of partition p."""
    return "{p%02d}" % p


class Keys:
    """Key names for a store with P partitions."""

    def __init__(self, partitions: int):
        self.partitions = partitions

    def partition(self, match_id: str) -> int:
        """The partition number of a match."""
        return partition_of(match_id, self.partitions)

    def stream(self, match_id: str) -> str:
        """The match's event stream."""
        return f"ts:{tag(self.partition(match_id))}:m:{match_id}"

    def meta(self, match_id: str) -> str:
        """The match's meta hash (game, status, version, head)."""
        return self.stream(match_id) + ":meta"

    def cmds(self, match_id: str) -> str:
        """The match's command-id -> stored answer hash."""
        return self.stream(match_id) + ":cmds"

    def secret(self, match_id: str) -> str:
        """The match's secret RNG seed."""
        return self.stream(match_id) + ":secret"

    def archive(self, match_id: str) -> str:
        """The archive record of a finished match (its events compacted: service/store/archive_codec.py)."""
        return self.stream(match_id) + ":archive"

    def log(self, p: int) -> str:
        """Partition p's change log (the projection outbox)."""
        return f"ts:{tag(p)}:log"

    def match_keys(self, match_id: str) -> list[str]:
        """The KEYS of the append script, in order."""
        p = self.partition(match_id)
        return [self.stream(match_id), self.meta(match_id), self.cmds(match_id), self.log(p),
                self.secret(match_id)]

    def changes(self, p: int) -> str:
        """Partition p's read-model change feed (match rows and inboxes rewritten), for live streams."""
        return f"ts:{tag(p)}:rm:changes"

    def checkpoint(self, p: int) -> str:
        """Partition p's projection checkpoint (last log id applied)."""
        return f"ts:{tag(p)}:rm:ckpt"

    def projector(self, p: int) -> str:
        """Partition p's projection lease: who projects it now (a follower or a job), with a short TTL."""
        return f"ts:{tag(p)}:rm:projector"

    def summary(self, match_id: str) -> str:
        """The match-summary read model (same slot as its partition checkpoint)."""
        return f"ts:{tag(self.partition(match_id))}:rm:m:{match_id}"

    def snapshot(self, match_id: str) -> str:
        """The match's replay snapshots (hash: version -> folded state)."""
        return f"ts:{tag(self.partition(match_id))}:rm:snap:{match_id}"

    @staticmethod
    def user(user_id: str) -> str:
        """A user's record."""
        return f"ts:user:{user_id}"

    @staticmethod
    def user_names() -> str:
        """Every user as "<casefolded name>\\0<id>" (score 0), for prefix search by name."""
        return "ts:idx:user-names"

    @staticmethod
    def verified_email(address: str) -> str:
        """A proven address -> the one user who proved it (sign-in by e-mail)."""
        return f"ts:idx:email:{address.casefold()}"

    @staticmethod
    def digest_readers() -> str:
        """The players who chose the daily digest."""
        return "ts:idx:mail-digest"

    @staticmethod
    def owned_by_users(key: str) -> bool:
        """True for an index the users' own records make (names, proven addresses, digest readers): not a read
        model, so a rebuild of the read models keeps it."""
        return key in ("ts:idx:user-names", "ts:idx:mail-digest") or key.startswith("ts:idx:email:")

    @staticmethod
    def token(token_hash: str) -> str:
        """Token hash -> user id."""
        return f"ts:token:{token_hash}"

    @staticmethod
    def status_index(status: str) -> str:
        """Match ids by status, scored by last update time."""
        return f"ts:idx:status:{status}"

    @staticmethod
    def status_game_index(status: str, game: str) -> str:
        """One game's match ids by status, scored by last update time."""
        return f"ts:idx:status:{status}:{game}"

    @staticmethod
    def player_index(user_id: str) -> str:
        """A user's matches, scored by last update time."""
        return f"ts:idx:player:{user_id}"

    @staticmethod
    def seen(user_id: str) -> str:
        """The last version of each match shown to a user on a page (hash: match id -> version)."""
        return f"ts:seen:{user_id}"

    @staticmethod
    def inbox(user_id: str) -> str:
        """Matches waiting for a user's move, scored by the time they started waiting."""
        return f"ts:inbox:{user_id}"
