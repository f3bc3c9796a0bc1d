"""What a backup reads and a restore writes beside the event store (service/app/backup.py): every match and user
id, a user's whole record, the installation's keys, and the checks and writes of a restore; on Redis."""
from __future__ import annotations

from typing import Protocol

from service.store.keys import Keys

INSTALLATION = {"mail_signing_key": Keys.MAIL_SIGNING_KEY, "webhook_secret": Keys.WEBHOOK_SECRET}  # name -> key


class BackupRecords(Protocol):
    """The backup's port."""

    def match_ids(self) -> list:
        """Every stored match id, sorted."""

    def user_ids(self) -> list:
        """Every user id, sorted."""

    def user(self, user_id: str) -> tuple:
        """(the user's whole record, {} when none; True when a legacy token key names them)."""

    def installation(self, names) -> dict:
        """{name: value or None} of these installation keys (names of INSTALLATION)."""

    def set_installation(self, values: dict) -> None:
        """Write these installation keys."""

    def already_here(self, user_ids: list, legacy_tokens: list, proven: list, match_ids: list) -> list:
        """Whether each of these users, legacy token hashes, proven addresses and matches is held, in order."""

    def restore_user(self, fields: dict, name_entry: str, legacy_token: str | None, proven: str | None,
                     digest: bool) -> None:
        """Write a user's record, its name entry, its legacy token key, its proven address, its digest mark."""


class RedisBackupRecords:
    """The backup's reads and writes on the service's Redis (SCANs reach every node of a cluster)."""

    def __init__(self, redis_client, keys: Keys):
        self.r = redis_client
        self.keys = keys

    def match_ids(self) -> list:
        """One SCAN over the match meta keys (archived matches keep theirs)."""
        return sorted({Keys.match_of_meta(key) for key in self.r.scan_iter(match=Keys.META_PATTERN, count=1000)})

    def user_ids(self) -> list:
        """One SCAN over the user records."""
        return sorted(Keys.user_of(key) for key in self.r.scan_iter(match=Keys.USER_PATTERN, count=1000))

    def user(self, user_id: str) -> tuple:
        """HGETALL, then EXISTS of the legacy token key when the record has a token."""
        rec = self.r.hgetall(Keys.user(user_id))
        legacy = bool(rec.get("token_hash")) and bool(self.r.exists(Keys.token(rec["token_hash"])))
        return rec, legacy

    def installation(self, names) -> dict:
        """One GET per key (several slots on a cluster)."""
        return {name: self.r.get(INSTALLATION[name]) for name in names}

    def set_installation(self, values: dict) -> None:
        """One SET per key."""
        for name, value in values.items():
            self.r.set(INSTALLATION[name], value)

    def already_here(self, user_ids: list, legacy_tokens: list, proven: list, match_ids: list) -> list:
        """One pipelined round trip of EXISTS."""
        if not (user_ids or legacy_tokens or proven or match_ids):
            return []
        pipe = self.r.pipeline(transaction=False)
        for user_id in user_ids:
            pipe.exists(Keys.user(user_id))
        for digest in legacy_tokens:
            pipe.exists(Keys.token(digest))
        for address in proven:
            pipe.exists(Keys.verified_email(address))
        for match_id in match_ids:
            pipe.exists(self.keys.meta(match_id), self.keys.stream(match_id))
        return [bool(found) for found in pipe.execute()]

    def restore_user(self, fields: dict, name_entry: str, legacy_token: str | None, proven: str | None,
                     digest: bool) -> None:
        """One pipelined round trip."""
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(Keys.user(fields["id"]), mapping=fields)
        pipe.zadd(Keys.user_names(), {name_entry: 0})
        if legacy_token:
            pipe.set(Keys.token(legacy_token), fields["id"])
        if proven:
            pipe.set(Keys.verified_email(proven), fields["id"])  # the address signs this player in by e-mail again
        if digest:
            pipe.sadd(Keys.digest_readers(), fields["id"])
        pipe.execute()
