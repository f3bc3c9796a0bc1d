"""Where a composed mail goes: an SMTP server (TURNSTREAM_SMTP_URL) or, without one, an .eml file in a folder."""
from __future__ import annotations

import os
import smtplib
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import unquote, urlsplit

SMTP_TIMEOUT_SECONDS = 20


class MailNotSent(Exception):
    """The transport could not hand the mail over now (the job is retried with backoff)."""


@dataclass(frozen=True)
class SmtpTarget:
    """An SMTP URL taken apart: smtp://[user[:password]@]host[:port] or smtps://..."""

    host: str
    port: int
    tls: bool  # smtps: TLS from the first byte; smtp: STARTTLS when the server offers it
    user: str = ""
    password: str = ""


def parse_smtp_url(url: str) -> SmtpTarget:
    """The SMTP target of a URL, or ValueError naming what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(f"TURNSTREAM_SMTP_URL must start with smtp:// or smtps://, not {parts.scheme or url!r}")
    if not parts.hostname:
        raise ValueError("TURNSTREAM_SMTP_URL names no host")
    tls = parts.scheme == "smtps"
    return SmtpTarget(parts.hostname, parts.port or (465 if tls else 25), tls,
                      unquote(parts.username or ""), unquote(parts.password or ""))


class SmtpTransport:
    """Sends through an SMTP server: smtps:// wraps the connection in TLS, smtp:// upgrades with STARTTLS
    whenever the server offers it; logs in when the URL carries credentials."""

    def __init__(self, url: str, timeout: float = SMTP_TIMEOUT_SECONDS, context: ssl.SSLContext | None = None):
        self.target = parse_smtp_url(url)
        self.timeout = timeout
        self.context = context or ssl.create_default_context()

    def send(self, message: EmailMessage) -> None:
        """Hand one message to the server, or raise MailNotSent."""
        t = self.target
        try:
            if t.tls:
                smtp = smtplib.SMTP_SSL(t.host, t.port, timeout=self.timeout, context=self.context)
            else:
                smtp = smtplib.SMTP(t.host, t.port, timeout=self.timeout)
            with smtp:
                smtp.ehlo()
                if not t.tls and smtp.has_extn("starttls"):
                    smtp.starttls(context=self.context)
                    smtp.ehlo()
                if t.user:
                    smtp.login(t.user, t.password)
                smtp.send_message(message)
        except (OSError, smtplib.SMTPException) as exc:
            raise MailNotSent(f"{type(exc).__name__}: {exc}") from None

    def where(self) -> str:
        """Where mail goes, for a log line (no credentials)."""
        t = self.target
        return f"{'smtps' if t.tls else 'smtp'}://{t.host}:{t.port}"


class FileTransport:
    """Writes each mail as <folder>/<time>-<mail id>.eml (no SMTP configured: a newcomer can open them). The mails
    hold live sign-in links: each file is 0600 in a 0700 folder, readable by the service's user only."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)

    def send(self, message: EmailMessage) -> None:
        """Write one message (atomically: a reader never sees half a file)."""
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(self.folder, 0o700)  # also a folder an older version made 0755
            ident = "".join(c for c in (message.get("X-Turnstream-Mail-Id") or "mail") if c.isalnum() or c in "-_.")
            path = self.folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{ident[:80]}.eml"
            tmp = path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(fd, "wb") as fh:
                os.fchmod(fh.fileno(), 0o600)  # whatever the umask, and over a stale file
                fh.write(message.as_bytes())
            os.replace(tmp, path)
        except OSError as exc:
            raise MailNotSent(f"cannot write {self.folder}: {exc}") from None

    def where(self) -> str:
        """The folder the mails are written to."""
        return str(self.folder.resolve())


def transport_for(settings):
    """The transport the settings name: SMTP when TURNSTREAM_SMTP_URL is set, else the mail folder."""
    if settings.smtp_url:
        return SmtpTransport(settings.smtp_url)
    return FileTransport(settings.mail_dir)
