"""Sign in by e-mail: always 202 (no enumeration), a single-use link valid 15 minutes that signs that browser in,
expired and used links say so and offer a new one, rate limits per address and per e-mail; the account page lists
signed-in sessions and ends them."""
from __future__ import annotations

import re

import pytest

from service.config import Settings
from tests.conftest import HIGH_LIMITS
from tests.mailbox import link_path, proven, run_mail_jobs, sign_in_mails

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def open_link(browser, path):
    """Open a sign-in link as a browser does: the page, then its form (with the page's CSRF token)."""
    page = browser.get(path)
    if page.status_code != 200:
        return page
    return browser.post(path, data={"csrf": CSRF.search(page.get_data(as_text=True)).group(1)})


def test_the_sign_in_link_works_once_in_another_browser(wiring, client, make_user, mailbox):
    ann, _ha, address = proven(client, wiring, mailbox, make_user, "ann")
    browser = client.application.test_client()  # another browser: no cookie
    answer = browser.post("/api/sessions/email", json={"email": "ANN@example.com"})
    assert answer.status_code == 202
    run_mail_jobs(wiring)
    (mail,) = sign_in_mails(mailbox, address)
    path = link_path(mail, "/sign-in/")
    page = browser.get(path)  # opening the link: a page whose form the browser sends at once
    assert page.status_code == 200 and b"data-auto-submit" in page.data and b"/static/sign_in.js" in page.data
    assert browser.get("/account").status_code == 303, "fetching the page signs nothing in"
    assert browser.post(path).status_code == 403, "a form without this browser's CSRF token signs nobody in"
    signed = browser.post(path, data={"csrf": CSRF.search(page.get_data(as_text=True)).group(1)})
    assert signed.status_code == 303 and signed.headers["Location"].endswith("/account")
    account = browser.get("/account")
    assert account.status_code == 200 and b"Signed in as <strong>ann</strong>" in account.data
    assert b"ann@example.com</strong> (confirmed)" in account.data
    third = client.application.test_client()
    used = third.get(path)
    assert used.status_code == 410 and b"used already" in used.data and b'action="/sign-in"' in used.data
    csrf = CSRF.search(used.get_data(as_text=True)).group(1)
    assert third.post(path, data={"csrf": csrf}).status_code == 410
    assert third.get("/account").status_code == 303, "a used link signs nobody in"


def test_an_unknown_or_unproven_address_gets_the_same_202_and_no_mail(wiring, client, make_user, mailbox):
    proven(client, wiring, mailbox, make_user, "ann")
    _bob, hb = make_user("bob")
    client.put("/api/users/me/email", json={"email": "bob@example.com"}, headers=hb)  # never proven
    run_mail_jobs(wiring)
    known = client.post("/api/sessions/email", json={"email": "ann@example.com"})
    for address in ("nobody@example.com", "bob@example.com"):
        unknown = client.post("/api/sessions/email", json={"email": address})
        assert (unknown.status_code, unknown.get_json()) == (known.status_code, known.get_json())
    run_mail_jobs(wiring)
    assert mailbox.to("nobody@example.com") == []
    assert [m["X-Turnstream-Kind"] for m in mailbox.to("bob@example.com")] == ["verify"]
    assert len(sign_in_mails(mailbox, "ann@example.com")) == 1
    bad = client.post("/api/sessions/email", json={"email": "not an address"})
    assert bad.status_code == 400 and "email" in bad.get_json()["error"]["fields"]


def test_an_expired_link_says_so_and_offers_a_new_one(wiring, client, make_user, mailbox, monkeypatch):
    _ann, _ha, address = proven(client, wiring, mailbox, make_user, "ann")
    client.post("/api/sessions/email", json={"email": address})
    run_mail_jobs(wiring)
    path = link_path(sign_in_mails(mailbox, address)[0], "/sign-in/")
    import service.app.mail.service as mail_service
    monkeypatch.setattr(mail_service, "SIGN_IN_SECONDS", -1)  # as if 15 minutes had passed
    browser = client.application.test_client()
    page = browser.get(path)
    assert page.status_code == 410 and b"expired" in page.data
    csrf = CSRF.search(page.get_data(as_text=True)).group(1)
    assert browser.post(path, data={"csrf": csrf}).status_code == 410 and browser.get("/account").status_code == 303
    again = browser.post("/sign-in", data={"email": address, "csrf": csrf})
    assert again.status_code == 202 and b"on its way" in again.data
    monkeypatch.undo()
    run_mail_jobs(wiring)
    fresh = link_path(sign_in_mails(mailbox, address)[-1], "/sign-in/")
    assert fresh != path and open_link(browser, fresh).status_code == 303


def test_a_player_signed_out_everywhere_gets_back_in_with_a_new_token(wiring, client, make_user, mailbox):
    _ann, ha, address = proven(client, wiring, mailbox, make_user, "ann")
    assert client.delete("/api/users/me/token", headers=ha).status_code == 204
    client.post("/api/sessions/email", json={"email": address})
    run_mail_jobs(wiring)
    browser = client.application.test_client()
    signed = open_link(browser, link_path(sign_in_mails(mailbox, address)[0], "/sign-in/"))
    assert signed.status_code == 303 and signed.headers["Location"].endswith("/welcome")
    token = re.search(r'data-new-token>([^<]+)<', browser.get("/welcome").get_data(as_text=True)).group(1)
    assert client.get("/api/users/me", headers={"Authorization": f"Bearer {token}"}).get_json()["name"] == "ann"


def test_the_account_page_lists_signed_in_browsers_and_ends_one(wiring, client, make_user, mailbox):
    _ann, ha, address = proven(client, wiring, mailbox, make_user, "ann")
    browsers = []
    for _ in range(2):
        browser = client.application.test_client()
        client.post("/api/sessions/email", json={"email": address})
        run_mail_jobs(wiring)
        assert open_link(browser, link_path(sign_in_mails(mailbox, address)[-1], "/sign-in/")).status_code == 303
        browsers.append(browser)
    first, second = browsers
    page = first.get("/account").get_data(as_text=True)
    assert page.count("data-end-session") == 2 and "(this browser)" in page
    other = re.findall(r'action="/account/sessions/([0-9a-f]{64})/end"', page)
    mine = re.search(r'data-session="([0-9a-f]{12})">[^<]*<span[^>]*>[^<]*</span>\s*<strong>\(this browser\)', page)
    target = next(d for d in other if not mine or not d.startswith(mine.group(1)))
    csrf = CSRF.search(page).group(1)
    ended = first.post(f"/account/sessions/{target}/end", data={"csrf": csrf})
    assert ended.status_code == 200 and b"That session has ended" in ended.data
    assert second.get("/account").status_code == 303, "the other browser is signed out"
    assert first.get("/account").status_code == 200
    assert first.post(f"/account/sessions/{target}/end", data={"csrf": csrf}).status_code == 404
    assert first.post(f"/account/sessions/{target}/end", data={"csrf": "forged"}).status_code == 403


def test_preferences_from_the_account_page(wiring, client, make_user, mailbox):
    _ann, ha, address = proven(client, wiring, mailbox, make_user, "ann")
    client.post("/api/sessions/email", json={"email": address})
    run_mail_jobs(wiring)
    browser = client.application.test_client()
    open_link(browser, link_path(sign_in_mails(mailbox, address)[0], "/sign-in/"))
    csrf = CSRF.search(browser.get("/account").get_data(as_text=True)).group(1)
    saved = browser.post("/account/notifications", data={"csrf": csrf, "your_move": "digest",
                                                         "deadline_reminder_hours": "3", "disputes": "on"})
    assert saved.status_code == 200 and b"Saved." in saved.data
    assert client.get("/api/users/me/notifications", headers=ha).get_json() == {
        "your_move": "digest", "deadline_reminder_hours": 3, "invitations": False, "disputes": True}
    bad = browser.post("/account/notifications", data={"csrf": csrf, "your_move": "digest",
                                                       "deadline_reminder_hours": "soon"})
    assert bad.status_code == 400


@pytest.fixture
def limited_settings(redis_url, mailbox):
    return Settings(redis_url=redis_url, rate_limit_per_minute=100000, smtp_url=mailbox.url,
                    **{**HIGH_LIMITS, "email_rate_limit": "2/hour", "signin_rate_limit": "3/hour"})


def test_sign_in_mails_are_rate_limited_per_address_and_per_e_mail(limited_settings, redis_client, games):
    from service import create_app
    from service.bootstrap import build
    w = build(limited_settings, games=games)
    try:
        client = create_app(wiring=w).test_client()
        statuses = [client.post("/api/sessions/email", json={"email": "ann@example.com"}).status_code
                    for _ in range(3)]
        assert statuses == [202, 202, 429], "per e-mail: 2 an hour"
        other = client.post("/api/sessions/email", json={"email": "bob@example.com"})
        assert other.status_code == 429, "per client address: 3 an hour in all"
        assert "Retry-After" in other.headers
    finally:
        w.live.stop()
