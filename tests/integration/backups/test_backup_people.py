"""A backup holds everything a restore needs to serve the same people the same way: after export --all into a
fresh Redis, a player signs in by e-mail at the address they proved, in their language, with their preferences,
and an unsubscribe link mailed before the backup still works (the installation's signing keys came along, in a
file readable by its owner only)."""
from __future__ import annotations

import json
import os
import stat

import pytest

from service import create_app
from service.app.backup import export_all, import_files
from service.app.mail.texts import TEXTS
from service.bootstrap import build
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis
from tests.conftest import HIGH_LIMITS
from tests.integration.pages.forms import csrf_of
from tests.mailbox import link_path, run_mail_jobs

PUBLIC = "http://play.example"


def mail_settings(redis_url: str, mailbox) -> Settings:
    return Settings(redis_url=redis_url, rate_limit_per_minute=100000, smtp_url=mailbox.url, public_url=PUBLIC,
                    **HIGH_LIMITS)


@pytest.fixture
def settings(redis_url, mailbox):
    return mail_settings(redis_url, mailbox)


@pytest.fixture
def fresh(tmp_path, games, mailbox):
    """Wiring on a second, empty Redis server with the same mail settings (its mail jobs run in this process)."""
    from workers import context
    server = EmbeddedRedis(tmp_path / "fresh", appendfsync="no").start()
    w = build(mail_settings(server.url, mailbox), games=games)
    yield w
    context.use(None)
    w.live.stop()
    w.users.cache.close()
    server.stop()


def test_a_restored_installation_serves_the_same_people_the_same_way(wiring, client, make_user, mailbox, fresh,
                                                                     tmp_path):
    from workers import context
    ann, ha = make_user("ann")
    client.put("/api/users/me/email", json={"email": "ann@example.com"}, headers={**ha, "Accept-Language": "ru"})
    run_mail_jobs(wiring)
    (verify,) = mailbox.to("ann@example.com")
    assert client.get(link_path(verify, "/verify-email/")).status_code == 200
    unsubscribe = verify["List-Unsubscribe"].strip("<>").removeprefix(PUBLIC)
    prefs = client.put("/api/users/me/notifications", json={"your_move": "digest", "disputes": False},
                       headers=ha).get_json()

    backup = tmp_path / "backup"
    export_all(wiring, backup, say=lambda _m: None)
    assert stat.S_IMODE(os.stat(backup / "installation.json").st_mode) == 0o600
    assert json.loads((backup / "installation.json").read_text())["installation"]["mail_signing_key"]
    counts = import_files(fresh, [backup], say=lambda _m: None)
    assert counts["refused"] == [] and counts["users"] == 1

    context.use(fresh)
    restored = create_app(wiring=fresh).test_client()
    assert restored.get("/api/users/me/notifications", headers=ha).get_json() == prefs
    assert fresh.mail.contacts.digest_readers() == {ann}
    assert restored.post("/api/sessions/email", json={"email": "ann@example.com"}).status_code == 202
    run_mail_jobs(fresh)
    (signing_in,) = [m for m in mailbox.to("ann@example.com") if m["X-Turnstream-Kind"] == "sign_in"]
    assert signing_in["Subject"] == TEXTS["ru"]["sign_in.subject"], "in the language the player chose"
    browser = restored.application.test_client()
    path = link_path(signing_in, "/sign-in/")
    page = browser.get(path)
    signed = browser.post(path, data={"csrf": csrf_of(page.get_data(as_text=True))})
    assert signed.status_code == 303 and browser.get("/account").status_code == 200

    assert restored.get(unsubscribe).status_code == 200, "an unsubscribe link mailed before the backup still works"
    assert restored.post(unsubscribe).status_code == 200
    assert restored.get("/api/users/me/notifications", headers=ha).get_json()["your_move"] == "off"


def test_a_backup_whose_proven_address_is_another_players_here_is_refused(wiring, client, make_user, mailbox, fresh,
                                                                          tmp_path):
    make_user("ann")
    ann = client.post("/api/users", json={"name": "ann2"}).get_json()
    wiring.redis.hset(f"ts:user:{ann['id']}", mapping={"email": "ann@example.com", "email_verified": "1"})
    backup = tmp_path / "backup"
    export_all(wiring, backup, say=lambda _m: None)
    fresh.redis.set("ts:idx:email:ann@example.com", "u_someoneelse")
    counts = import_files(fresh, [backup], say=lambda _m: None)
    assert counts["users"] == 0 and any("proven address is another player's here" in p for p in counts["refused"])


def test_a_rebuild_of_the_read_models_keeps_what_the_players_own(wiring, client, make_user, mailbox):
    """Proven addresses and digest readers are the players' records, not read models: a rebuild keeps them."""
    from projections.rebuild import rebuild_projections
    ann, ha = make_user("ann")
    client.put("/api/users/me/email", json={"email": "ann@example.com"}, headers=ha)
    run_mail_jobs(wiring)
    assert client.get(link_path(mailbox.to("ann@example.com")[-1], "/verify-email/")).status_code == 200
    client.put("/api/users/me/notifications", json={"your_move": "digest"}, headers=ha)
    rebuild_projections(wiring.projector, say=lambda _m: None)
    assert wiring.mail.contacts.owner("ann@example.com") == ann
    assert wiring.mail.contacts.digest_readers() == {ann}
