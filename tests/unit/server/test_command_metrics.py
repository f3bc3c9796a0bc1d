"""Command figures written together: none is lost or counted twice, each lands in the bucket observe() would pick,
and a command that was the last in flight is written before its `with` block ends."""
from __future__ import annotations

import threading

from service import metrics
from service.metrics import COMMAND_ROUND_TRIPS, COMMAND_SECONDS, COMMANDS, command_observed


def figures(game: str) -> tuple:
    """(accepted, 409, latency count, latency sum, round-trip buckets) as the process holds them now."""
    latency = COMMAND_SECONDS.labels(game)
    return (COMMANDS.labels(game, "accepted")._value.get(), COMMANDS.labels(game, "409")._value.get(),
            sum(b.get() for b in latency._buckets), latency._sum.get(), [b.get() for b in COMMAND_ROUND_TRIPS._buckets])


class Refused(Exception):
    """A refusal the status function maps to 409."""


def command(game: str, trips: int, refused: bool = False) -> None:
    """One observed command of `game` that made `trips` round trips."""
    try:
        with command_observed(lambda: game, lambda exc: 409):
            for _ in range(trips):
                metrics.count_round_trip()
            if refused:
                raise Refused()
    except Refused:
        pass


def test_the_last_in_flight_writes_at_once():
    """With nothing else in flight a command is counted when its block ends."""
    before = figures("g-alone")
    command("g-alone", 2)
    command("g-alone", 1, refused=True)
    after = figures("g-alone")
    assert after[:3] == (before[0] + 1, before[1] + 1, before[2] + 2)
    assert [a - b for a, b in zip(after[4], before[4])] == [0, 1, 1, 0, 0, 0, 0]


def test_commands_in_flight_hold_the_figures_until_the_last_ends(monkeypatch):
    """While another command is in flight finished ones wait (until FLUSH_SECONDS), then all are written."""
    monkeypatch.setattr(metrics, "FLUSH_SECONDS", 3600)
    before = figures("g-held")
    outer = command_observed(lambda: "g-held", lambda exc: 409)
    outer.__enter__()
    for _ in range(5):
        command("g-held", 1)
    assert figures("g-held") == before
    outer.__exit__(None, None, None)
    after = figures("g-held")
    assert after[0] == before[0] + 6 and after[2] == before[2] + 6 and after[3] > before[3]


def test_flushed_under_load_after_flush_seconds(monkeypatch):
    """Under constant load (always one in flight) a command ending after FLUSH_SECONDS writes what waited."""
    monkeypatch.setattr(metrics, "FLUSH_SECONDS", 0.0)
    before = figures("g-load")
    outer = command_observed(lambda: "g-load", lambda exc: 409)
    outer.__enter__()
    command("g-load", 0)
    assert figures("g-load")[0] == before[0] + 1
    outer.__exit__(None, None, None)


def test_threads_lose_nothing():
    """Commands of several threads at once are each counted once."""
    before = figures("g-threads")
    threads = [threading.Thread(target=lambda: [command("g-threads", 1) for _ in range(500)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = figures("g-threads")
    assert after[0] == before[0] + 2000 and after[2] == before[2] + 2000
