"""Jobs that can never finish: started by a worker process that is gone, or queued but lost from their queue."""
from __future__ import annotations

from datetime import datetime, timezone

from rq import Queue
from rq.job import JobStatus

from .queues import alive_key

LOST_AFTER_SECONDS = 5.0  # a "queued" job in no queue list for this long was popped by a dead worker


def orphan_reason(job, queue_conn) -> str | None:
    """Why a job can never run to its end, or None when it may still."""
    status = job.get_status(refresh=False)
    if status == JobStatus.STARTED and not (job.worker_name and queue_conn.exists(alive_key(job.worker_name))):
        return f"its job's worker {job.worker_name} is gone"
    if status == JobStatus.QUEUED and _lost(job, queue_conn):
        return "its queued job was lost from the queue"
    return None


def _lost(job, queue_conn) -> bool:
    """True for a job marked queued that sits in no queue list for a while: a worker that died right
    after popping it (or whose dead connection a forked child kept open) took it with it."""
    queue = Queue(job.origin, connection=queue_conn)
    if queue_conn.lpos(queue.key, job.id) is not None:
        return False
    enqueued = job.enqueued_at
    if enqueued is None:
        return False
    if enqueued.tzinfo is None:
        enqueued = enqueued.replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - enqueued).total_seconds() > LOST_AFTER_SECONDS
