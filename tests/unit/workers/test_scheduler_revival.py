"""A worker whose RQ scheduler process died starts a new one, unless the worker is stopping: RQ ended its scheduler
itself then, and would wait for ever for one started behind its back."""
from __future__ import annotations

from workers.runner import revive_scheduler


class _Dead:
    def is_alive(self) -> bool:
        return False


class _Scheduler:
    """RQ's scheduler as the worker holds it: its process, and the locks whose taking starts a new one."""
    def __init__(self):
        self._process = _Dead()
        self.released = False

    def release_locks(self):
        self.released = True

    def acquire_locks(self, auto_start: bool = False):
        if auto_start:
            self._process = object()


class _Worker:
    name = "w1"

    def __init__(self, shutdown_requested=None, stop_requested=False):
        self.scheduler = _Scheduler()
        self._shutdown_requested_date = shutdown_requested
        self._stop_requested = stop_requested


def test_a_dead_scheduler_of_a_running_worker_is_started_again():
    worker = _Worker()
    assert revive_scheduler(worker) is True and worker.scheduler.released


def test_a_stopping_worker_is_left_to_stop():
    for worker in (_Worker(shutdown_requested="2026-12-02T14:00:00Z"), _Worker(stop_requested=True)):
        process = worker.scheduler._process
        assert revive_scheduler(worker) is False
        assert worker.scheduler._process is process and not worker.scheduler.released
