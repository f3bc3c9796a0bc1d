"""Garbage collection for long-running processes: a full collection scans only what is new since the last one.

CPython's full (generation 2) collection walks every container object the process holds. A web worker holds its
match cache (every cached match keeps its envelopes: about two tracked objects per event), so each full collection
paused every request of the worker for longer as the cache grew: 40-120 ms with a few hundred matches cached in
`turnstream bench --http`, and growing with the cache.

Here what the process has built at start, and what survives each full collection afterwards, moves to the
permanent generation (`gc.freeze()`), which collections skip. Cached matches are plain data without reference
cycles, so they are still freed by reference counting when the cache drops them. What a frozen object can no longer
do is be collected as part of a *cycle* that becomes garbage later; a sweep every `sweep_seconds` thaws
everything, collects it once and freezes the survivors again, so such cycles are reclaimed.
"""
from __future__ import annotations

import gc
import logging
import threading
import time

log = logging.getLogger("turnstream.gc")
MAX_UNREPORTED = 10_000  # pauses noted between two reports at most (a few seconds hold a few hundred)


class GenerationalFreeze:
    """Freeze the survivors of every full collection; sweep the frozen objects now and then."""

    def __init__(self, sweep_seconds: float = 900.0, clock=time.monotonic, on_pause=None):
        self.sweep_seconds = sweep_seconds
        self.clock = clock
        self.on_pause = on_pause  # given (generation, seconds) of each collection by `report_pauses`
        self._pauses: list = []  # (generation, seconds) recorded by the callback, not yet reported
        self.last_sweep = clock()
        self.full_collections = 0
        self.sweeps = 0
        self._started = 0.0
        self._installed = False

    def install(self) -> "GenerationalFreeze":
        """Collect once, freeze what the process holds, and from now on freeze after every full collection."""
        if not self._installed:
            gc.collect()
            gc.freeze()
            gc.callbacks.append(self._on_collection)
            self._installed = True
            self.last_sweep = self.clock()
        return self

    def uninstall(self) -> None:
        """Stop freezing and thaw everything (CPython's default behaviour again)."""
        if self._installed:
            gc.callbacks.remove(self._on_collection)
            gc.unfreeze()
            self._installed = False

    def _on_collection(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = info.get("generation", 0)
        if generation == 2:
            self.full_collections += 1
            gc.freeze()  # the survivors are live now: the next full collection skips them
        if self.on_pause is not None and len(self._pauses) < MAX_UNREPORTED:
            # only noted here: a collection can interrupt any code, including a metrics write holding a lock
            self._pauses.append((generation, time.perf_counter() - self._started))

    def report_pauses(self) -> int:
        """Hand the pauses noted since the last call to `on_pause`, outside the collector; how many."""
        pauses, self._pauses = self._pauses, []
        for generation, seconds in pauses:
            self.on_pause(generation, seconds)
        return len(pauses)

    def sweep(self) -> int:
        """Thaw everything, collect it once and freeze the survivors; the count of unreachable objects found."""
        started = time.perf_counter()
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        self.sweeps += 1
        self.last_sweep = self.clock()
        log.info("gc sweep: %d unreachable objects collected, %d objects kept, %.0f ms", collected,
                 gc.get_freeze_count(), (time.perf_counter() - started) * 1000)
        return collected

    def sweep_when_due(self) -> bool:
        """Sweep if `sweep_seconds` have passed since the last sweep; whether it swept."""
        if self.clock() - self.last_sweep < self.sweep_seconds:
            return False
        self.sweep()
        return True

    def run_sweeps(self, stop: threading.Event | None = None, check_seconds: float = 5.0) -> None:
        """Report the pauses and sweep when due until `stop` is set (the body of a daemon thread, or of a
        greenlet under gevent)."""
        stop = stop or threading.Event()
        while not stop.wait(check_seconds):
            if self.on_pause is not None:
                self.report_pauses()
            self.sweep_when_due()


def install(sweep_seconds: float, on_pause=None, name: str = "gc-sweeps") -> GenerationalFreeze | None:
    """Install the policy in this process with a daemon thread sweeping it; None when `sweep_seconds` is 0
    (CPython's own collector unchanged)."""
    if sweep_seconds <= 0:
        return None
    policy = GenerationalFreeze(sweep_seconds, on_pause=on_pause).install()
    threading.Thread(target=policy.run_sweeps, name=name, daemon=True).start()
    return policy
