"""User records, the ports the use cases (service/app/users.py, service/app/mail/contacts.py) speak to: on
Redis, and its in-memory twin.

A record is a hash of text fields (id, name, token_hash, bot, webhook, webhook_secret, email, email_verified,
lang, notify...); the name index holds one entry per user (`<casefolded name>\\0<id>`), read in byte order by
prefix; a proven address names the one user who proved it; the digest readers are a set of user ids."""
from __future__ import annotations

import threading
from typing import Protocol

from service.store.keys import Keys


class UserRecords(Protocol):
    """What the use cases need of the stored users."""

    def create(self, user_id: str, fields: dict, name_entry: str) -> None:
        """Store a new record and its name index entry."""

    def ensure(self, records: list) -> None:
        """Give each record (a dict with "id") the fields it lacks; fields it has are kept."""

    def record(self, user_id: str) -> dict:
        """A user's whole record ({} when there is none)."""

    def replace_token(self, user_id: str, digest: str) -> None:
        """Set the user's token hash (empty: none), dropping the legacy token key of the old one."""

    def legacy_owner(self, digest: str) -> str | None:
        """The user a legacy token (made before tokens carried their user id) belongs to."""

    def field(self, user_ids: list, name: str) -> list:
        """One field of each of these users, in their order (None where missing)."""

    def exist(self, user_ids: list) -> list:
        """Whether each of these users has a record, in their order."""

    def name_entries(self, prefix: str, limit: int | None = None) -> list:
        """The name index entries starting with `prefix`, in byte order, at most `limit`."""

    def set_webhook(self, user_id: str, url: str, secret: str | None, fresh: str) -> str:
        """Store a webhook URL with `secret` (None: the user's own, `fresh` when they have none); the secret."""

    def remove_webhook(self, user_id: str) -> None:
        """Forget the user's webhook and its secret."""

    def webhook_target(self, user_id: str) -> tuple:
        """(webhook URL, secret), each None when missing."""


class ContactRecords(Protocol):
    """What the mail use cases need of the stored users: their fields, proven addresses and digest readers."""

    def fields(self, user_id: str, names: list) -> list:
        """These fields of a user's record, in order (None where missing)."""

    def set_fields(self, user_id: str, values: dict) -> None:
        """Write these fields of a user's record."""

    def save_preferences(self, user_id: str, notify: str, digest: bool) -> None:
        """Write the user's preferences (text) and add them to the digest readers or take them out."""

    def digest_readers(self) -> set:
        """Every user in the digest readers."""

    def change_address(self, user_id: str, address: str | None, release: str | None) -> None:
        """Give the user `address` unproven (None: keep theirs) and free the proven address `release`."""

    def address_owner(self, address: str) -> str | None:
        """The user a proven address names."""

    def prove(self, user_id: str, address: str, taken_from: str | None) -> None:
        """At once: the address proven for the user and naming them; `taken_from` (its former prover) loses it."""


class RedisUserRecords:
    """User records as Redis hashes, the name index a sorted set read by lexical range."""

    def __init__(self, redis_client):
        self.r = redis_client

    def create(self, user_id: str, fields: dict, name_entry: str) -> None:
        """HSET the record and ZADD its name entry, in one round trip."""
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(Keys.user(user_id), mapping=fields)
        pipe.zadd(Keys.user_names(), {name_entry: 0})
        pipe.execute()

    def ensure(self, records: list) -> None:
        """HSETNX every field of every record, in one round trip."""
        pipe = self.r.pipeline(transaction=False)
        for rec in records:
            for name, value in rec.items():
                pipe.hsetnx(Keys.user(rec["id"]), name, value)
        pipe.execute()

    def record(self, user_id: str) -> dict:
        """One HGETALL."""
        return self.r.hgetall(Keys.user(user_id))

    def replace_token(self, user_id: str, digest: str) -> None:
        """The old hash read, the new one written, the old legacy key deleted."""
        old = self.r.hget(Keys.user(user_id), "token_hash")
        self.r.hset(Keys.user(user_id), "token_hash", digest)
        if old:
            self.r.delete(Keys.token(old))

    def legacy_owner(self, digest: str) -> str | None:
        """One GET of the legacy token key."""
        return self.r.get(Keys.token(digest))

    def field(self, user_ids: list, name: str) -> list:
        """One HGET per user, in one round trip (none asked: no round trip)."""
        if not user_ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for user_id in user_ids:
            pipe.hget(Keys.user(user_id), name)
        return pipe.execute()

    @staticmethod
    def queue_field_reads(pipe, user_ids, name: str) -> None:
        """Queue on `pipe` one read of the field of each user (a caller's round trip shared with other reads)."""
        for user_id in user_ids:
            pipe.hget(Keys.user(user_id), name)

    def exist(self, user_ids: list) -> list:
        """One EXISTS per user, in one round trip."""
        if not user_ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for user_id in user_ids:
            pipe.exists(Keys.user(user_id))
        return [bool(found) for found in pipe.execute()]

    def name_entries(self, prefix: str, limit: int | None = None) -> list:
        """ZRANGEBYLEX from the prefix to the prefix and a byte no UTF-8 text holds."""
        paging = {"start": 0, "num": limit} if limit is not None else {}
        return self.r.zrangebylex(Keys.user_names(), f"[{prefix}", f"[{prefix}".encode() + b"\xff", **paging)

    def set_webhook(self, user_id: str, url: str, secret: str | None, fresh: str) -> str:
        """HSETNX of a fresh secret when none is given, then HSET and HGET in one round trip."""
        if secret is None:
            self.r.hsetnx(Keys.user(user_id), "webhook_secret", fresh)
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(Keys.user(user_id), mapping={"webhook": url, **({"webhook_secret": secret} if secret else {})})
        pipe.hget(Keys.user(user_id), "webhook_secret")
        return pipe.execute()[-1]

    def remove_webhook(self, user_id: str) -> None:
        """One HDEL."""
        self.r.hdel(Keys.user(user_id), "webhook", "webhook_secret")

    def webhook_target(self, user_id: str) -> tuple:
        """One HMGET."""
        url, secret = self.r.hmget(Keys.user(user_id), ["webhook", "webhook_secret"])
        return url, secret

    def fields(self, user_id: str, names: list) -> list:
        """One HMGET."""
        return self.r.hmget(Keys.user(user_id), names)

    def set_fields(self, user_id: str, values: dict) -> None:
        """One HSET."""
        self.r.hset(Keys.user(user_id), mapping=values)

    def save_preferences(self, user_id: str, notify: str, digest: bool) -> None:
        """HSET and SADD or SREM, in one round trip."""
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(Keys.user(user_id), "notify", notify)
        if digest:
            pipe.sadd(Keys.digest_readers(), user_id)
        else:
            pipe.srem(Keys.digest_readers(), user_id)
        pipe.execute()

    def digest_readers(self) -> set:
        """One SMEMBERS."""
        return set(self.r.smembers(Keys.digest_readers()))

    def change_address(self, user_id: str, address: str | None, release: str | None) -> None:
        """DEL of the released index entry and HSET of the address, in one round trip (none: no round trip)."""
        pipe = self.r.pipeline(transaction=False)
        if release:
            pipe.delete(Keys.verified_email(release))
        if address is not None:
            pipe.hset(Keys.user(user_id), mapping={"email": address, "email_verified": ""})
        if release or address is not None:
            pipe.execute()

    def address_owner(self, address: str) -> str | None:
        """One GET."""
        return self.r.get(Keys.verified_email(address))

    def prove(self, user_id: str, address: str, taken_from: str | None) -> None:
        """One MULTI: the former prover's address cleared, the flag set, the index entry written."""
        pipe = self.r.pipeline(transaction=True)
        if taken_from:
            pipe.hset(Keys.user(taken_from), mapping={"email": "", "email_verified": ""})
        pipe.hset(Keys.user(user_id), "email_verified", "1")
        pipe.set(Keys.verified_email(address), user_id)
        pipe.execute()


class InMemoryUserRecords:
    """The same records in dicts, for tests and tools without a Redis."""

    def __init__(self):
        self._records: dict = {}
        self._legacy: dict = {}  # legacy token hash -> user id
        self._names: set = set()
        self._emails: dict = {}  # casefolded proven address -> user id
        self._digest: set = set()
        self._lock = threading.Lock()

    def create(self, user_id: str, fields: dict, name_entry: str) -> None:
        """Store the record and its name entry."""
        with self._lock:
            self._records.setdefault(user_id, {}).update({k: str(v) for k, v in fields.items()})
            self._names.add(name_entry)

    def ensure(self, records: list) -> None:
        """Add the missing fields."""
        with self._lock:
            for rec in records:
                stored = self._records.setdefault(rec["id"], {})
                for name, value in rec.items():
                    stored.setdefault(name, str(value))

    def record(self, user_id: str) -> dict:
        """A copy of the record."""
        with self._lock:
            return dict(self._records.get(user_id, {}))

    def replace_token(self, user_id: str, digest: str) -> None:
        """Set the hash, forget the old legacy token."""
        with self._lock:
            stored = self._records.setdefault(user_id, {})
            old = stored.get("token_hash")
            stored["token_hash"] = digest
            if old:
                self._legacy.pop(old, None)

    def legacy_owner(self, digest: str) -> str | None:
        """The owner of a legacy token."""
        return self._legacy.get(digest)

    def field(self, user_ids: list, name: str) -> list:
        """The field of each user."""
        with self._lock:
            return [self._records.get(user_id, {}).get(name) for user_id in user_ids]

    def exist(self, user_ids: list) -> list:
        """Whether each user has a record."""
        with self._lock:
            return [bool(self._records.get(user_id)) for user_id in user_ids]

    def name_entries(self, prefix: str, limit: int | None = None) -> list:
        """The entries starting with `prefix`, in byte order (as Redis orders a lexical range)."""
        with self._lock:
            found = sorted((e for e in self._names if e.startswith(prefix)), key=lambda e: e.encode())
        return found if limit is None else found[:limit]

    def set_webhook(self, user_id: str, url: str, secret: str | None, fresh: str) -> str:
        """Store the URL and the secret in force."""
        with self._lock:
            stored = self._records.setdefault(user_id, {})
            if secret is None:
                stored.setdefault("webhook_secret", fresh)
            stored["webhook"] = url
            if secret:
                stored["webhook_secret"] = secret
            return stored.get("webhook_secret")

    def remove_webhook(self, user_id: str) -> None:
        """Forget the webhook and its secret."""
        with self._lock:
            stored = self._records.get(user_id, {})
            stored.pop("webhook", None)
            stored.pop("webhook_secret", None)

    def webhook_target(self, user_id: str) -> tuple:
        """(URL, secret)."""
        with self._lock:
            stored = self._records.get(user_id, {})
            return stored.get("webhook"), stored.get("webhook_secret")

    def fields(self, user_id: str, names: list) -> list:
        """These fields, in order."""
        with self._lock:
            stored = self._records.get(user_id, {})
            return [stored.get(name) for name in names]

    def set_fields(self, user_id: str, values: dict) -> None:
        """Write the fields."""
        with self._lock:
            self._records.setdefault(user_id, {}).update({k: str(v) for k, v in values.items()})

    def save_preferences(self, user_id: str, notify: str, digest: bool) -> None:
        """Write the preferences, mark the digest reader."""
        with self._lock:
            self._records.setdefault(user_id, {})["notify"] = notify
            (self._digest.add if digest else self._digest.discard)(user_id)

    def digest_readers(self) -> set:
        """A copy of the readers."""
        with self._lock:
            return set(self._digest)

    def change_address(self, user_id: str, address: str | None, release: str | None) -> None:
        """Free the released address, set the new one unproven."""
        with self._lock:
            if release:
                self._emails.pop(release.casefold(), None)
            if address is not None:
                self._records.setdefault(user_id, {}).update({"email": address, "email_verified": ""})

    def address_owner(self, address: str) -> str | None:
        """The user the address names."""
        return self._emails.get(address.casefold())

    def prove(self, user_id: str, address: str, taken_from: str | None) -> None:
        """All at once, under the lock."""
        with self._lock:
            if taken_from:
                self._records.setdefault(taken_from, {}).update({"email": "", "email_verified": ""})
            self._records.setdefault(user_id, {})["email_verified"] = "1"
            self._emails[address.casefold()] = user_id
