"""Staying in touch: the caller's e-mail address (proven by a mailed link), notification preferences, and sign-in
links by e-mail (always 202: nobody learns whether an address has an account)."""
from __future__ import annotations

from flask import Blueprint, request
from marshmallow import Schema, ValidationError, fields, validate, validates

from service.app.errors import Invalid
from service.app.mail.contacts import DIGEST, IMMEDIATE, MAX_ADDRESS, MAX_REMINDER_HOURS, OFF, check_address, language
from service.web.http import body, current_user, wiring
from service.web.openapi import documented

bp = Blueprint("mail_api", __name__)


class EmailAddress(Schema):
    """PUT /api/users/me/email, POST /api/sessions/email."""

    email = fields.Str(required=True, validate=validate.Length(min=3, max=MAX_ADDRESS))

    @validates("email")
    def _well_formed(self, value, **_kwargs):
        try:
            check_address(value)
        except Invalid:
            raise ValidationError("not a valid e-mail address") from None


class StrictBool(fields.Bool):
    """true or false, nothing that only looks like one (1, "yes")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("true or false")
        return value


class Notifications(Schema):
    """PUT /api/users/me/notifications: any of the fields (the others keep their values)."""

    your_move = fields.Str(validate=validate.OneOf([IMMEDIATE, DIGEST, OFF]))
    deadline_reminder_hours = fields.Float(allow_none=True, allow_nan=False,
                                           validate=validate.Range(min=0, max=MAX_REMINDER_HOURS, min_inclusive=False))
    invitations = StrictBool()
    disputes = StrictBool()

    @validates("deadline_reminder_hours")
    def _a_number(self, value, **_kwargs):
        raw = (request.get_json(silent=True) or {}).get("deadline_reminder_hours")
        if isinstance(raw, (bool, str)):
            raise ValidationError("null or a number of hours")


def mail_language() -> str:
    """The language this caller's mails are written in (their browser's or client's Accept-Language)."""
    return language(request.headers.get("Accept-Language"))


@bp.put("/api/users/me/email")
@documented("give an address; a single-use verification link is mailed to it (nothing else until it is proven)",
            ok=202, body=EmailAddress, auth="required")
def put_email():
    """Make the address the caller's (unproven until its mailed link is opened) and mail the link."""
    user = current_user()
    data = body(EmailAddress)
    mail = wiring().mail
    address = mail.request_verification(user["id"], data["email"], mail_language())
    return {"email": address, "email_verified": mail.contacts.verified_address(user["id"]) == address}, 202


@bp.get("/api/users/me/notifications")
@documented("which mails the caller gets", auth="required")
def get_notifications():
    """The caller's notification preferences."""
    return wiring().mail.contacts.preferences(current_user()["id"])


@bp.put("/api/users/me/notifications")
@documented("choose which mails the caller gets (the fields sent change, the others stay)", body=Notifications,
            auth="required")
def put_notifications():
    """Change the caller's notification preferences; answers all of them."""
    user = current_user()
    data = body(Notifications)
    return wiring().mail.contacts.set_preferences(user["id"], data)


@bp.post("/api/sessions/email")
@documented("mail a single-use sign-in link (15 minutes) to the player who proved this address; 202 whether or "
            "not one did", ok=202, body=EmailAddress)
def sign_in_by_email():
    """Mail a sign-in link when the address belongs to a player; the same 202 either way (no enumeration)."""
    data = body(EmailAddress)
    wiring().mail.request_sign_in(data["email"])
    return {"sent": "if this address belongs to a player, a sign-in link is on its way"}, 202
