"""Mail while a player is away: "your move" once per turn with a working link, none when a live stream of the
player was open as it happened; the daily digest lists every waiting match; deadline reminders; invitations;
the unsubscribe link stops them without signing in; an SMTP outage during play loses nothing."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from domain.engine.timestamps import parse_time
from service.store.connections import make_queue_redis
from service.store.presence import now_ms
from tests.conftest import drain_projections
from tests.invites import start_http
from tests.mailbox import link_path, run_due_retries, run_mail_jobs, scheduled_retries, text_of
from tests.waiting import wait_for
from workers.mail import daily_digest, job_id_of_spec
from workers.queues import NOTIFICATIONS


def player(client, wiring, mailbox, make_user, name, **prefs):
    """A player with a proven address (and these preferences); (id, headers, address)."""
    uid, headers = make_user(name)
    address = f"{name}@example.com"
    assert client.put("/api/users/me/email", json={"email": address}, headers=headers).status_code == 202
    run_mail_jobs(wiring)
    assert client.get(link_path(mailbox.to(address)[-1], "/verify-email/")).status_code == 200
    if prefs:
        assert client.put("/api/users/me/notifications", json=prefs, headers=headers).status_code == 200
    return uid, headers, address


def kinds(mailbox, address) -> list:
    """The kinds of mail an address received, in order (the verification left out)."""
    return [m["X-Turnstream-Kind"] for m in mailbox.to(address) if m["X-Turnstream-Kind"] != "verify"]


def settle(wiring):
    """Project what happened and send the mails it calls for (as the worker and the deliveries worker would)."""
    drain_projections(wiring)
    run_mail_jobs(wiring)


def roll(client, mid, headers):
    answer = client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=headers)
    assert answer.status_code == 201, answer.get_json()


def test_the_opponent_moves_while_the_page_is_closed_one_mail_with_a_working_link(wiring, client, make_user,
                                                                                   mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    settle(wiring)
    assert kinds(mailbox, bob_mail) == [] and kinds(mailbox, ann_mail) == ["your_move"]
    roll(client, mid, ha)
    settle(wiring)
    settle(wiring)  # projecting again sends nothing twice
    assert kinds(mailbox, bob_mail) == ["your_move"]
    mail = mailbox.to(bob_mail)[-1]
    assert "Dice race" in mail["Subject"] or "dice" in mail["Subject"].lower()
    assert "ann" in text_of(mail)
    path = link_path(mail, f"/matches/{mid}")
    assert path == f"/matches/{mid}"
    page = client.get(path)
    assert page.status_code == 200 and mid.encode() in page.data


def test_no_mail_about_a_move_the_player_saw_live(wiring, client, make_user, mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    settle(wiring)
    stream = client.get("/api/users/me/stream", headers=hb, buffered=False)  # bob's page is open
    assert stream.status_code == 200
    try:
        roll(client, mid, ha)
        settle(wiring)
        assert kinds(mailbox, bob_mail) == [], "bob watched the move happen"
        roll(client, mid, hb)
        settle(wiring)
        assert kinds(mailbox, ann_mail) == ["your_move", "your_move"], "ann's page is closed"
    finally:
        stream.close()
    wait_for(lambda: not wiring.live.presence.saw(bob, mid, now_ms()), 2, "bob's closed page to count as gone")
    roll(client, mid, ha)  # bob has closed his page: this one is mailed
    settle(wiring)
    assert kinds(mailbox, bob_mail) == ["your_move"]


def test_a_stream_of_another_match_does_not_count_as_seeing_this_one(wiring, client, make_user, mailbox):
    ann, ha, _ = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob")
    first = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    second = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    settle(wiring)
    stream = client.get(f"/api/matches/{first}/stream", headers=hb, buffered=False)
    try:
        roll(client, first, ha)
        roll(client, second, ha)
        settle(wiring)
    finally:
        stream.close()
    mailed = [m for m in mailbox.to(bob_mail) if m["X-Turnstream-Kind"] == "your_move"]
    assert [link_path(m, "/matches/") for m in mailed] == [f"/matches/{second}"]


def test_the_digest_lists_every_waiting_match_in_one_mail_a_day(wiring, client, make_user, mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann", your_move="digest")
    bob, hb, _ = player(client, wiring, mailbox, make_user, "bob")
    waiting = [start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb) for _ in range(3)]
    done = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    roll(client, done, ha)  # bob's move there: not in ann's digest
    settle(wiring)
    assert kinds(mailbox, ann_mail) == [], "digest mode: no mail per move"
    assert daily_digest("2026-12-01") == 1
    assert daily_digest("2026-12-01") == 0, "one digest a day"
    run_mail_jobs(wiring)
    (digest,) = [m for m in mailbox.to(ann_mail) if m["X-Turnstream-Kind"] == "digest"]
    listed = {link.rsplit("/", 1)[1] for link in [path for path in text_of(digest).split() if "/matches/" in path]}
    assert listed == set(waiting)
    assert "3" in digest["Subject"]
    conn = make_queue_redis(wiring.settings)
    scheduled = ScheduledJobRegistry(queue=Queue(NOTIFICATIONS, connection=conn)).get_job_ids()
    assert any(j.startswith("mail-digest-") for j in scheduled), "tomorrow's digest is scheduled"


def test_the_unsubscribe_link_stops_your_move_mail_without_signing_in(wiring, client, make_user, mailbox):
    ann, ha, _ = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    roll(client, mid, ha)
    settle(wiring)
    mail = mailbox.to(bob_mail)[-1]
    assert mail["X-Turnstream-Kind"] == "your_move"
    anonymous = client.application.test_client()  # no cookie, no token
    answer = anonymous.post(mail["List-Unsubscribe"].strip("<>").removeprefix("http://play.example"),
                            data={"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert client.get("/api/users/me/notifications", headers=hb).get_json()["your_move"] == "off"
    roll(client, mid, hb)
    roll(client, mid, ha)
    settle(wiring)
    assert kinds(mailbox, bob_mail) == ["your_move"], "no more 'your move' mail"


def test_a_deadline_reminder_arrives_the_chosen_hours_before_the_deadline(wiring, client, make_user, mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann", deadline_reminder_hours=2,
                               your_move="off")
    bob, hb, _ = player(client, wiring, mailbox, make_user, "bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "turn_deadline_hours": 24, "options": {"target": 100}}, hb)
    drain_projections(wiring)
    since = wiring.read_models.rows([mid])[0]["waiting"][ann]
    conn = make_queue_redis(wiring.settings)
    queue = Queue(NOTIFICATIONS, connection=conn)
    registry = ScheduledJobRegistry(queue=queue)
    spec_id = f"reminder:{ann}:{mid}:{since}"
    job = Job.fetch(job_id_of_spec(spec_id), connection=conn)
    when = registry.get_scheduled_time(job)
    assert abs((when - (parse_time(since) + timedelta(hours=22))).total_seconds()) < 2
    registry.remove(job)
    queue.enqueue_job(job)  # as if 22 hours had passed
    run_mail_jobs(wiring)
    (reminder,) = [m for m in mailbox.to(ann_mail) if m["X-Turnstream-Kind"] == "reminder"]
    assert "2 h" in reminder["Subject"] and link_path(reminder, "/matches/") == f"/matches/{mid}"


def test_no_reminder_once_the_player_has_moved(wiring, client, make_user, mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann", deadline_reminder_hours=1,
                               your_move="off")
    bob, hb, _ = player(client, wiring, mailbox, make_user, "bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "turn_deadline_hours": 5, "options": {"target": 100}}, hb)
    drain_projections(wiring)
    since = wiring.read_models.rows([mid])[0]["waiting"][ann]
    roll(client, mid, ha)
    drain_projections(wiring)
    conn = make_queue_redis(wiring.settings)
    job = Job.fetch(job_id_of_spec(f"reminder:{ann}:{mid}:{since}"), connection=conn)
    assert job.perform() == "moved_on"
    assert kinds(mailbox, ann_mail) == []


def test_invitation_mail_follows_the_preference(wiring, client, make_user, mailbox):
    ann, ha, _ = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob", invitations=False)
    cyd, hc, cyd_mail = player(client, wiring, mailbox, make_user, "cyd")
    answer = client.post("/api/matches", json={"game": "dice-race", "players": [ann, bob, cyd]}, headers=ha)
    mid = answer.get_json()["id"]
    settle(wiring)
    assert kinds(mailbox, bob_mail) == []
    invitation = [m for m in mailbox.to(cyd_mail) if m["X-Turnstream-Kind"] == "invitation"][0]
    assert "ann" in invitation["Subject"] and link_path(invitation, "/matches/") == f"/matches/{mid}"


def test_an_smtp_outage_during_play_delays_every_mail_and_loses_none(wiring, client, make_user, mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob")
    cyd, hc, cyd_mail = player(client, wiring, mailbox, make_user, "cyd")
    duels = [start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
             for _ in range(3)]
    trio = start_http(client, ha, {"game": "dice-race", "players": [ann, cyd, bob], "options": {"target": 100}},
                      hc, hb)
    settle(wiring)
    before = {a: len(kinds(mailbox, a)) for a in (ann_mail, bob_mail, cyd_mail)}
    mailbox.stop()
    started = time.monotonic()
    for mid in duels + [trio]:
        roll(client, mid, ha)
    assert time.monotonic() - started < 2, "commands never wait for mail"
    settle(wiring)
    roll(client, trio, hc)  # cyd moves on before the server is back: her mail (if any) is no longer due
    settle(wiring)
    assert scheduled_retries(wiring) == 5, "3 for bob's duels, cyd's and then bob's turn in the trio"
    run_due_retries(wiring)  # still down: they wait again
    mailbox.start()
    run_due_retries(wiring)
    got = {a: kinds(mailbox, a)[before[a]:] for a in (ann_mail, bob_mail, cyd_mail)}
    assert got == {ann_mail: [], bob_mail: ["your_move"] * 4, cyd_mail: []}
    mailed = {link_path(m, "/matches/") for m in mailbox.to(bob_mail)[-4:]}
    assert mailed == {f"/matches/{mid}" for mid in duels + [trio]}
    assert run_due_retries(wiring) == 0
    settle(wiring)
    assert len(kinds(mailbox, bob_mail)) == before[bob_mail] + 4, "each arrived once"


def test_a_dispute_waiting_for_a_vote_is_mailed_to_the_voters(wiring, client, make_user, mailbox):
    ann, ha, ann_mail = player(client, wiring, mailbox, make_user, "ann")
    bob, hb, bob_mail = player(client, wiring, mailbox, make_user, "bob", your_move="off")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    noted = client.post(f"/api/matches/{mid}/commands", json={"type": "note", "payload": {"text": "hm"}},
                        headers=ha).get_json()["version"]
    settle(wiring)
    answer = client.post(f"/api/matches/{mid}/disputes", json={"version": noted, "reason": "misclick"}, headers=ha)
    assert answer.status_code == 201
    settle(wiring)
    (dispute,) = [m for m in mailbox.to(bob_mail) if m["X-Turnstream-Kind"] == "dispute"]
    assert "misclick" in text_of(dispute) and "ann" in text_of(dispute)
    assert link_path(dispute, "/matches/") == f"/matches/{mid}"
    assert not [m for m in mailbox.to(ann_mail) if m["X-Turnstream-Kind"] == "dispute"], "not to the disputer"
