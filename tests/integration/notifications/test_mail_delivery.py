"""Mail for real: an SMTP server on loopback (aiosmtpd) receives each mail once, with plain-text and HTML parts
and a one-click unsubscribe (RFC 8058); an outage delays mail and loses none; STARTTLS, smtps and credentials;
without SMTP each mail is an .eml file."""
from __future__ import annotations

import ssl
import time
from dataclasses import replace

import pytest

from service.app.mail.transport import FileTransport, SmtpTransport
from service.config import Settings
from tests.conftest import HIGH_LIMITS
from tests.mailbox import (Mailbox, html_of, link_path, run_due_retries, run_mail_jobs, scheduled_retries,
                           self_signed, text_of)
from workers.mail import send_mail


@pytest.fixture
def settings(settings, tmp_path):
    """The folder's mailing settings, with a mail directory of this test's."""
    return replace(settings, mail_dir=str(tmp_path / "mail"))


def test_a_mail_has_text_and_html_parts_a_link_and_a_one_click_unsubscribe(wiring, client, make_user, mailbox):
    ann, _ha = make_user("ann")
    wiring.mail.request_verification(ann, "ann@example.com", "en")
    run_mail_jobs(wiring)
    (mail,) = mailbox.to("ann@example.com")
    assert mail.get_content_type() == "multipart/alternative"
    assert "Confirm" in mail["Subject"] and "ann" in text_of(mail) and "<a href=" in html_of(mail)
    assert link_path(mail, "/verify-email/").startswith("/verify-email/")
    assert "http://play.example/verify-email/" in html_of(mail)
    assert mail["From"] == "turnstream <turnstream@localhost>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = mail["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith("http://play.example/unsubscribe/")
    path = unsubscribe.removeprefix("http://play.example")
    page = client.get(path)  # the confirmation page changes nothing
    assert page.status_code == 200 and b"data-unsubscribe" in page.data
    assert wiring.mail.contacts.preferences(ann)["your_move"] == "immediate"
    done = client.post(path, data="List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded")  # what a mail client sends: no cookie
    assert done.status_code == 200 and b"data-unsubscribed" in done.data
    assert wiring.mail.contacts.preferences(ann) == {"your_move": "off", "deadline_reminder_hours": None,
                                                   "invitations": False, "disputes": False}
    assert client.post("/unsubscribe/forged.token").status_code == 404


def test_an_unsubscribe_link_turns_off_its_own_kind_only(wiring, client, make_user):
    ann, _ha = make_user("ann")
    for kind, field, off in (("your_move", "your_move", "off"), ("invitation", "invitations", False),
                             ("reminder", "deadline_reminder_hours", None), ("dispute", "disputes", False)):
        path = wiring.mail.unsubscribe_link(ann, kind).removeprefix("http://play.example")
        before = wiring.mail.contacts.preferences(ann)
        assert client.post(path).status_code == 200
        after = wiring.mail.contacts.preferences(ann)
        assert after == {**before, field: off}, kind


def test_a_retried_job_never_sends_a_mail_twice(wiring, make_user, mailbox):
    ann, _ha = make_user("ann")
    spec = {"id": "verify:test-1", "kind": "verify", "user": ann, "to": "ann@example.com",
            "link": "http://play.example/verify-email/x"}
    assert send_mail(spec) == "sent"
    assert send_mail(spec) == "already_sent"
    assert len(mailbox.to("ann@example.com")) == 1
    assert wiring.mail.post(spec) is True and wiring.mail.post(spec) is False, "one job per mail id"
    run_mail_jobs(wiring)
    assert len(mailbox.to("ann@example.com")) == 1


def test_an_smtp_outage_delays_mail_and_loses_none(wiring, client, make_user, mailbox):
    users = [make_user(name) for name in ("ann", "bob", "cyd")]
    mailbox.stop()
    started = time.monotonic()
    for (uid, headers), name in zip(users, ("ann", "bob", "cyd")):
        answer = client.put("/api/users/me/email", json={"email": f"{name}@example.com"}, headers=headers) \
            if "users.put_email" in client.application.view_functions else None
        if answer is None:
            wiring.mail.request_verification(uid, f"{name}@example.com", "en")
        else:
            assert answer.status_code == 202
    assert time.monotonic() - started < 2, "asking for mail never waits for the SMTP server"
    run_mail_jobs(wiring)
    assert mailbox.messages == [] and scheduled_retries(wiring) == 3, "each failed attempt waits for its retry"
    run_due_retries(wiring)  # still down: they wait again
    assert scheduled_retries(wiring) == 3
    mailbox.start()
    assert run_due_retries(wiring) == 3
    assert sorted(m["To"] for m in mailbox.messages) == ["ann@example.com", "bob@example.com", "cyd@example.com"]
    assert run_due_retries(wiring) == 0 and len(mailbox.messages) == 3, "each arrives once"


def test_without_smtp_each_mail_is_an_eml_file(tmp_path, wiring, make_user):
    folder = tmp_path / "eml"
    import email
    from service.app.mail.compose import Letter, compose
    message = compose(Letter("sign_in", "ann", "http://x/sign-in/t"), "ann@example.com", "ru",
                      "turnstream@localhost", "sign_in:abc", "http://x/unsubscribe/u")
    FileTransport(folder).send(message)
    (path,) = folder.glob("*.eml")
    assert path.name.endswith("sign_in_abc.eml") or "sign_inabc" in path.name
    parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert parsed["To"] == "ann@example.com" and "\u0412\u043e\u0439\u0442\u0438" in text_of(parsed), \
        "in the player's language (Russian here)"


def test_the_worker_writes_eml_files_when_no_smtp_is_configured(redis_url, redis_client, games, tmp_path):
    from service.bootstrap import build
    from workers import context
    w = build(Settings(redis_url=redis_url, mail_dir=str(tmp_path / "mail"), **HIGH_LIMITS), games=games)
    context.use(w)
    try:
        user = w.users.create("ann")
        w.mail.request_verification(user["id"], "ann@example.com", "en")
        run_mail_jobs(w)
        (path,) = (tmp_path / "mail").glob("*.eml")
        assert b"ann@example.com" in path.read_bytes()
    finally:
        context.use(None)
        w.live.stop()


def test_starttls_and_credentials_and_smtps(tmp_path):
    files = self_signed(tmp_path)
    if files is None:
        pytest.skip("openssl is not installed")
    from aiosmtpd.smtp import AuthResult

    def authenticator(server, session, envelope, mechanism, auth_data):
        return AuthResult(success=auth_data.login == b"mailer" and auth_data.password == b"s3cr et")

    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(*files)
    client_tls = ssl.create_default_context(cafile=files[0])
    from service.app.mail.compose import Letter, compose
    message = compose(Letter("sign_in", "ann", "http://x/s"), "ann@example.com", "en", "turnstream@localhost",
                      "m1", "http://x/u")
    starttls = Mailbox(tls=server_tls, authenticator=authenticator).start()
    try:
        SmtpTransport(f"smtp://mailer:s3cr%20et@127.0.0.1:{starttls.port}", context=client_tls).send(message)
        assert starttls.envelopes[0][2] is True and len(starttls.messages) == 1, "upgraded, then logged in"
    finally:
        starttls.stop()
    implicit = Mailbox(tls=server_tls, implicit=True).start()
    try:
        SmtpTransport(f"smtps://127.0.0.1:{implicit.port}", context=client_tls).send(message)
        assert len(implicit.messages) == 1
    finally:
        implicit.stop()


def test_up_writes_mails_into_its_data_folder_and_says_where(tmp_path):
    from service.cli import up_mail
    env: dict = {}
    said = up_mail(env, tmp_path / "var")
    assert env["TURNSTREAM_MAIL_DIR"] == str(tmp_path / "var" / "mail") and env["TURNSTREAM_MAIL_DIR"] in said
    env = {"TURNSTREAM_SMTP_URL": "smtps://mailer:secret@mail.example:2465"}
    said = up_mail(env, tmp_path / "var")
    assert said == "sent through smtps://mail.example:2465" and "TURNSTREAM_MAIL_DIR" not in env
    with pytest.raises(ValueError):
        up_mail({"TURNSTREAM_SMTP_URL": "http://mail.example"}, tmp_path)
