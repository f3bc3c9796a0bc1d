"""Polling for tests that wait on other processes: one helper instead of a loop in every file."""
from __future__ import annotations

import asyncio
import time


def wait_for(predicate, timeout: float, what="the condition", interval: float = 0.05):
    """Call `predicate` until it returns something truthy and return that; fail after `timeout` seconds, saying
    `what` was awaited (a function's answer at that moment when `what` is callable: the last state seen)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what() if callable(what) else what}")
        time.sleep(interval)


def next_millisecond() -> int:
    """Wait until the wall clock reads a later millisecond than now and return it: a timestamp kept to the
    millisecond (an event's, a presence mark's) then orders what came before this call and what comes after."""
    start = int(time.time() * 1000)
    return wait_for(lambda: int(time.time() * 1000) > start and int(time.time() * 1000), 1,
                    "the clock to move on a millisecond", interval=0.001)


async def wait_until(predicate, seconds: float, what: str) -> None:
    """Poll `predicate` on the event loop; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(0.05)
