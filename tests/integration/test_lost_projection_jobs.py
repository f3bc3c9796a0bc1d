"""A projection job that a dead worker popped from the queue (its connection kept open by a forked
child) is found by the reconciler and enqueued again, so the partition never stays stale."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from rq import Queue

from service.connections import make_queue_redis
from service.trigger import enqueue_partition
from workers.jobs import release_abandoned
from workers.queues import PROJECTIONS, project_job_id


def test_a_queued_job_missing_from_its_queue_is_released(wiring):
    conn = make_queue_redis(wiring.settings)
    queue = Queue(PROJECTIONS, connection=conn)
    assert enqueue_partition(queue, 5)
    assert release_abandoned(conn, [5]) == [], "a job still in its queue is left alone"
    conn.lrem(queue.key, 0, project_job_id(5))  # what a dead worker's BLPOP did
    assert release_abandoned(conn, [5]) == [], "just popped: it may be starting right now"
    job = queue.fetch_job(project_job_id(5))
    job.enqueued_at = datetime.now(timezone.utc) - timedelta(seconds=30)
    job.save()
    assert release_abandoned(conn, [5]) == [5]
    assert queue.fetch_job(project_job_id(5)) is None
    assert enqueue_partition(queue, 5), "the partition's job can be enqueued again"
    assert conn.lpos(queue.key, project_job_id(5)) is not None
