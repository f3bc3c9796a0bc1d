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

    # -- the keys of the web front, the use cases, the projections and the workers -----------------------------
    SLOTTED_PREFIX = "ts:{"  # a key in a hash slot of its own tag (a partition's or the ratings')
    ANY = "ts:*"  # SCAN pattern of every key of the service
    META_PATTERN = "ts:{p*}:m:*:meta"  # SCAN pattern of every match's meta hash (archived or not)
    USER_PATTERN = "ts:user:*"  # SCAN pattern of every user record
    LOG_PATTERN = "ts:{p*}:log"  # SCAN pattern of the partition logs
    CHANGES_PATTERN = "ts:{p*}:rm:changes"  # SCAN pattern of the partitions' change feeds
    GLOBAL_READ_MODEL_PATTERNS = ("ts:idx:*", "ts:inbox:*")  # indexes and inboxes (with the users' own indexes)
    INDEX_PATTERNS = ("ts:idx:status:*", "ts:idx:player:*", "ts:inbox:*")  # match indexes and inboxes
    RATINGS_TAG = "{rt}"  # one hash slot for every rating key (a game's fold is one MULTI, also on a cluster)
    RATE_LIMIT_PREFIX = "ts:rl"  # flask-limiter's windows and the web front's leases
    SESSION_PREFIX = "ts:session:"  # + sha256 of a session cookie's value
    WEBHOOK_SECRET = "ts:installation:webhook-secret"  # the installation's own webhook signing key
    MAIL_SIGNING_KEY = "ts:mail:signing-key"  # the key that signs mailed links
    MAIL_USED_PREFIX = "ts:mail:used:"  # + a link's nonce: the link was opened (single use)
    MAIL_QUEUED_PREFIX = "ts:mail:queued:"  # + mail id: handed to the queue (never twice)
    MAIL_SENT_PREFIX = "ts:mail:sent:"  # + mail id: handed to the SMTP server or written
    MAIL_DIGEST_CHAIN = "ts:mail:digest-chain"  # set while the next daily digest job is scheduled
    WEBHOOK_OUTCOMES = "ts:metrics:webhooks"  # hash outcome -> count, kept by the delivering workers
    PROJECTIONS_PAUSED = "ts:projections:paused"  # set by a rebuild: followers give their leases up and take none
    PROJECTION_FOLLOWERS = "ts:projections:followers"  # follower -> until when it is counted alive
    BOTS_PENDING = "ts:bots:pending"  # queue Redis: "match|seat|version" -> when its turn was scheduled
    BOTS_RECOVERED = "ts:bots:recovered"  # how often a pending turn was scheduled again
    ARCHIVE_CURSOR = "ts:archive:cursor"  # the finished index's score up to which every match was looked at
    ARCHIVE_QUEUED = "ts:archive:queued"  # queue Redis: a sweep job is queued or running

    @staticmethod
    def match_of_meta(key: str) -> str:
        """The match id in a meta key (META_PATTERN's or a partition's)."""
        return key.split(":m:", 1)[1].rsplit(":meta", 1)[0]

    @staticmethod
    def user_of(key: str) -> str:
        """The user id in a user record's key."""
        return key.split("ts:user:", 1)[1]

    @staticmethod
    def partition_pattern(p: int) -> str:
        """SCAN pattern of every key of partition p."""
        return f"ts:{tag(p)}:*"

    @staticmethod
    def matches_prefix(p: int) -> str:
        """What the keys of partition p's matches start with (then the match id)."""
        return f"ts:{tag(p)}:m:"

    @staticmethod
    def summaries_pattern(p: int) -> str:
        """SCAN pattern of partition p's match-summary read models."""
        return f"ts:{tag(p)}:rm:m:*"

    @staticmethod
    def rating(kind: str, game: str = "") -> str:
        """A rating key of one kind, of one game or of all."""
        return f"ts:{Keys.RATINGS_TAG}:{kind}:{game}" if game else f"ts:{Keys.RATINGS_TAG}:{kind}"

    @staticmethod
    def ratings_prefix() -> str:
        """What every rating key starts with."""
        return f"ts:{Keys.RATINGS_TAG}:"

    @staticmethod
    def user_sessions(user_id: str) -> str:
        """A user's sessions: session digest -> {"at", "how", "agent"}."""
        return f"ts:user-sessions:{user_id}"

    @staticmethod
    def presence(user_id: str) -> str:
        """A user's live-stream marks (service/store/presence.py)."""
        return f"ts:presence:{user_id}"

    @staticmethod
    def notified(user_id: str, match_id: str, version: int, kind: str) -> str:
        """Marks one notification as handed to the queue (SET NX)."""
        return f"ts:notified:{user_id}:{match_id}:{version}:{kind}"
