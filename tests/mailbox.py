"""A real SMTP server on loopback for the mail tests (aiosmtpd), and running the mail jobs in process."""
from __future__ import annotations

import email
import email.policy
import re
import shutil
import socket
import ssl
import subprocess
import threading

import pytest
from aiosmtpd.controller import Controller
from rq import Queue, SimpleWorker
from rq.job import Job
from rq.registry import ScheduledJobRegistry, StartedJobRegistry

from service.store.connections import make_queue_redis
from workers.queues import NOTIFICATIONS

DIGEST_PREFIX = "mail-digest-"  # the daily digest's own scheduled job: not a mail waiting for a retry
LINK = re.compile(r"https?://[^\s<>\"]+")


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mailbox:
    """An SMTP server on 127.0.0.1 that keeps every message it accepts; stop() and start() it again on the same
    port to play an outage. `tls`: a server-side SSLContext (STARTTLS offered; `implicit`: smtps)."""

    def __init__(self, tls: ssl.SSLContext | None = None, implicit: bool = False, authenticator=None):
        self.messages: list = []
        self.envelopes: list = []
        self.port = free_port()
        self.tls, self.implicit, self.authenticator = tls, implicit, authenticator
        self.lock = threading.Lock()
        self.controller = None

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos), session.authenticated))
            self.messages.append(email.message_from_bytes(envelope.original_content, policy=email.policy.default))
        return "250 OK"

    def start(self) -> "Mailbox":
        kwargs = {}
        if self.tls is not None and self.implicit:
            kwargs["ssl_context"] = self.tls
        elif self.tls is not None:
            kwargs.update(tls_context=self.tls, require_starttls=True)
        if self.authenticator is not None:
            kwargs.update(authenticator=self.authenticator, auth_require_tls=True, auth_required=True)
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, ready_timeout=10, **kwargs)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list:
        """The messages addressed to `address`."""
        with self.lock:
            return [m for m in self.messages if m["To"] == address]


def text_of(message) -> str:
    """The plain-text part of a message."""
    return message.get_body(preferencelist=("plain",)).get_content()


def html_of(message) -> str:
    """The HTML part of a message."""
    return message.get_body(preferencelist=("html",)).get_content()


def links(message) -> list:
    """Every link of the plain-text part."""
    return LINK.findall(text_of(message))


def link_path(message, prefix: str) -> str:
    """The path (from `prefix` on) of the message's link that contains `prefix`."""
    found = next(link for link in links(message) if prefix in link)
    return found[found.index(prefix):]


def run_mail_jobs(w) -> None:
    """Run the notifications queue's jobs in this process (as the deliveries worker would)."""
    conn = make_queue_redis(w.settings)
    SimpleWorker([Queue(NOTIFICATIONS, connection=conn)], connection=conn).work(burst=True, logging_level="ERROR")


def run_due_retries(w) -> int:
    """Move every scheduled mail (retries; reminders too) of the notifications queue to the queue now (as if its backoff had passed) and
    run them; return how many there were."""
    conn = make_queue_redis(w.settings)
    queue = Queue(NOTIFICATIONS, connection=conn)
    registry = ScheduledJobRegistry(queue=queue)
    ids = [j for j in registry.get_job_ids() if not j.startswith(DIGEST_PREFIX)]
    for job_id in ids:
        job = Job.fetch(job_id, connection=conn)
        registry.remove(job)
        queue.enqueue_job(job)
    run_mail_jobs(w)
    return len(ids)


def scheduled_retries(w) -> int:
    """How many mail jobs wait for their next attempt."""
    conn = make_queue_redis(w.settings)
    ids = ScheduledJobRegistry(queue=Queue(NOTIFICATIONS, connection=conn)).get_job_ids()
    return len([j for j in ids if not j.startswith(DIGEST_PREFIX)])


def notifications_idle(conn) -> bool:
    """The notifications queue (on the client `conn`) holds no job queued, running or waiting for a retry, the daily
    digest's own scheduled job aside: no mail or webhook is on its way."""
    queue = Queue(NOTIFICATIONS, connection=conn)
    waiting = [j for j in ScheduledJobRegistry(queue=queue).get_job_ids() if not j.startswith(DIGEST_PREFIX)]
    return not queue.count and not waiting and not StartedJobRegistry(queue=queue).get_job_ids()


def self_signed(tmp_path) -> tuple[str, str] | None:
    """(certificate, key) files of a self-signed certificate for 127.0.0.1 (None without openssl)."""
    if shutil.which("openssl") is None:
        return None
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out",
                    str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


def proven(client, wiring, mailbox, make_user, name):
    """A player with a proven address; (id, headers, address)."""
    uid, headers = make_user(name)
    address = f"{name}@example.com"
    client.put("/api/users/me/email", json={"email": address}, headers=headers)
    run_mail_jobs(wiring)
    assert client.get(link_path(mailbox.to(address)[-1], "/verify-email/")).status_code == 200
    return uid, headers, address


def sign_in_mails(mailbox, address) -> list:
    """The sign-in mails `mailbox` received for `address`."""
    return [m for m in mailbox.to(address) if m["X-Turnstream-Kind"] == "sign_in"]


# -- the mail tests' fixtures: a folder's conftest.py (or a test module) imports them
@pytest.fixture
def mailbox():
    """A real SMTP server on loopback for one test."""
    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture(name="settings")
def mailing_settings(redis_url, mailbox):
    """The test settings, mailing through `mailbox`, with links to http://play.example."""
    from service.config import Settings
    from tests.conftest import HIGH_LIMITS
    return Settings(redis_url=redis_url, rate_limit_per_minute=100000, smtp_url=mailbox.url,
                    public_url="http://play.example", **HIGH_LIMITS)
