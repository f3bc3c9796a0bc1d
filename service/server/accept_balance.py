"""Spread keep-alive connections evenly over the gevent web workers: a worker holding more than the least busy
one lets a new connection wait a few milliseconds for a sibling to take it.

Every worker sleeps in the same listening socket. When a burst of connections arrives (a bot fleet, a load
balancer opening its pool), whichever worker wakes first accepts them one after another, and a keep-alive
connection stays with the worker that accepted it: one worker can end up with every client while the other
core idles. The master makes a small shared board before it forks and hands each worker a free slot; each
worker counts its open connections in its own slot, and before it accepts reads its siblings' slots.
"""
from __future__ import annotations

import mmap
import time

SLOTS = 256  # worker slots: far more than the live workers of one server
FREE = -1  # a slot no live worker holds
SLACK = 1  # a worker may hold this many connections more than the least busy sibling
WAIT_SECONDS = 0.002  # how long a deferred accept waits before it looks again
MAX_DEFER_SECONDS = 0.02  # after this long, accept anyway (a sibling that never accepts is busy or stuck)


class Board:
    """Open connections per worker slot, in memory the master shares with every worker it forks."""

    def __init__(self, slots: int = SLOTS):
        self._memory = mmap.mmap(-1, 8 * (slots + 1))  # anonymous and shared: forked workers see each other's writes
        cells = memoryview(self._memory).cast("q")
        self._top = cells[:1]  # one past the highest slot ever handed out: what an accept scans
        self.counts = cells[1:]
        for slot in range(slots):
            self.counts[slot] = FREE

    def take_slot(self) -> int | None:
        """A free slot, now held by a live worker with no connection yet (the master calls this before each
        fork, one worker at a time); None when every slot is held (that worker then never waits)."""
        for slot, count in enumerate(self.counts):
            if count == FREE:
                self.counts[slot] = 0
                self._top[0] = max(self._top[0], slot + 1)
                return slot
        return None

    def leave(self, slot: int) -> None:
        """Mark `slot` free (its worker exited)."""
        self.counts[slot] = FREE

    def should_wait(self, slot: int) -> bool:
        """True when this worker holds more than SLACK connections over its least busy live sibling."""
        mine = self.counts[slot]
        others = [c for i, c in enumerate(self.counts[:self._top[0]]) if i != slot and c != FREE]
        return bool(others) and mine > min(others) + SLACK


def install(worker, board: Board):
    """In a gevent worker: count its connections on `board` and defer accepting while it holds more than its
    share (at most MAX_DEFER_SECONDS per waiting connection). Returns a function `count(delta)` for connections
    the worker holds outside a request (parked live streams), None when the worker has no slot."""
    from gevent.server import StreamServer  # gevent only in a worker: gunicorn's master imports this module too

    slot = getattr(worker, "balance_slot", None)
    if slot is None:
        return None
    handle = worker.handle

    def counted(listener, client, addr):
        board.counts[slot] += 1
        try:
            return handle(listener, client, addr)
        finally:
            board.counts[slot] -= 1
    worker.handle = counted

    accept = StreamServer.do_read
    waiting_since = [None]

    def balanced_read(server):
        if board.should_wait(slot):
            now = time.monotonic()
            if waiting_since[0] is None or now - waiting_since[0] > 2 * MAX_DEFER_SECONDS:  # a new arrival
                waiting_since[0] = now
            if now - waiting_since[0] < MAX_DEFER_SECONDS:
                server.stop_accepting()
                server._timer = server.loop.timer(WAIT_SECONDS)  # stop_accepting closes it, as gevent's own
                server._timer.start(server._start_accepting_if_started)
                return None
        waiting_since[0] = None
        return accept(server)
    StreamServer.do_read = balanced_read

    def count(delta: int) -> None:
        board.counts[slot] += delta
    return count
