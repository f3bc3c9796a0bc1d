"""The marks the mail use cases keep (service/app/mail/): the key that signs mailed links (made once per
installation), the links opened (single use), the mails handed to the queue and those sent (never twice); on
Redis, and its in-memory twin."""
from __future__ import annotations

import threading
import time
from typing import Callable, Protocol

from service.store.keys import Keys


class MailMarks(Protocol):
    """What the mail use cases remember."""

    def signing_key(self, make: Callable[[], str]) -> str:
        """The installation's link signing key, `make()` the first time (two processes agree on one)."""

    def link_used(self, nonce: str) -> bool:
        """True once the link with this nonce was opened."""

    def use_link(self, nonce: str, seconds: int) -> bool:
        """Mark the link opened for `seconds`; False when it already was (exactly one caller wins)."""

    def queue_once(self, mail_id: str, seconds: int) -> bool:
        """Mark the mail handed to the queue for `seconds`; False when it already was."""

    def unqueue(self, mail_id: str) -> None:
        """The mail was not queued after all: forget its mark."""

    def sent(self, mail_id: str) -> bool:
        """True once the mail was handed over."""

    def mark_sent(self, mail_id: str, seconds: int) -> None:
        """Remember for `seconds` that the mail was handed over."""


class RedisMailMarks:
    """The marks as Redis keys with a TTL (the signing key without)."""

    def __init__(self, redis_client):
        self.r = redis_client

    def signing_key(self, make: Callable[[], str]) -> str:
        """SET NX, then GET."""
        self.r.set(Keys.MAIL_SIGNING_KEY, make(), nx=True)
        value = self.r.get(Keys.MAIL_SIGNING_KEY)
        return value.decode() if isinstance(value, bytes) else value

    def link_used(self, nonce: str) -> bool:
        """One EXISTS."""
        return bool(self.r.exists(Keys.MAIL_USED_PREFIX + nonce))

    def use_link(self, nonce: str, seconds: int) -> bool:
        """One SET NX EX."""
        return bool(self.r.set(Keys.MAIL_USED_PREFIX + nonce, "1", nx=True, ex=seconds))

    def queue_once(self, mail_id: str, seconds: int) -> bool:
        """One SET NX EX."""
        return bool(self.r.set(Keys.MAIL_QUEUED_PREFIX + mail_id, "1", nx=True, ex=seconds))

    def unqueue(self, mail_id: str) -> None:
        """One DEL."""
        self.r.delete(Keys.MAIL_QUEUED_PREFIX + mail_id)

    def sent(self, mail_id: str) -> bool:
        """One EXISTS."""
        return bool(self.r.exists(Keys.MAIL_SENT_PREFIX + mail_id))

    def mark_sent(self, mail_id: str, seconds: int) -> None:
        """One SET EX."""
        self.r.set(Keys.MAIL_SENT_PREFIX + mail_id, "1", ex=seconds)


class InMemoryMailMarks:
    """The same marks in a dict of lapse times."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._key: str | None = None
        self._until: dict = {}  # mark -> when it lapses
        self._clock = clock
        self._lock = threading.Lock()

    def _held(self, mark: str) -> bool:
        return self._until.get(mark, 0.0) > self._clock()

    def _set_new(self, mark: str, seconds: float) -> bool:
        with self._lock:
            if self._held(mark):
                return False
            self._until[mark] = self._clock() + seconds
            return True

    def signing_key(self, make: Callable[[], str]) -> str:
        """Made on first use."""
        with self._lock:
            if self._key is None:
                self._key = make()
            return self._key

    def link_used(self, nonce: str) -> bool:
        """Opened and not lapsed."""
        with self._lock:
            return self._held("used:" + nonce)

    def use_link(self, nonce: str, seconds: int) -> bool:
        """Mark it opened."""
        return self._set_new("used:" + nonce, seconds)

    def queue_once(self, mail_id: str, seconds: int) -> bool:
        """Mark it queued."""
        return self._set_new("queued:" + mail_id, seconds)

    def unqueue(self, mail_id: str) -> None:
        """Forget the queued mark."""
        with self._lock:
            self._until.pop("queued:" + mail_id, None)

    def sent(self, mail_id: str) -> bool:
        """Sent and not lapsed."""
        with self._lock:
            return self._held("sent:" + mail_id)

    def mark_sent(self, mail_id: str, seconds: int) -> None:
        """Mark it sent (again: the lapse moves)."""
        with self._lock:
            self._until["sent:" + mail_id] = self._clock() + seconds
