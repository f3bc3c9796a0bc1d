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


def enqueue_partitions(queue, partitions: list) -> list:
    """Enqueue project_partition(p) for partitions that have no job hash, all in one pipelined round trip
    (RQ's own unique-enqueue script per job); return the partitions whose job turned out to exist (the
    caller treats those one by one, as enqueue_partition does)."""
    from rq.scripts import get_unique_enqueue_script

    jobs = []
    for p in partitions:
        job = queue.create_job(JOB, args=(p,), job_id=project_job_id(p), result_ttl=0, failure_ttl=60, ttl=3600)
        queue._prepare_for_queue(job)  # origin, enqueued_at, timeout and status, as Queue.enqueue sets them
        jobs.append(job)
    script = get_unique_enqueue_script(queue.connection)
    pipe = queue.connection.pipeline(transaction=False)
    pipe.sadd(queue.redis_queues_keys, queue.key)
    for job in jobs:
        fields = [item for key, value in job.to_dict().items() if value is not None
                  for item in (key, value if isinstance(value, (bytes, str)) else str(value))]
        script(keys=[job.key, queue.key], args=[job.id, "R", job.ttl if job.ttl is not None else -1] + fields,
               client=pipe)
    saved = pipe.execute()[1:]
    return [p for p, ok in zip(partitions, saved) if not ok]


QUEUED = {b"queued", b"deferred", b"scheduled"}  # such a job has not read the log yet: it will read ours
STARTED = b"started"


def job_statuses(conn, partitions: list) -> list:
    """The RQ status (bytes or None) of each partition's projection job, in one pipelined round trip."""
    from rq.job import Job
    pipe = conn.pipeline(transaction=False)
    for p in partitions:
        pipe.hget(Job.key_for(project_job_id(p)), "status")
    return pipe.execute()


class ProjectionTrigger:
    """Collects partitions with new events and enqueues their projection jobs from a background thread,
    at most once per partition per `interval_seconds`: a burst of commands costs one flush per interval,
    and a flush costs one pipelined status read plus one pipelined enqueue of the partitions that have no
    job (a job left finished or failed is replaced one by one). Two round trips, whatever the number of
    partitions: under gevent each round trip waits for every busy request greenlet's turn."""

    def __init__(self, queue_redis_factory, interval_seconds: float = 0.01):
        self._factory = queue_redis_factory
        self._dirty: set = set()
        self._cv = threading.Condition()
        self._halt = threading.Event()
        self._idle = False
        self._thread = None
        self.interval = interval_seconds
        self.enqueued = 0  # RQ enqueues made (a figure for tests and the benchmark)

    def notify(self, p: int) -> None:
        """Mark partition p as having new events (cheap; called on the command path)."""
        with self._cv:
            self._dirty.add(p)
            if self._idle:
                self._cv.notify()

    def start(self) -> None:
        """Start the background thread."""
        if self._thread is None:
            self._halt.clear()
            self._thread = threading.Thread(target=self._run, name="projection-trigger", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the background thread."""
        with self._cv:
            self._halt.set()
            self._cv.notify()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(5)

    def flush(self, queue) -> None:
        """Enqueue a projection job for every dirty partition that has none waiting (used by tests and by
        the thread); partitions whose job is running stay dirty for the next flush."""
        with self._cv:
            remaining, self._dirty = sorted(self._dirty), set()
        retry = []
        try:
            statuses = job_statuses(queue.connection, remaining) if remaining else []
            fresh = [p for p, status in zip(remaining, statuses) if status is None]  # no job: one pipeline
            existing = set(enqueue_partitions(queue, fresh)) if fresh else set()
            self.enqueued += len(fresh) - len(existing)
            while remaining:
                p, status = remaining[0], statuses[len(statuses) - len(remaining)]
                if status == STARTED:
                    retry.append(p)  # it may have read the log before our append
                elif (status is not None or p in existing) and status not in QUEUED:
                    if enqueue_partition(queue, p):
                        self.enqueued += 1
                    else:
                        retry.append(p)
                remaining.pop(0)
        finally:
            with self._cv:
                self._dirty.update(remaining + retry)

    def _run(self) -> None:
        from rq import Queue
        queue = None
        while not self._halt.is_set():
            with self._cv:
                self._idle = True
                while not self._dirty and not self._halt.is_set():
                    self._cv.wait()
                self._idle = False
            if self._halt.is_set():
                return
            try:
                queue = queue or Queue(QUEUE, connection=self._factory())
                self.flush(queue)
            except RedisError as exc:
                log.warning("cannot enqueue projection jobs: %s", exc)
                self._halt.wait(1.0)
            self._halt.wait(self.interval)  # the coalescing window: notes of this interval wait for the next flush
