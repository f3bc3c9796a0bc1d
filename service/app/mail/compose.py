"""A mail as an EmailMessage: plain-text and HTML parts from the templates beside this module, in the player's
language, with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) naming a one-click link."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from .contacts import ALL
from .texts import text

TEMPLATES = Path(__file__).resolve().parent / "templates"


@cache
def _environments() -> tuple[Environment, Environment]:
    loader = FileSystemLoader(str(TEMPLATES))
    return (Environment(loader=loader, autoescape=False, keep_trailing_newline=True),
            Environment(loader=loader, autoescape=select_autoescape(["html"])))


@dataclass
class Letter:
    """What one mail says: its kind (which text and which unsubscribe), the values its texts take, the link it
    leads to, and the items it lists (a digest's matches)."""

    kind: str
    name: str
    action_url: str
    values: dict = field(default_factory=dict)
    items: list = field(default_factory=list)  # [{"label", "url", "note"}]


def compose(letter: Letter, to: str, lang: str, mail_from: str, mail_id: str, unsubscribe_url: str,
            now=None) -> EmailMessage:
    """The message of a letter to `to`, ready for a transport."""
    values = {"name": letter.name, **letter.values}
    subject = text(lang, f"{letter.kind}.subject", **values)
    context = {
        "lang": lang, "subject": subject, "hello": text(lang, "hello", **values),
        "lines": text(lang, f"{letter.kind}.lines", **values), "items": letter.items,
        "action_label": text(lang, f"{letter.kind}.action", **values), "action_url": letter.action_url,
        "footer": text(lang, "footer"), "unsubscribe_url": unsubscribe_url,
        "unsubscribe_label": text(lang, "unsubscribe.all" if letter.kind in ACCOUNT_KINDS else "unsubscribe"),
    }
    plain, html = _environments()
    msg = EmailMessage()
    msg["Subject"] = subject
    msg["From"] = _address(mail_from, "turnstream")
    msg["To"] = to
    msg["Date"] = format_datetime(now or datetime.now(timezone.utc))
    msg["Message-ID"] = make_msgid("turnstream", domain=mail_from.rpartition("@")[2] or "localhost")
    msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Turnstream-Mail-Id"] = mail_id
    msg["X-Turnstream-Kind"] = letter.kind
    msg.set_content(plain.get_template("mail.txt").render(context))
    msg.add_alternative(html.get_template("mail.html").render(context), subtype="html")
    return msg


ACCOUNT_KINDS = ("verify", "sign_in")


def unsubscribe_kind(kind: str) -> str:
    """The kind an unsubscribe link of this mail turns off (account mails: every notification)."""
    return ALL if kind in ACCOUNT_KINDS else kind


def _address(raw: str, display: str):
    """`raw` as a From header value (a bare address gets the display name)."""
    if "<" in raw or "@" not in raw:
        return raw
    local, _, domain = raw.rpartition("@")
    return Address(display, local, domain)
