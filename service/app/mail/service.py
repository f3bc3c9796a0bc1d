"""The mail use cases: prove an address, preferences, sign-in links, one-click unsubscribe, and the outbox
that hands every mail to an RQ job on the notifications queue (retried with backoff, sent once per id)."""
from __future__ import annotations

import hashlib
import logging
import re

from service.store.mail_marks import MailMarks

from .contacts import Contacts, check_address
from .tokens import SIGN_IN_SECONDS, VERIFY_SECONDS, LinkRefused, MailTokens

log = logging.getLogger("turnstream.mail")

JOB = "workers.mail.send_mail"
SIGN_IN_JOB = "workers.mail.sign_in_requested"  # finds who proved an address and mails them a link
MARK_TTL_SECONDS = 30 * 24 * 3600
# seconds between attempts while the SMTP server is away: the last interval repeats, so ~24 attempts span about
# a day (an outage delays mail, loses none; a longer one leaves the job in RQ's failed registry to requeue)
RETRY_INTERVALS = [5, 15, 30, 60, 120, 300, 600, 1800, 3600]
RETRY_MAX = 24
# where a sign-in link may return to: a match page of this site (a signed link never carries another address)
RETURN_PATH = re.compile(r"/matches/[A-Za-z0-9_\-]{1,64}")


def return_path(raw) -> str | None:
    """`raw` when it is a page a sign-in link may return to (a match page), else None."""
    return raw if isinstance(raw, str) and RETURN_PATH.fullmatch(raw) else None


def job_id_of(mail_id: str) -> str:
    """The RQ job id of a mail (RQ allows letters, digits, _ and -)."""
    return "mail-" + hashlib.sha256(mail_id.encode()).hexdigest()[:40]


class MailService:
    """Mail use cases over the users' hashes and the notifications queue (`queue_factory()` gives the RQ queue)."""

    def __init__(self, marks: MailMarks, users, public_url: str, queue_factory=None):
        self.marks = marks  # mails queued and sent (never twice), links opened, the link signing key
        self.users = users
        self.contacts = Contacts(users.records)  # addresses and preferences live in the users' records
        self.tokens = MailTokens(marks)
        self.public_url = public_url.rstrip("/")
        self.queue_factory = queue_factory

    def url(self, path: str) -> str:
        """An absolute link into the service."""
        return self.public_url + path

    # -- the outbox ------------------------------------------------------------------------------------------
    def post(self, spec: dict, at=None) -> bool:
        """Hand one mail to the queue once per id (`spec`: {"id", "kind", "user", ...}, read by the job), to be
        sent now or at `at` (an aware datetime); False when that id was posted already."""
        from rq import Retry  # the queue library loads when a mail is queued, not for the command line's --help
        if not self.marks.queue_once(spec["id"], MARK_TTL_SECONDS):
            return False
        options = dict(job_id=job_id_of(spec["id"]), retry=Retry(max=RETRY_MAX, interval=RETRY_INTERVALS),
                       result_ttl=24 * 3600, failure_ttl=30 * 24 * 3600)
        try:
            if at is None:
                self.queue_factory().enqueue(JOB, spec, **options)
            else:
                self.queue_factory().enqueue_at(at, JOB, spec, **options)
        except Exception:
            self.marks.unqueue(spec["id"])  # not queued: a later attempt may post it again
            raise
        return True

    def was_sent(self, mail_id: str) -> bool:
        """True once the mail with this id has been handed over."""
        return self.marks.sent(mail_id)

    def mark_sent(self, mail_id: str) -> None:
        """Remember that this mail was handed over (a retry of its job sends nothing)."""
        self.marks.mark_sent(mail_id, MARK_TTL_SECONDS)

    # -- the address ------------------------------------------------------------------------------------------
    def request_verification(self, user_id: str, raw_address: str, lang: str) -> str:
        """Make `raw_address` the user's pending address and mail it a single-use verification link; return it."""
        address = check_address(raw_address)
        self.contacts.set_pending(user_id, address)
        self.contacts.set_language(user_id, lang)
        if self.contacts.verified_address(user_id) == address:
            return address  # already proven: nothing to mail
        token = self.tokens.single_use("verify", u=user_id, e=address)
        self.post({"id": "verify:" + hashlib.sha256(token.encode()).hexdigest()[:32], "kind": "verify",
                   "user": user_id, "to": address, "link": self.url(f"/verify-email/{token}")})
        return address

    def verify(self, token: str) -> tuple[str, str]:
        """(user id, address) proven by a verification link (single use), or LinkRefused."""
        data = self.tokens.peek("verify", token, VERIFY_SECONDS)
        if not self.contacts.verify(str(data["u"]), str(data["e"])):
            raise LinkRefused("invalid")
        self.tokens.spend("verify", token, VERIFY_SECONDS)
        return str(data["u"]), str(data["e"])

    # -- sign in by e-mail ----------------------------------------------------------------------------------
    def request_sign_in(self, raw_address: str, back: str | None = None) -> None:
        """Hand a request for a sign-in link to the notifications queue: the same work whether or not a player
        proved this address (who did, and the mail, are the job's: `send_sign_in`), so neither the answer nor
        its time tells. The request never changes the account: the mail is in its own language. `back`: the
        match page the link returns to (kept only when it is one)."""
        address = check_address(raw_address)
        self.queue_factory().enqueue(SIGN_IN_JOB, address, return_path(back), result_ttl=0,
                                     failure_ttl=24 * 3600)

    def send_sign_in(self, address: str, back: str | None = None) -> bool:
        """Mail a sign-in link to the user who proved `address` (signed with the match page `back`, if any);
        False (and no mail) for an unknown one."""
        user_id = self.contacts.owner(address)
        if user_id is None:
            return False
        back = return_path(back)
        token = self.tokens.single_use("sign-in", u=user_id, **({"b": back} if back else {}))
        self.post({"id": "sign_in:" + hashlib.sha256(token.encode()).hexdigest()[:32], "kind": "sign_in",
                   "user": user_id, "to": self.contacts.verified_address(user_id) or address,
                   "link": self.url(f"/sign-in/{token}")})
        return True

    def check_sign_in(self, token: str) -> str:
        """The user a sign-in link is for, if it still works (not spent), or LinkRefused."""
        return str(self.tokens.peek("sign-in", token, SIGN_IN_SECONDS)["u"])

    def sign_in(self, token: str) -> tuple[str, str | None]:
        """(the user a sign-in link signs in, the match page it returns to or None), spending it (single use),
        or LinkRefused."""
        data = self.tokens.spend("sign-in", token, SIGN_IN_SECONDS)
        user_id = str(data["u"])
        if self.users.get(user_id) is None:
            raise LinkRefused("invalid")
        return user_id, return_path(data.get("b"))

    # -- unsubscribe ------------------------------------------------------------------------------------------
    def unsubscribe_link(self, user_id: str, kind: str) -> str:
        """The one-click link that turns `kind` mail off for the user (no sign-in)."""
        return self.url(f"/unsubscribe/{self.tokens.unsubscribe(user_id, kind)}")

    def unsubscribe(self, token: str) -> tuple[str, str]:
        """Turn off the kind of mail a link names; (user id, kind), or LinkRefused."""
        user_id, kind = self.tokens.read_unsubscribe(token)
        if self.users.get(user_id) is None:
            raise LinkRefused("invalid")
        self.contacts.unsubscribe(user_id, kind)
        return user_id, kind
