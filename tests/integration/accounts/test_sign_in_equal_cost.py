"""Sign-in by e-mail costs the same whether or not the address belongs to a player: the request only hands the
address to the notifications queue (who proved it, and the mail, are the job's), so its time does not tell;
and an anonymous request never changes the account: the mail is in the account's own language."""
from __future__ import annotations

import time

import pytest

from service.app.mail.contacts import Contacts
from service.store.user_records import RedisUserRecords
from service.app.mail.texts import TEXTS
from tests.mailbox import mailbox, mailing_settings  # noqa: F401 (fixtures: an SMTP server, settings using it)
from tests.mailbox import proven, run_mail_jobs, sign_in_mails

SAMPLES = 400  # requests per kind of address, interleaved
BLOCK = 5  # an observer judges by the median of this many requests (the probe: 5 samples, 99% right)


def medians(times: list) -> list:
    """The median of each block of BLOCK consecutive times."""
    return [sorted(times[i:i + BLOCK])[BLOCK // 2] for i in range(0, len(times) - BLOCK + 1, BLOCK)]


def told_apart(known: list, unknown: list) -> float:
    """How often an observer who times both addresses BLOCK times, side by side, picks the known one as the
    slower (or, whichever way it leans, the faster) by the medians: 0.5 when the times do not tell."""
    slower = [k > u for k, u in zip(medians(known), medians(unknown))]
    share = sum(slower) / len(slower)
    return max(share, 1 - share)


def test_the_request_never_looks_the_address_up(wiring, client, make_user, mailbox, monkeypatch):
    proven(client, wiring, mailbox, make_user, "ann")

    def looked_up(*_args):
        raise AssertionError("the request looked the address up")
    with monkeypatch.context() as patched:
        patched.setattr(Contacts, "owner", looked_up)
        for address in ("ann@example.com", "nobody@example.com"):
            assert client.post("/api/sessions/email", json={"email": address}).status_code == 202
    run_mail_jobs(wiring)
    assert len(sign_in_mails(mailbox, "ann@example.com")) == 1 and mailbox.to("nobody@example.com") == []


def test_known_and_unknown_addresses_take_the_same_time(wiring, client, make_user, mailbox):
    proven(client, wiring, mailbox, make_user, "ann")
    times = {"ann@example.com": [], "nobody@example.com": []}
    for _ in range(SAMPLES):
        for address, into in times.items():
            started = time.perf_counter()
            assert client.post("/api/sessions/email", json={"email": address}).status_code == 202
            into.append(time.perf_counter() - started)
    accuracy = told_apart(times["ann@example.com"], times["nobody@example.com"])
    assert accuracy < 0.7, f"the medians of {BLOCK} requests tell known from unknown addresses {accuracy:.0%} right"


def test_an_anonymous_request_keeps_the_accounts_language(wiring, client, make_user, mailbox):
    ann, _ha, address = proven(client, wiring, mailbox, make_user, "ann")
    answer = client.post("/api/sessions/email", json={"email": address}, headers={"Accept-Language": "ru"})
    assert answer.status_code == 202
    run_mail_jobs(wiring)
    assert Contacts(RedisUserRecords(wiring.redis)).get(ann)["lang"] == "en"
    (mail,) = sign_in_mails(mailbox, address)
    assert mail["Subject"] == TEXTS["en"]["sign_in.subject"]


@pytest.mark.parametrize("path", ["/api/sessions/email", "/sign-in"])
def test_every_sign_in_path_answers_before_the_lookup(wiring, client, path):
    """Even without a worker, an unknown and a known address are one queued job each."""
    from rq import Queue
    from service.store.connections import make_queue_redis
    from workers.queues import NOTIFICATIONS
    queue = Queue(NOTIFICATIONS, connection=make_queue_redis(wiring.settings))
    before = queue.count
    if path == "/sign-in":
        from tests.integration.pages.forms import csrf_of
        csrf = csrf_of(client.get("/sign-in").get_data(as_text=True))
        client.post(path, data={"email": "nobody@example.com", "csrf": csrf})
    else:
        client.post(path, json={"email": "nobody@example.com"})
    assert queue.count == before + 1
