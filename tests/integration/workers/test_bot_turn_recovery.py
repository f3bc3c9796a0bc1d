"""A bot turn whose job died with its worker (or vanished from its queue) is scheduled again by the
reconciler, so a match with a bot never stalls; a turn that moved on is forgotten (a real Redis)."""
from __future__ import annotations

import time

from tests.conftest import drain_projections
from tests.integration.workers.jobs import run_jobs


def bot_waits(client, make_user, w):
    """Ann against the greedy bot, Ann has moved until the bot must act: (match id, version, queue conn)."""
    from service.store.connections import make_queue_redis
    ann, headers = make_user("ann")
    match = client.post("/api/matches", json={"game": "uchronia", "players": [ann], "bots": ["greedy"]},
                        headers=headers).get_json()
    mid = match["id"]
    for _ in range(20):
        summary = client.get(f"/api/matches/{mid}").get_json()
        if summary["active_players"] == ["bot:greedy:1"]:
            break
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()
        assert client.post(f"/api/matches/{mid}/commands", json=legal["commands"][0], headers=headers).status_code == 201
    drain_projections(w)
    summary = client.get(f"/api/matches/{mid}").get_json()
    assert summary["active_players"] == ["bot:greedy:1"]
    return mid, summary["version"], make_queue_redis(w.settings)


def bots_of(w) -> tuple:
    """What the reconciler hands recover_stalled: the match service and the bots' thinking time."""
    return w.matches, w.settings.bot_ms


def kill_worker_mid_job(conn, job_id: str) -> None:
    """What a worker killed by SIGKILL mid-job leaves: the job started by a worker that is gone."""
    from rq import Queue
    from rq.job import Job, JobStatus
    from workers.queues import BOTS
    job = Job.fetch(job_id, connection=conn)
    conn.lrem(Queue(BOTS, connection=conn).key, 0, job_id)
    job.set_status(JobStatus.STARTED)
    job.worker_name = "killed-worker"
    job.save()


def test_a_bot_turn_whose_worker_died_is_played_after_the_reconciler_runs(client, make_user, fast_bots):
    from workers.bot_turns import PENDING_KEY, bot_turn_job_id, pending_member, recover_stalled
    mid, version, conn = bot_waits(client, make_user, fast_bots)
    member = pending_member(mid, "bot:greedy:1", version)
    assert conn.zscore(PENDING_KEY, member) is not None, "a scheduled bot turn is pending"
    kill_worker_mid_job(conn, bot_turn_job_id(mid, "bot:greedy:1", version))
    run_jobs(fast_bots)
    assert client.get(f"/api/matches/{mid}").get_json()["version"] == version, "the dead job did not run"
    assert recover_stalled(*bots_of(fast_bots), conn) == [], "a turn is not rescheduled before its thinking time is up"
    assert recover_stalled(*bots_of(fast_bots), conn, now=time.time() + 60) == [member]
    run_jobs(fast_bots)
    summary = client.get(f"/api/matches/{mid}").get_json()
    assert summary["version"] > version
    events = client.get(f"/api/matches/{mid}/events?after={version}").get_json()["events"]
    assert events and events[0]["actor"] == "bot:greedy:1"
    assert conn.zscore(PENDING_KEY, member) is None, "a played turn is no longer pending"


def test_a_pending_turn_that_moved_on_is_forgotten_and_a_running_one_is_left_alone(client, make_user, fast_bots):
    from rq.job import Job, JobStatus
    from workers.bot_turns import PENDING_KEY, bot_turn_job_id, pending_member, recover_stalled
    from workers.queues import alive_key
    mid, version, conn = bot_waits(client, make_user, fast_bots)
    member = pending_member(mid, "bot:greedy:1", version)
    job = Job.fetch(bot_turn_job_id(mid, "bot:greedy:1", version), connection=conn)
    job.set_status(JobStatus.STARTED)
    job.worker_name = "busy-worker"
    job.save()
    conn.set(alive_key("busy-worker"), 1, ex=30)
    assert recover_stalled(*bots_of(fast_bots), conn, now=time.time() + 60) == [], "a job on a live worker still runs"
    assert conn.zscore(PENDING_KEY, member) is not None
    stale = pending_member(mid, "bot:greedy:1", version - 1)
    conn.zadd(PENDING_KEY, {stale: time.time() - 120})
    assert recover_stalled(*bots_of(fast_bots), conn, now=time.time() + 60) == []
    assert conn.zscore(PENDING_KEY, stale) is None, "a turn the match has moved past is forgotten"
