"""The projection trigger: a burst of commands costs at most one enqueue per partition per interval."""
from __future__ import annotations

import threading
import time

import service.trigger as trigger_mod
from service.connections import make_queue_redis
from service.trigger import ProjectionTrigger
from workers.queues import PROJECTIONS, project_job_id

INTERVAL = 0.1
PARTITIONS = (1, 2, 3)


def test_a_burst_costs_at_most_one_enqueue_per_partition_per_interval(settings, redis_client, monkeypatch):
    """Thousands of notifications on three partitions for 0.6 s, while a stand-in worker keeps finishing
    the jobs: each partition is enqueued again and again, but never twice within one interval; once the
    burst ends its last notifications still get a job."""
    from rq import Queue
    conn = make_queue_redis(settings)
    queue = Queue(PROJECTIONS, connection=conn)
    enqueues: list = []
    real_enqueue, real_batch = trigger_mod.enqueue_partition, trigger_mod.enqueue_partitions

    def recording(q, p):
        enqueues.append((p, time.monotonic()))
        return real_enqueue(q, p)

    def recording_batch(q, ps):  # a partition whose job existed is retried through enqueue_partition
        existing = real_batch(q, ps)
        enqueues.extend((p, time.monotonic()) for p in ps if p not in existing)
        return existing

    monkeypatch.setattr(trigger_mod, "enqueue_partition", recording)
    monkeypatch.setattr(trigger_mod, "enqueue_partitions", recording_batch)
    trigger = ProjectionTrigger(lambda: conn, interval_seconds=INTERVAL)
    working = threading.Event()
    working.set()

    def stand_in_worker():  # takes every queued job at once, as an idle worker would
        while working.is_set():
            queue.empty()
            time.sleep(0.005)

    worker = threading.Thread(target=stand_in_worker, daemon=True)
    worker.start()
    trigger.start()
    try:
        notes = 0
        end = time.monotonic() + 0.6
        while time.monotonic() < end:
            for p in PARTITIONS:
                trigger.notify(p)
                notes += 1
            time.sleep(0.0002)
        working.clear()
        worker.join(5)
        queue.empty()
        for p in PARTITIONS:
            trigger.notify(p)
        deadline = time.monotonic() + 5
        while len(queue.job_ids) < len(PARTITIONS) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        trigger.stop()
    assert notes > 1000
    for p in PARTITIONS:
        times = [t for q, t in enqueues if q == p]
        assert 2 <= len(times) <= 0.6 / INTERVAL + 3, (p, len(times))
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert min(gaps) >= INTERVAL * 0.9, (p, gaps)
    assert sorted(queue.job_ids) == sorted(project_job_id(p) for p in PARTITIONS)


def test_a_partition_whose_job_waits_costs_no_enqueue(settings, redis_client):
    """While a partition's job is still queued, a flush coalesces into it with one status read."""
    from rq import Queue
    conn = make_queue_redis(settings)
    queue = Queue(PROJECTIONS, connection=conn)
    trigger = ProjectionTrigger(lambda: conn, interval_seconds=INTERVAL)
    trigger.notify(7)
    trigger.flush(queue)
    assert trigger.enqueued == 1
    for _ in range(5):
        trigger.notify(7)
        trigger.flush(queue)
    assert trigger.enqueued == 1 and queue.job_ids == [project_job_id(7)]


def test_a_flush_enqueues_every_new_partition_in_one_round_trip(settings, redis_client, monkeypatch):
    """Ten partitions without a job cost a flush two round trips (the status read and one pipeline of
    enqueues), and each gets a queued job a worker can run."""
    from rq import Queue
    from rq.job import Job
    conn = make_queue_redis(settings)
    queue = Queue(PROJECTIONS, connection=conn)
    trigger = ProjectionTrigger(lambda: conn, interval_seconds=INTERVAL)
    for p in range(10):
        trigger.notify(p)
    queue.get_redis_server_version()  # RQ asks once per connection
    trips = []
    real_execute = type(conn.pipeline()).execute
    monkeypatch.setattr(type(conn.pipeline()), "execute", lambda pipe, *a, **k: trips.append(1) or real_execute(pipe, *a, **k))
    monkeypatch.setattr(conn, "execute_command", lambda *a, **k: trips.append(a[0]))  # any lone command fails
    trigger.flush(queue)
    assert trips == [1, 1] and trigger.enqueued == 10
    monkeypatch.undo()
    assert sorted(queue.job_ids) == sorted(project_job_id(p) for p in range(10))
    job = Job.fetch(project_job_id(3), connection=conn)
    assert job.func_name.endswith("project_partition") and job.args == (3,) and job.get_status() == "queued"
