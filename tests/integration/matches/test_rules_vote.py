"""Proposals to move a running match to newer rules, as the players meet them (real Redis): Accept / Decline on the
other player's match page (not the proposer's), the vote sent from the page, /state's `rules_proposal`, the inbox
reason (API and lobby, in words), the mail in the voter's language as their preferences allow, and the expiry (the
scheduled job, or the next access past the deadline) that frees the way for a new proposal."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from rq import Queue
from rq.registry import ScheduledJobRegistry

from domain.games import load_games
from service import create_app
from service.app.history import History
from service.store.connections import make_queue_redis
from tests.conftest import drain_projections
from tests.integration.pages.forms import csrf_of, sign_up
from tests.invites import start_http
from tests.mailbox import mailbox, mailing_settings  # noqa: F401 (fixtures: an SMTP server, settings using it)
from tests.mailbox import link_path, run_mail_jobs, text_of
from tests.unit.versions.race_versions import OLD
from workers.history_jobs import expire_rules_proposal

RU = {"Accept-Language": "ru"}


@pytest.fixture
def games():
    """The real games and the dice race at 2026.11, with newer versions 2027.01-2027.03 installed beside it."""
    found = load_games()
    found[OLD.id] = OLD
    return found


def browser(wiring, name: str) -> SimpleNamespace:
    """A player signed up in a browser of their own (a test client with a session): client, id, headers, csrf."""
    client = create_app(wiring=wiring).test_client()
    token = re.search(r"data-new-token>([^<]+)<", sign_up(client, name)).group(1)
    headers = {"Authorization": f"Bearer {token}"}
    user_id = client.get("/api/users/me", headers=headers).get_json()["id"]
    return SimpleNamespace(client=client, id=user_id, headers=headers, csrf=csrf_of(client.get("/").get_data(as_text=True)))


@pytest.fixture
def table(wiring):
    """Ann and Bob, each in a browser, at a dice race Ann created (Ann moves first); (ann, bob, match id)."""
    ann, bob = browser(wiring, "Ann"), browser(wiring, "Bob")
    mid = start_http(ann.client, ann.headers, {"game": "dice-race", "players": [ann.id, bob.id],
                                               "options": {"target": 50}}, bob.headers)
    return ann, bob, mid


def propose(player, mid, to="2027.01"):
    answer = player.client.post(f"/api/matches/{mid}/rules-proposal", json={"to": to}, headers=player.headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def page(player, mid, headers=None) -> str:
    return player.client.get(f"/matches/{mid}", headers=headers or {}).get_data(as_text=True)


def page_vote(player, mid, accept: bool):
    """What the page's script sends for Accept / Decline: session cookie + X-CSRF-Token."""
    return player.client.post(f"/matches/{mid}/act/rules_vote", json={"accept": accept},
                              headers={"X-CSRF-Token": player.csrf})


def state(player, mid) -> dict:
    return player.client.get(f"/api/matches/{mid}/state", headers=player.headers).get_json()


def inbox(player) -> list:
    matches = player.client.get("/api/users/me/inbox", headers=player.headers).get_json()["matches"]
    return [(m["id"], m["waiting_for"]) for m in matches]


def test_the_other_player_accepts_the_proposal_on_the_match_page(table):
    ann, bob, mid = table
    proposed = propose(ann, mid)
    assert (proposed["status"], proposed["from"], proposed["to"]) == ("open", "2026.11", "2027.01")

    mine = page(ann, mid)
    assert "<strong>Ann</strong> proposes moving this match to rules 2027.01 (it is played under rules 2026.11)" in mine
    assert "data-rules-vote" not in mine and "Waiting for Bob to answer." in mine, "the proposer does not vote"
    theirs = page(bob, mid)
    box = theirs[theirs.index("data-rules-proposal"):]
    assert "Accept rules 2027.01" in box and "Decline" in box and box.count("data-rules-vote") == 2
    assert f'data-countdown="{proposed["deadline"]}"' in box and "Votes close" in box
    russian = page(bob, mid, RU)
    assert "Принять правила 2027.01" in russian and "Отклонить" in russian and "предлагает перевести" in russian
    assert state(bob, mid)["rules_proposal"] == {"id": proposed["id"], "from": "2026.11", "to": "2027.01",
                                                 "by": ann.id, "voters": [bob.id], "accepted": [],
                                                 "expires_at": proposed["deadline"]}

    accepted = page_vote(bob, mid, True)
    assert accepted.status_code == 200 and accepted.get_json()["status"] == "accepted", accepted.get_json()
    after = state(bob, mid)
    assert after["rules_version"] == "2027.01" and after["rules_proposal"] is None
    assert "data-rules-proposal" not in page(bob, mid) and "data-rules-proposal" not in page(ann, mid)


def test_declining_on_the_page_keeps_the_rules_and_a_new_proposal_may_follow(table):
    ann, bob, mid = table
    propose(bob, mid, "2027.03")
    assert "data-rules-vote" in page(ann, mid) and "data-rules-vote" not in page(bob, mid)
    declined = page_vote(ann, mid, False)
    assert declined.status_code == 200 and declined.get_json()["status"] == "rejected"
    assert state(ann, mid)["rules_version"] == "2026.11" and "data-rules-proposal" not in page(ann, mid)
    again = page_vote(ann, mid, True)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "no_rules_vote_open"
    propose(ann, mid)
    refused = bob.client.post(f"/api/matches/{mid}/rules-proposal/decline", headers=ann.headers)
    assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "platform:rules.own-proposal"
    assert bob.client.post(f"/api/matches/{mid}/rules-proposal/decline", headers=bob.headers).get_json()["status"] \
        == "rejected"


def test_the_proposal_is_the_voters_inbox_reason_in_words(table, wiring):
    ann, bob, mid = table
    drain_projections(wiring)
    assert inbox(ann) == [(mid, "turn")] and inbox(bob) == []
    propose(bob, mid)
    drain_projections(wiring)
    assert inbox(ann) == [(mid, "rules_vote")] and inbox(bob) == [], "a quick answer first, then the turn"
    lobby = ann.client.get("/").get_data(as_text=True)
    row = lobby[lobby.index(f'data-inbox-match="{mid}"'):]
    row = row[:row.index("</li>")]
    assert 'data-waiting-for="rules_vote"' in row and "Bob proposes rules 2027.01: vote" in row
    lobby_ru = ann.client.get("/", headers=RU).get_data(as_text=True)
    row_ru = lobby_ru[lobby_ru.index(f'data-inbox-match="{mid}"'):]
    assert "Bob предлагает правила 2027.01: проголосуйте" in row_ru[:row_ru.index("</li>")]
    assert page_vote(ann, mid, True).get_json()["status"] == "accepted"
    drain_projections(wiring)
    assert inbox(ann) == [(mid, "turn")]


def mail_player(client, wiring, mailbox, make_user, name, lang="en", **prefs):
    """A player with a proven address in `lang` (and these preferences); (id, headers, address)."""
    uid, headers = make_user(name)
    address = f"{name}@example.com"
    answer = client.put("/api/users/me/email", json={"email": address}, headers={**headers, "Accept-Language": lang})
    assert answer.status_code == 202
    run_mail_jobs(wiring)
    assert client.get(link_path(mailbox.to(address)[-1], "/verify-email/")).status_code == 200
    if prefs:
        assert client.put("/api/users/me/notifications", json=prefs, headers=headers).status_code == 200
    return uid, headers, address


def rules_mails(mailbox, address) -> list:
    return [m for m in mailbox.to(address) if m["X-Turnstream-Kind"] == "rules_vote"]


def test_the_voters_are_mailed_in_their_language_as_their_preferences_say(client, wiring, make_user, mailbox):
    ann, ha, ann_mail = mail_player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = mail_player(client, wiring, mailbox, make_user, "bob", lang="ru")
    cy, hc, cy_mail = mail_player(client, wiring, mailbox, make_user, "cy", disputes=False)
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob, cy], "options": {"target": 50}}, hb, hc)
    proposed = client.post(f"/api/matches/{mid}/rules-proposal", json={"to": "2027.01"}, headers=ha).get_json()
    drain_projections(wiring)
    run_mail_jobs(wiring)
    drain_projections(wiring)
    run_mail_jobs(wiring)
    (mail,) = rules_mails(mailbox, bob_mail)
    assert mail["Subject"].startswith("ann предлагает новые правила для "), mail["Subject"]
    body = text_of(mail)
    assert "2027.01" in body and "ann" in body and proposed["deadline"][:10] in body
    assert link_path(mail, "/matches/") == f"/matches/{mid}"
    assert rules_mails(mailbox, ann_mail) == [], "not to the proposer"
    assert rules_mails(mailbox, cy_mail) == [], "cy turned vote mails off"
    unsubscribe = client.get(link_path(mail, "/unsubscribe/"), headers=RU).get_data(as_text=True)
    assert "голос" in unsubscribe


def test_the_deadline_closes_the_proposal_through_the_scheduled_job(table, wiring):
    ann, bob, mid = table
    proposed = propose(bob, mid)
    queue = Queue("default", connection=make_queue_redis(wiring.settings))
    assert f"rules-{mid}-{proposed['id']}" in ScheduledJobRegistry(queue=queue).get_job_ids()
    assert expire_rules_proposal(mid, proposed["id"]) == "open"
    assert expire_rules_proposal(mid, proposed["id"], now=proposed["deadline"]) == "expired"
    assert expire_rules_proposal(mid, proposed["id"], now=proposed["deadline"]) == "expired", "idempotent"
    tail = wiring.store.read_range(mid, proposed["version"])
    assert [(e["type"], e["data"]) for e in tail] == [
        ("rules_upgrade_proposed", {"proposal": proposed["id"], "by": bob.id, "from": "2026.11", "to": "2027.01",
                                    "deadline": proposed["deadline"]}),
        ("rules_upgrade_expired", {"proposal": proposed["id"]})]
    assert state(ann, mid)["rules_proposal"] is None and "data-rules-proposal" not in page(ann, mid)
    drain_projections(wiring)
    assert inbox(ann) == [(mid, "turn")]
    log = dict(History.from_wiring(wiring).move_log(mid))
    assert log[tail[-1]["version"]] == "the vote on other rules ran out of time: the match keeps its rules"
    propose(ann, mid)  # the way is free


def test_an_overdue_proposal_expires_on_the_next_access_even_without_the_job(table, wiring, monkeypatch):
    ann, bob, mid = table
    proposed = propose(bob, mid)
    monkeypatch.setattr(wiring.matches, "clock", lambda: "2999-01-01T00:00:00.000Z")
    status = ann.client.get(f"/api/matches/{mid}/rules-upgrade").get_json()
    assert (status["proposal"]["id"], status["proposal"]["status"]) == (proposed["id"], "expired")
    assert propose(ann, mid)["status"] == "open"
