"""Signed links in mails (itsdangerous): one-click unsubscribe (no expiry), address verification and sign-in
(timed, single use). The signing key is made once and kept in Redis, so every process checks every link."""
from __future__ import annotations

import secrets

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from service.store.mail_marks import MailMarks

VERIFY_SECONDS = 7 * 24 * 3600
SIGN_IN_SECONDS = 15 * 60


class LinkRefused(Exception):
    """A link that cannot be used: `why` is "invalid", "expired" or "used"."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class MailTokens:
    """Makes and checks the tokens of mail links."""

    def __init__(self, marks: MailMarks):
        self.marks = marks
        self._key = None

    def _serializer(self, purpose: str) -> URLSafeTimedSerializer:
        if self._key is None:
            self._key = self.marks.signing_key(lambda: secrets.token_urlsafe(48))
        return URLSafeTimedSerializer(self._key, salt=f"turnstream-{purpose}")

    # -- unsubscribe: {user, kind}, valid for as long as the key is ------------------------------------------
    def unsubscribe(self, user_id: str, kind: str) -> str:
        """The token of a one-click link turning `kind` mail off for `user_id`."""
        return self._serializer("unsubscribe").dumps({"u": user_id, "k": kind})

    def read_unsubscribe(self, token: str) -> tuple[str, str]:
        """(user id, kind) of an unsubscribe token, or LinkRefused("invalid")."""
        try:
            data = self._serializer("unsubscribe").loads(token)
            return str(data["u"]), str(data["k"])
        except (BadSignature, KeyError, TypeError):
            raise LinkRefused("invalid") from None

    # -- timed single-use links ------------------------------------------------------------------------------
    def single_use(self, purpose: str, **data) -> str:
        """A timed token for `purpose` carrying `data` and a fresh nonce."""
        return self._serializer(purpose).dumps({**data, "n": secrets.token_urlsafe(12)})

    def peek(self, purpose: str, token: str, max_age: int) -> dict:
        """The data of a still valid, unused token (not spent), or LinkRefused."""
        try:
            data = self._serializer(purpose).loads(token, max_age=max_age)
        except SignatureExpired:
            raise LinkRefused("expired") from None
        except BadSignature:
            raise LinkRefused("invalid") from None
        if not isinstance(data, dict) or "n" not in data:
            raise LinkRefused("invalid")
        if self.marks.link_used(str(data["n"])):
            raise LinkRefused("used")
        return data

    def spend(self, purpose: str, token: str, max_age: int) -> dict:
        """The data of a valid token, marking it used (exactly one caller wins), or LinkRefused."""
        data = self.peek(purpose, token, max_age)
        if not self.marks.use_link(str(data["n"]), max_age + 3600):
            raise LinkRefused("used")
        return data
