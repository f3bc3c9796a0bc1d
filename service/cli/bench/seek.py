"""Replay seek benchmark: replays spread over a match, with and without snapshots."""
from __future__ import annotations

import time

from service.app.errors import NotFound


def measure_seek(history, match_id: str, seeks: int = 50, counter=None) -> dict:
    """Time `seeks` replays spread over a match, with and without snapshots; milliseconds per seek.

    `counter` (optional) is a callable returning how many events have been evolved so far; with it
    the report also gives the most events one seek folded."""
    head = history.store.version(match_id)
    if head < 1:
        raise NotFound.of("match", match_id)
    step = max(1, head // seeks)
    targets = [min(head, (i + 1) * step - 1 or 1) for i in range(seeks)]
    report = {"match": match_id, "events": head, "seeks": len(targets),
              "snapshot_every": getattr(history.snapshots, "every", None)}
    for label, use in (("with_snapshots", True), ("without_snapshots", False)):
        worst = 0
        began = time.perf_counter()
        for v in targets:
            before = counter() if counter else 0
            history.state_at(match_id, v, use_snapshots=use)
            worst = max(worst, (counter() if counter else 0) - before)
        elapsed = time.perf_counter() - began
        report[label] = {"ms_per_seek": round(1000 * elapsed / len(targets), 3)}
        if counter:
            report[label]["max_events_folded"] = worst
    return report
