"""Users and their Bearer tokens (only a SHA-256 of each token is stored)."""
from __future__ import annotations

import hashlib
import hmac
import secrets

from .errors import ApiError
from .keys import Keys


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Users:
    """User records in Redis."""

    def __init__(self, redis_client):
        self.r = redis_client

    def create(self, name: str) -> dict:
        """Create a user; the answer carries the token, which is never stored or shown again."""
        user_id = "u_" + secrets.token_hex(6)
        token = secrets.token_urlsafe(32)
        digest = token_hash(token)
        self.r.hset(Keys.user(user_id), mapping={"id": user_id, "name": name, "token_hash": digest})
        self.r.set(Keys.token(digest), user_id)
        return {"id": user_id, "name": name, "token": token}

    def get(self, user_id: str) -> dict | None:
        """A user's public record, or None."""
        rec = self.r.hgetall(Keys.user(user_id))
        if not rec:
            return None
        return {"id": rec["id"], "name": rec["name"], "webhook": rec.get("webhook") or None}

    def names(self, user_ids) -> dict:
        """{user id: display name} for the given ids (unknown ids map to themselves)."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        pipe = self.r.pipeline(transaction=False)
        for uid in ids:
            pipe.hget(Keys.user(uid), "name")
        return {uid: (name or uid) for uid, name in zip(ids, pipe.execute())}

    def authenticate(self, token: str | None) -> dict:
        """The user a Bearer token belongs to, or 401."""
        if not token:
            raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>")
        digest = token_hash(token)
        user_id = self.r.get(Keys.token(digest))
        rec = self.r.hgetall(Keys.user(user_id)) if user_id else None
        if not rec or not hmac.compare_digest(rec.get("token_hash", ""), digest):
            raise ApiError(401, "unauthorized", "the token is not valid")
        return {"id": rec["id"], "name": rec["name"], "webhook": rec.get("webhook") or None}

    def missing(self, user_ids) -> list:
        """The subset of user ids that do not exist."""
        pipe = self.r.pipeline(transaction=False)
        for uid in user_ids:
            pipe.exists(Keys.user(uid))
        return [uid for uid, ok in zip(user_ids, pipe.execute()) if not ok]

    def set_webhook(self, user_id: str, url: str | None) -> None:
        """Register (or with None remove) a user's webhook URL."""
        if url:
            self.r.hset(Keys.user(user_id), "webhook", url)
        else:
            self.r.hdel(Keys.user(user_id), "webhook")
