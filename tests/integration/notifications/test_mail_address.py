"""An address a player proves: PUT /api/users/me/email mails a single-use link; until it is opened nothing else
is mailed there; preferences with defaults; malformed input is a 400 naming the field."""
from __future__ import annotations

import pytest

from tests.mailbox import link_path, run_mail_jobs


def verify(client, wiring, mailbox, headers, address):
    """Give `address` through the API and open the link it is mailed; the page."""
    answer = client.put("/api/users/me/email", json={"email": address}, headers=headers)
    assert answer.status_code == 202 and answer.get_json() == {"email": address, "email_verified": False}
    run_mail_jobs(wiring)
    return client.get(link_path(mailbox.to(address)[-1], "/verify-email/"))


def test_a_player_proves_an_address_with_a_single_use_link(wiring, client, make_user, mailbox):
    ann, ha = make_user("ann")
    me = client.get("/api/users/me", headers=ha).get_json()
    assert me == {"id": ann, "name": "ann", "email": None, "email_verified": False}
    answer = client.put("/api/users/me/email", json={"email": "ann@example.com"}, headers=ha)
    assert answer.status_code == 202
    assert client.get("/api/users/me", headers=ha).get_json()["email_verified"] is False
    run_mail_jobs(wiring)
    (mail,) = mailbox.to("ann@example.com")
    path = link_path(mail, "/verify-email/")
    page = client.get(path)
    assert page.status_code == 200 and b"ann@example.com is confirmed" in page.data
    assert page.headers["Cache-Control"] == "no-store"
    me = client.get("/api/users/me", headers=ha).get_json()
    assert me["email"] == "ann@example.com" and me["email_verified"] is True
    again = client.get(path)
    assert again.status_code == 410 and b"used already" in again.data
    assert client.get("/verify-email/not-a-token").status_code == 404


def test_a_link_for_an_address_given_up_since_proves_nothing(wiring, client, make_user, mailbox):
    _ann, ha = make_user("ann")
    client.put("/api/users/me/email", json={"email": "old@example.com"}, headers=ha)
    client.put("/api/users/me/email", json={"email": "new@example.com"}, headers=ha)
    run_mail_jobs(wiring)
    stale = client.get(link_path(mailbox.to("old@example.com")[0], "/verify-email/"))
    assert stale.status_code == 404
    assert client.get("/api/users/me", headers=ha).get_json() == {**client.get("/api/users/me", headers=ha).get_json(),
                                                                "email": "new@example.com", "email_verified": False}


def test_nothing_but_the_verification_is_mailed_to_an_unproven_address(wiring, make_user, mailbox, client):
    from workers.mail import send_mail
    ann, ha = make_user("ann")
    client.put("/api/users/me/email", json={"email": "ann@example.com"}, headers=ha)
    assert send_mail({"id": "digest:x", "kind": "digest", "user": ann}) == "no_verified_address"
    run_mail_jobs(wiring)
    assert [m["X-Turnstream-Kind"] for m in mailbox.to("ann@example.com")] == ["verify"]


def test_malformed_addresses_are_400s_naming_the_field(client, make_user):
    _ann, ha = make_user("ann")
    for bad in ("", "ann", "ann@", "@example.com", "ann@example", "a b@example.com", "ann@exa_mple.com",
                "ann@@example.com", 42, None, "x" * 250 + "@example.com", "ann..x@example.com", "ann@exam\nple.com", "ann\u00e9@example.com"):
        answer = client.put("/api/users/me/email", json={"email": bad}, headers=ha)
        assert answer.status_code == 400, bad
        assert "email" in answer.get_json()["error"]["fields"], bad
    assert client.put("/api/users/me/email", json={}, headers=ha).status_code == 400
    assert client.put("/api/users/me/email", json={"email": "ann@example.com"}).status_code == 401


def test_notification_preferences_have_defaults_and_change_field_by_field(client, make_user):
    _ann, ha = make_user("ann")
    defaults = {"your_move": "immediate", "deadline_reminder_hours": 12, "invitations": True, "disputes": True}
    assert client.get("/api/users/me/notifications", headers=ha).get_json() == defaults
    changed = client.put("/api/users/me/notifications", json={"your_move": "digest", "deadline_reminder_hours": 2.5},
                         headers=ha)
    assert changed.status_code == 200
    assert changed.get_json() == {**defaults, "your_move": "digest", "deadline_reminder_hours": 2.5}
    off = client.put("/api/users/me/notifications", json={"deadline_reminder_hours": None, "invitations": False},
                     headers=ha).get_json()
    assert off == {**defaults, "your_move": "digest", "deadline_reminder_hours": None, "invitations": False}
    for field, bad in (("your_move", "sometimes"), ("deadline_reminder_hours", 0), ("deadline_reminder_hours", -1),
                       ("deadline_reminder_hours", "2"), ("deadline_reminder_hours", True), ("invitations", "yes"),
                       ("disputes", 1), ("colour", "red")):
        answer = client.put("/api/users/me/notifications", json={field: bad}, headers=ha)
        assert answer.status_code == 400 and field in answer.get_json()["error"]["fields"], (field, bad)
    assert client.get("/api/users/me/notifications", headers=ha).get_json() == off
    assert client.get("/api/users/me/notifications").status_code == 401


def test_mail_is_written_in_the_language_the_player_asked_in(wiring, client, make_user, mailbox):
    _bob, hb = make_user("bob")
    client.put("/api/users/me/email", json={"email": "bob@example.com"},
               headers={**hb, "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    run_mail_jobs(wiring)
    (mail,) = mailbox.to("bob@example.com")
    assert "\u041f\u043e\u0434\u0442\u0432\u0435\u0440\u0434\u0438\u0442\u0435" in mail["Subject"]
