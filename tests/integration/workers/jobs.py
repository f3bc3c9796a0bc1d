"""The worker's jobs run in the test process: project, then deadlines and bot turns until nothing is left."""
from __future__ import annotations


def run_jobs(w):
    """Project, then run the deadline and bot-turn jobs, until nothing is left to do (a burst worker's drain)."""
    from service.store.connections import make_queue_redis
    from workers.queues import MAIN
    from workers.runner import drain
    from rq import Queue
    conn = make_queue_redis(w.settings)
    drain(w.projector, [Queue(q, connection=conn) for q in MAIN if q != "projections"], conn, "test-worker")
