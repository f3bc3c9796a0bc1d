"""Users and their Bearer tokens (only a SHA-256 of each token is stored); rotation and revocation."""
from __future__ import annotations

import hashlib
import hmac
import secrets

from domain.engine.bot_seats import bot_level

from service.app.errors import Invalid, Unauthorized
from service.app.webhook_targets import literal_refusal, parse_allowlist
from service.store.user_records import UserRecords

UNAUTHORIZED = "the token is not valid"


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(user_id: str) -> str:
    """A fresh token `<user id>.<secret>`: the id lets one HGETALL of the user check it."""
    return f"{user_id}.{secrets.token_urlsafe(32)}"


SEPARATOR = "\0"
SHORT_ID = 6  # hex digits of the id shown beside a name ("Ann #1a2b3c"): names need not be unique


def name_entry(name: str, user_id: str) -> str:
    """The name index member of a user."""
    return f"{name.casefold()}{SEPARATOR}{user_id}"


def short_id(user_id: str) -> str:
    """The few id characters that tell two players of one name apart."""
    return user_id.removeprefix("u_")[:SHORT_ID]


class Users:
    """Users on a UserRecords store; authentication through an optional per-process AuthCache."""

    def __init__(self, records: UserRecords, cache=None):
        self.records = records
        self.cache = cache

    def create(self, name: str) -> dict:
        """Create a user; the answer carries the token, which is never stored or shown again."""
        user_id = "u_" + secrets.token_hex(6)
        token = new_token(user_id)
        self.records.create(user_id, {"id": user_id, "name": name, "token_hash": token_hash(token)},
                            name_entry(name, user_id))
        return {"id": user_id, "name": name, "token": token}

    def rotate(self, user_id: str) -> str:
        """Give a user a new token; the old one is refused at once by every process."""
        token = new_token(user_id)
        self._replace_token(user_id, token_hash(token))
        return token

    def revoke(self, user_id: str) -> None:
        """Sign a user out everywhere: no token works until a new one is made."""
        self._replace_token(user_id, "")

    def _replace_token(self, user_id: str, digest: str) -> None:
        """The user hash's token_hash is the only truth; a legacy token key is removed with it. Returns once every
        process has dropped the old token from its cache (AuthCache.announce): synchronous revocation."""
        self.records.replace_token(user_id, digest)
        if self.cache is not None:
            self.cache.announce(user_id)

    def session_ended(self, user_id: str) -> None:
        """One of the user's browser sessions ended: every process wakes the user's open streams to re-check their
        credential, and this returns once they have been woken (as a rotation does)."""
        if self.cache is not None:
            self.cache.announce(user_id)

    def watch_revocation(self, user_id: str, callback):
        """Call `callback()` as soon as this process learns that `user_id`'s tokens changed (an open stream
        re-checks its credential then); a handle for `unwatch_revocation`, None without a cache."""
        return self.cache.watch(user_id, callback) if self.cache is not None else None

    def unwatch_revocation(self, handle) -> None:
        """Forget a watcher from `watch_revocation` (None: nothing to do)."""
        if handle is not None and self.cache is not None:
            self.cache.unwatch(handle)

    def revocations_pushed(self) -> bool:
        """True while this process hears every rotation and sign-out as it happens (watchers are called)."""
        return self.cache is not None and self.cache.synced()

    def ensure_bots(self, bot_ids: list, names: dict) -> None:
        """Create the user records of these bots if missing (`names`: level -> display name); a bot has no token."""
        records = []
        for bid in bot_ids:
            level, n = bot_level(bid), int(bid.rsplit(":", 1)[1])
            records.append({"id": bid, "name": names[level] if n == 1 else f"{names[level]} {n}", "bot": level})
        self.records.ensure(records)

    def get(self, user_id: str) -> dict | None:
        """A user's public record, or None."""
        rec = self.records.record(user_id)
        if not rec:
            return None
        return {"id": rec["id"], "name": rec["name"], "webhook": rec.get("webhook") or None}

    def signed_in(self, user_id: str, credential: str) -> dict | None:
        """The user's public record when `credential` is still their token's hash (a session's sign-in
        token has not been rotated or revoked since), else None."""
        rec = self.records.record(user_id)
        if not rec or not credential or not hmac.compare_digest(rec.get("token_hash") or "", credential):
            return None
        return {"id": rec["id"], "name": rec["name"], "webhook": rec.get("webhook") or None}

    def with_webhook(self, user_ids) -> set:
        """Which of these users have a webhook, in one pipelined round trip (none asked: no round trip)."""
        user_ids = list(user_ids)
        return {user_id for user_id, hook in zip(user_ids, self.records.field(user_ids, "webhook")) if hook}

    def queue_webhook_reads(self, pipe, user_ids) -> None:
        """Queue on `pipe` one read of each user's webhook (its replies come in the same order)."""
        self.records.queue_field_reads(pipe, user_ids, "webhook")

    def names(self, user_ids) -> dict:
        """{user id: display name} for the given ids (unknown ids map to themselves)."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        return {uid: (name or uid) for uid, name in zip(ids, self.records.field(ids, "name"))}

    def authenticate(self, token: str | None) -> dict:
        """The user {"id", "name"} a Bearer token belongs to, or 401: no Redis call for a cached token (trusted
        while this process is in step with the revocation notes), one HGETALL otherwise (two for a token made
        before tokens carried their user id)."""
        if not token:
            raise Unauthorized("send Authorization: Bearer <token>")
        digest = token_hash(token)
        cached, generation = self.cache.lookup(digest) if self.cache is not None else (None, None)
        if cached is not None:
            return cached
        user_id, dot, _secret = token.partition(".")
        if not dot:  # a legacy token: its key names the user
            user_id = self.records.legacy_owner(digest)
        rec = self.records.record(user_id) if user_id else None
        if not rec or not hmac.compare_digest(rec.get("token_hash", ""), digest):
            raise Unauthorized(UNAUTHORIZED)
        user = {"id": rec["id"], "name": rec["name"]}
        if self.cache is not None:
            self.cache.remember(digest, user, generation)
        return user

    def holds(self, user_id: str, credential: str) -> bool:
        """True while `credential` (a token's hash) is still the user's token: no Redis call while the
        per-process cache holds it (a rotation or revocation has emptied it before it answers), one HGETALL
        otherwise."""
        cached, generation = self.cache.lookup(credential) if self.cache is not None else (None, None)
        if cached is not None:
            return cached["id"] == user_id
        rec = self.signed_in(user_id, credential)
        if rec is not None and self.cache is not None:
            self.cache.remember(credential, {"id": rec["id"], "name": rec["name"]}, generation)
        return rec is not None

    def search(self, prefix: str, limit: int = 10) -> list:
        """Users whose name starts with `prefix` (case-insensitive): [{"id", "name", "short_id"}]."""
        key = prefix.casefold().replace(SEPARATOR, "")
        if not key:
            return []
        members = self.records.name_entries(key, limit)
        ids = [m.rsplit(SEPARATOR, 1)[1] for m in members]
        names = self.names(ids)
        return [{"id": uid, "name": names[uid], "short_id": short_id(uid)} for uid in ids]

    def with_name(self, name: str) -> list:
        """The ids of every user called exactly `name` (case-insensitive)."""
        key = name.casefold()
        members = self.records.name_entries(f"{key}{SEPARATOR}")
        return [m.rsplit(SEPARATOR, 1)[1] for m in members]

    def missing(self, user_ids) -> list:
        """The subset of user ids that do not exist."""
        user_ids = list(user_ids)
        return [uid for uid, ok in zip(user_ids, self.records.exist(user_ids)) if not ok]

    def set_webhook(self, user_id: str, url: str | None, allow: str = "", secret: str | None = None) -> str | None:
        """Register (or with None remove) a user's webhook URL and return the secret its deliveries are signed
        with: `secret` when given, else the user's own (made at random the first time); 400 when the URL's
        host is this machine or a literal address that is not public (nor in `allow`, the operator's
        TURNSTREAM_WEBHOOK_ALLOW networks)."""
        refusal = literal_refusal(url, parse_allowlist(allow)) if url else None
        if refusal:
            raise Invalid(refusal, "webhook_address_refused", fields={"url": [refusal]})
        if not url:
            self.records.remove_webhook(user_id)
            return None
        return self.records.set_webhook(user_id, url, secret, secrets.token_urlsafe(32) if secret is None else "")

    def webhook_target(self, user_id: str) -> tuple[str | None, str | None]:
        """(the user's webhook URL, the secret its deliveries are signed with); (None, None) without one."""
        url, secret = self.records.webhook_target(user_id)
        return (url, secret) if url else (None, None)
