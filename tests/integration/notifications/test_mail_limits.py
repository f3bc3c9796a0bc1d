"""One limit per mailbox and one per account on every path that mails a link: the account page's address form
counts like PUT /api/users/me/email, several accounts cannot flood one mailbox with verification mails, and
verification and sign-in mails to one mailbox share its budget."""
from __future__ import annotations

from dataclasses import replace

import pytest

from service.web.sessions import SESSION_COOKIE, Sessions
from tests.mailbox import run_mail_jobs

LIMIT = 2  # mails an hour, per mailbox and per account (TURNSTREAM_EMAIL_RATE_LIMIT)


@pytest.fixture
def settings(settings):
    """The folder's mailing settings, with LIMIT mails an hour."""
    return replace(settings, email_rate_limit=f"{LIMIT}/hour")


def verify_mails(mailbox, address: str) -> list:
    return [m for m in mailbox.to(address) if m["X-Turnstream-Kind"] == "verify"]


def page_of(client, wiring, user_id: str):
    """A browser signed in as the user; (its client, its CSRF token)."""
    session_id, csrf = Sessions(wiring.redis).create(user_id)
    browser = client.application.test_client()
    browser.set_cookie(SESSION_COOKIE, session_id)
    return browser, csrf


def test_the_account_pages_address_form_is_limited_per_account(wiring, client, make_user, mailbox):
    ann, _ha = make_user("ann")
    browser, csrf = page_of(client, wiring, ann)
    statuses = [browser.post("/account/email", data={"email": f"ann{n}@example.com", "csrf": csrf}).status_code
                for n in range(LIMIT + 1)]
    assert statuses == [200] * LIMIT + [429]


def test_the_page_and_the_api_share_an_accounts_budget(wiring, client, make_user, mailbox):
    ann, ha = make_user("ann")
    browser, csrf = page_of(client, wiring, ann)
    assert browser.post("/account/email", data={"email": "a1@example.com", "csrf": csrf}).status_code == 200
    assert client.put("/api/users/me/email", json={"email": "a2@example.com"}, headers=ha).status_code == 202
    assert client.put("/api/users/me/email", json={"email": "a3@example.com"}, headers=ha).status_code == 429


def test_many_accounts_cannot_flood_one_mailbox(wiring, client, make_user, mailbox):
    headers = [make_user(f"p{n}")[1] for n in range(4)]
    statuses = [client.put("/api/users/me/email", json={"email": "victim@example.com"}, headers=h).status_code
                for h in headers]
    assert statuses == [202] * LIMIT + [429] * (4 - LIMIT)
    run_mail_jobs(wiring)
    assert len(verify_mails(mailbox, "victim@example.com")) == LIMIT


def test_verification_and_sign_in_mails_share_a_mailboxs_budget(wiring, client, make_user, mailbox):
    bob, hb = make_user("bob")
    browser, csrf = page_of(client, wiring, bob)
    assert browser.post("/account/email", data={"email": "Bob@Example.com", "csrf": csrf}).status_code == 200
    assert client.post("/api/sessions/email", json={"email": "bob@example.com"}).status_code == 202
    assert client.post("/api/sessions/email", json={"email": " BOB@example.com"}).status_code == 429
