"""Browser sessions for the pages: a random id in an HttpOnly cookie; the user, CSRF token and the token it
was signed in with (its hash) in Redis, so a rotated or revoked token ends every session it began. A session that
ends (signed out, or ended from the account page) is announced, so the live streams it opened end at once."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time

from service.store.keys import Keys

SESSION_COOKIE = "ts_session"
LOGIN_CSRF_COOKIE = "ts_login_csrf"
SESSION_TTL_SECONDS = 30 * 24 * 3600
WELCOME_TTL_SECONDS = 15 * 60  # a new player's token waits this long for the welcome page to show it once


SESSION_PREFIX = Keys.SESSION_PREFIX


def session_key(session_id: str) -> str:
    """The Redis key of a session (only a hash of the cookie value is stored)."""
    return SESSION_PREFIX + hashlib.sha256(session_id.encode()).hexdigest()


def user_sessions_key(user_id: str) -> str:
    """A user's sessions: session digest -> {"at", "how", "agent"} (the account page lists and ends them)."""
    return Keys.user_sessions(user_id)


def same_secret(a: str | None, b: str | None) -> bool:
    """Constant-time comparison of two secrets (False when either is missing)."""
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


def session_digest(session_id: str) -> str:
    """The id a session is listed and ended by (its key without the prefix; never the cookie value)."""
    return session_key(session_id).removeprefix(SESSION_PREFIX)


class Sessions:
    """Signed-in browser sessions kept in Redis with a sliding expiry; `ended(user id)` is told when one of a
    user's sessions ends (the users' revocation notes: the streams it opened re-check at once)."""

    def __init__(self, redis_client, ended=None):
        self.r = redis_client
        self.ended = ended or (lambda user_id: None)

    def create(self, user_id: str, how: str = "", agent: str = "") -> tuple[str, str]:
        """Start a session for a user, bound to the user's token of this moment; return (session id for the
        cookie, its CSRF token). The user's list of sessions notes when, how and from what browser."""
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        key = session_key(session_id)
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(key, mapping={"user": user_id, "csrf": csrf, "cred": self._credential(user_id)})
        pipe.expire(key, SESSION_TTL_SECONDS)
        pipe.hset(user_sessions_key(user_id), key.removeprefix(SESSION_PREFIX),
                  json.dumps({"at": int(time.time()), "how": how, "agent": agent[:200]}))
        pipe.expire(user_sessions_key(user_id), SESSION_TTL_SECONDS)
        pipe.execute()
        return session_id, csrf

    def of_user(self, user_id: str) -> list:
        """The user's live sessions, newest first: [{"id" (a digest, not the cookie), "at", "how", "agent"}];
        ended or expired ones are forgotten as they are found."""
        entries = self.r.hgetall(user_sessions_key(user_id))
        if not entries:
            return []
        digests = list(entries)
        pipe = self.r.pipeline(transaction=False)
        for digest in digests:
            pipe.hget(SESSION_PREFIX + digest, "user")
        owners = pipe.execute()
        gone = [d for d, owner in zip(digests, owners) if owner != user_id]
        if gone:
            self.r.hdel(user_sessions_key(user_id), *gone)
        live = [{"id": d, **json.loads(entries[d])} for d, owner in zip(digests, owners) if owner == user_id]
        return sorted(live, key=lambda s: -s["at"])

    def end_of_user(self, user_id: str, digest: str) -> bool:
        """End one of the user's sessions by its listed id; False when it is not theirs (or already over)."""
        if len(digest) != 64 or self.r.hget(SESSION_PREFIX + digest, "user") != user_id:
            return False
        self.r.delete(SESSION_PREFIX + digest)
        self.r.hdel(user_sessions_key(user_id), digest)
        self.ended(user_id)
        return True

    def alive(self, digest: str) -> bool:
        """True while the session listed as `digest` has not ended (nor expired)."""
        return bool(self.r.exists(SESSION_PREFIX + digest))

    def rebind(self, session_id: str, credential: str) -> None:
        """Bind this live session to `credential` (the hash of the token it just made its user): set before the
        user's token changes, so a request of this browser meanwhile never finds its session stale; a session
        that has ended is not brought back."""
        self.r.eval("if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'cred', ARGV[1]) end",
                    1, session_key(session_id), credential)

    def _credential(self, user_id: str) -> str:
        return self.r.hget(Keys.user(user_id), "token_hash") or ""

    def lookup(self, session_id: str | None) -> dict | None:
        """{"user", "csrf", "cred"} of a live session, or None."""
        if not session_id or len(session_id) > 200:
            return None
        rec = self.r.hgetall(session_key(session_id))
        if not rec.get("user"):
            return None
        return {"user": rec["user"], "csrf": rec.get("csrf", ""), "cred": rec.get("cred", "")}

    def stash_token(self, session_id: str, token: str) -> None:
        """Keep a new player's token for the welcome page (shown once, then forgotten)."""
        self.r.set(session_key(session_id) + ":welcome", token, ex=WELCOME_TTL_SECONDS)

    def take_token(self, session_id: str | None) -> str | None:
        """The stashed token of this session, removed as it is read (so a reload never shows it again)."""
        if not session_id or len(session_id) > 200:
            return None
        return self.r.getdel(session_key(session_id) + ":welcome")

    def end(self, session_id: str | None) -> None:
        """Sign out: forget the session (and say so, when it was one)."""
        if session_id and len(session_id) <= 200:
            user_id = self.r.hget(session_key(session_id), "user")
            if self.r.delete(session_key(session_id)) and user_id:
                self.ended(user_id)
