"""A player's e-mail address (pending until proven), their mail language and their notification preferences,
kept in the user's hash; verified addresses are indexed for sign-in by e-mail."""
from __future__ import annotations

import json
import re

from service.app.errors import Invalid
from service.store.user_records import ContactRecords

IMMEDIATE, DIGEST, OFF = "immediate", "digest", "off"
DEFAULTS = {"your_move": IMMEDIATE, "deadline_reminder_hours": 12, "invitations": True, "disputes": True}
LANGUAGES = ("en", "ru")
MAX_REMINDER_HOURS = 24 * 30
# which preference each kind of mail answers to (and what an unsubscribe link turns off)
KIND_PREFERENCE = {"your_move": "your_move", "digest": "your_move", "reminder": "deadline_reminder_hours",
                   "invitation": "invitations", "dispute": "disputes", "rules_vote": "disputes"}
ALL = "all"  # the unsubscribe kind of account mails (verification, sign-in): every notification off
OFF_VALUE = {"your_move": OFF, "deadline_reminder_hours": None, "invitations": False, "disputes": False}

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@" + _LABEL + r"(?:\." + _LABEL + r")+")
MAX_ADDRESS = 254


def check_address(raw) -> str:
    """A well-formed address (trimmed), or a 400 naming the field."""
    address = raw.strip() if isinstance(raw, str) else ""
    if (not address or len(address) > MAX_ADDRESS or not ADDRESS.fullmatch(address) or ".." in address
            or address.startswith(".") or address.split("@")[0].endswith(".")):
        raise Invalid("not an e-mail address", "invalid_body", fields={"email": ["not a valid e-mail address"]})
    return address


def check_preferences(data: dict) -> dict:
    """Validated preferences (only the fields given), or a 400 naming each bad field."""
    errors, out = {}, {}
    for name, value in data.items():
        if name == "your_move":
            if value in (IMMEDIATE, DIGEST, OFF):
                out[name] = value
            else:
                errors[name] = ["one of immediate, digest, off"]
        elif name == "deadline_reminder_hours":
            if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                 and 0 < value <= MAX_REMINDER_HOURS):
                out[name] = value
            else:
                errors[name] = [f"null or a number of hours above 0, at most {MAX_REMINDER_HOURS}"]
        elif name in ("invitations", "disputes"):
            if isinstance(value, bool):
                out[name] = value
            else:
                errors[name] = ["true or false"]
        else:
            errors[name] = ["unknown field"]
    if errors:
        raise Invalid("the request has invalid fields", "invalid_body", fields=errors)
    return out


def language(accept_language: str | None) -> str:
    """The first language of an Accept-Language header that mails are written in (English otherwise)."""
    for part in (accept_language or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return "en"


class Contacts:
    """E-mail addresses, their proof and the preferences, in the users' records."""

    def __init__(self, records: ContactRecords):
        self.records = records

    def get(self, user_id: str) -> dict:
        """{"email", "email_verified", "lang", "notifications"} of a user (email None when none)."""
        email, verified, lang, prefs = self.records.fields(user_id, ["email", "email_verified", "lang", "notify"])
        return {"email": email or None, "email_verified": bool(email) and verified == "1",
                "lang": lang if lang in LANGUAGES else "en", "notifications": self._prefs(prefs)}

    @staticmethod
    def _prefs(raw: str | None) -> dict:
        try:
            stored = json.loads(raw) if raw else {}
        except ValueError:
            stored = {}
        return {**DEFAULTS, **{k: v for k, v in stored.items() if k in DEFAULTS}}

    def preferences(self, user_id: str) -> dict:
        """The user's notification preferences (the defaults for what they never set)."""
        return self._prefs(self.records.fields(user_id, ["notify"])[0])

    def set_preferences(self, user_id: str, changes: dict) -> dict:
        """Apply validated changes; return the whole preferences (players in digest mode are indexed for the
        daily digest)."""
        prefs = {**self.preferences(user_id), **changes}
        self.records.save_preferences(user_id, json.dumps(prefs, sort_keys=True), prefs["your_move"] == DIGEST)
        return prefs

    def digest_readers(self) -> set:
        """Every player who chose the daily digest."""
        return self.records.digest_readers()

    def unsubscribe(self, user_id: str, kind: str) -> dict:
        """Turn one kind of mail off (ALL: every notification); return the preferences."""
        if kind == ALL:
            return self.set_preferences(user_id, dict(OFF_VALUE))
        name = KIND_PREFERENCE.get(kind)
        return self.set_preferences(user_id, {name: OFF_VALUE[name]}) if name else self.preferences(user_id)

    def set_language(self, user_id: str, lang: str) -> None:
        """The language the user's mails are written in."""
        if lang in LANGUAGES:
            self.records.set_fields(user_id, {"lang": lang})

    def set_pending(self, user_id: str, address: str) -> None:
        """Make `address` the user's unproven address (a verified one they had stops being theirs)."""
        old, verified = self.records.fields(user_id, ["email", "email_verified"])
        release = old if old and verified == "1" and old.casefold() != address.casefold() else None
        kept = old and old.casefold() == address.casefold() and verified == "1"
        self.records.change_address(user_id, None if kept else address, release)

    def verify(self, user_id: str, address: str) -> bool:
        """Mark `address` proven for the user when it is still the one they gave; the address then names this
        user for sign-in (another account that had proven it loses it). False when it is no longer theirs."""
        current = self.records.fields(user_id, ["email"])[0]
        if not current or current.casefold() != address.casefold():
            return False
        previous = self.records.address_owner(address)
        self.records.prove(user_id, address, previous if previous and previous != user_id else None)
        return True

    def owner(self, address: str) -> str | None:
        """The user who proved `address`, or None."""
        user_id = self.records.address_owner(address)
        if not user_id:
            return None
        email, verified = self.records.fields(user_id, ["email", "email_verified"])
        return user_id if email and verified == "1" and email.casefold() == address.casefold() else None

    def verified_address(self, user_id: str) -> str | None:
        """The user's proven address (None when they have none, or it is unproven)."""
        email, verified = self.records.fields(user_id, ["email", "email_verified"])
        return email if email and verified == "1" else None
