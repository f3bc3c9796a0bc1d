"""Turn deadlines on a real Redis: the projection schedules an RQ job per turn; when it fires and the
player is still waiting it appends turn_timed_out plus the game's on_timeout events, once."""
from __future__ import annotations

from datetime import timedelta

from rq import Queue, SimpleWorker
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from service.store.connections import make_queue_redis
from tests.conftest import drain_projections
from domain.engine.timestamps import parse_time
from workers.deadlines import deadline_job_id, turn_deadline
from workers.queues import DEFAULT as QUEUE
from tests.invites import start_http


def start_race(client, make_user, hours):
    """ann and bob in a dice race with a turn deadline; returns (match id, ann, bob, ann's headers)."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "turn_deadline_hours": hours}, hb)
    return mid, ann, bob, ha, hb


def scheduled(wiring):
    """{job id: (scheduled time, args)} of the deadline queue's scheduled jobs."""
    conn = make_queue_redis(wiring.settings)
    registry = ScheduledJobRegistry(queue=Queue(QUEUE, connection=conn))
    out = {}
    for job_id in registry.get_job_ids():
        job = Job.fetch(job_id, connection=conn)
        out[job_id] = (registry.get_scheduled_time(job), job.args)
    return out


def waiting_since(wiring, mid, player):
    """The read model's waiting-since of a player."""
    return wiring.read_models.rows([mid])[0]["waiting"][player]


def test_a_turn_start_schedules_its_deadline(wiring, client, make_user):
    mid, ann, _bob, _ha, _hb = start_race(client, make_user, 0.5)
    drain_projections(wiring)
    since = waiting_since(wiring, mid, ann)
    jobs = scheduled(wiring)
    job_id = deadline_job_id(mid, ann, since)
    assert list(jobs) == [job_id]
    when, args = jobs[job_id]
    assert args == (mid, ann, since)
    assert abs((when - (parse_time(since) + timedelta(hours=0.5))).total_seconds()) < 1.5


def test_the_fired_job_times_the_turn_out_once(wiring, client, make_user):
    mid, ann, bob, ha, _hb = start_race(client, make_user, 0.25)
    drain_projections(wiring)
    before = client.get(f"/api/matches/{mid}").get_json()["version"]
    conn = make_queue_redis(wiring.settings)
    queue = Queue(QUEUE, connection=conn)
    job = Job.fetch(deadline_job_id(mid, ann, waiting_since(wiring, mid, ann)), connection=conn)
    ScheduledJobRegistry(queue=queue).remove(job)
    queue.enqueue_job(job)
    SimpleWorker([queue], connection=conn).work(burst=True, logging_level="WARNING")
    events = client.get(f"/api/matches/{mid}/events?after={before}", headers=ha).get_json()["events"]
    assert [(e["type"], e["scope"], e["actor"]) for e in events] == [
        ("turn_timed_out", "platform", None), ("die_rolled", "game", None)]
    assert events[0]["data"] == {"player": ann} and events[1]["data"]["player"] == ann
    assert client.get(f"/api/matches/{mid}").get_json()["active_players"] == [bob]
    after = client.get(f"/api/matches/{mid}").get_json()["version"]
    assert turn_deadline(*job.args) == "timed_out"  # the same job again: its command id answers, nothing new
    assert client.get(f"/api/matches/{mid}").get_json()["version"] == after
    drain_projections(wiring)
    assert deadline_job_id(mid, bob, waiting_since(wiring, mid, bob)) in scheduled(wiring)
    assert turn_deadline(*job.args) == "moved_on"


def test_a_player_who_moved_in_time_is_not_timed_out(wiring, client, make_user):
    mid, ann, _bob, ha, _hb = start_race(client, make_user, 1)
    drain_projections(wiring)
    since = waiting_since(wiring, mid, ann)
    assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    version = client.get(f"/api/matches/{mid}").get_json()["version"]
    assert turn_deadline(mid, ann, since) == "moved_on"  # the read model has not caught up: the match decides
    drain_projections(wiring)
    assert turn_deadline(mid, ann, since) == "moved_on"
    assert client.get(f"/api/matches/{mid}").get_json()["version"] == version


def test_no_deadline_option_schedules_nothing(wiring, client, make_user):
    start_race(client, make_user, None)
    drain_projections(wiring)
    assert scheduled(wiring) == {}
