"""Enqueues projection jobs off the command path: a background thread coalesces dirty partitions."""
from __future__ import annotations

import logging
import threading

from redis.exceptions import RedisError

log = logging.getLogger("turnstream.trigger")

from workers.queues import PROJECT_JOB as JOB
from workers.queues import PROJECTIONS as QUEUE
from workers.queues import project_job_id


def enqueue_partition(queue, p: int) -> bool:
    """Enqueue project_partition(p) under the unique id `project-p`; False if a started job may miss us."""
    from rq.exceptions import DuplicateJobError
    from rq.job import Job, JobStatus

    job_id = project_job_id(p)
    try:
        queue.enqueue(JOB, p, job_id=job_id, unique=True, result_ttl=0, failure_ttl=60, ttl=3600)
        return True
    except DuplicateJobError:
        try:
            status = Job.fetch(job_id, connection=queue.connection).get_status(refresh=False)
        except Exception:  # the job vanished between the two calls: try again next round
            return False
        if status in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED):
            return True  # a queued job will read our events: coalesced
        if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED, JobStatus.FINISHED):
            Job.fetch(job_id, connection=queue.connection).delete()
        return False  # running: it may have read the log before our append; retry shortly


class ProjectionTrigger:
    """Collects partitions with new events and enqueues one projection job per partition."""

    def __init__(self, queue_redis_factory, retry_seconds: float = 0.02):
        self._factory = queue_redis_factory
        self._dirty: set = set()
        self._cv = threading.Condition()
        self._thread = None
        self._stop = False
        self.retry_seconds = retry_seconds

    def notify(self, p: int) -> None:
        """Mark partition p as having new events (cheap; called on the command path)."""
        with self._cv:
            self._dirty.add(p)
            self._cv.notify()

    def start(self) -> None:
        """Start the background thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="projection-trigger", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the background thread."""
        with self._cv:
            self._stop = True
            self._cv.notify()

    def flush(self, queue) -> None:
        """Enqueue every dirty partition now (used by tests and by the thread)."""
        with self._cv:
            remaining, self._dirty = sorted(self._dirty), set()
        retry = []
        try:
            while remaining:
                if not enqueue_partition(queue, remaining[0]):
                    retry.append(remaining[0])
                remaining.pop(0)
        finally:
            with self._cv:
                self._dirty.update(remaining + retry)

    def _run(self) -> None:
        from rq import Queue
        queue = None
        while True:
            with self._cv:
                while not self._dirty and not self._stop:
                    self._cv.wait()
                if self._stop:
                    return
            try:
                queue = queue or Queue(QUEUE, connection=self._factory())
                self.flush(queue)
            except RedisError as exc:
                log.warning("cannot enqueue projection jobs: %s", exc)
                self._cv.acquire()
                self._cv.wait(1.0)
                self._cv.release()
            with self._cv:
                if self._dirty and not self._stop:
                    self._cv.wait(self.retry_seconds)
