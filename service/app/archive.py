"""Archiving finished matches: a match finished and quiet for a while (TURNSTREAM_ARCHIVE_AFTER_HOURS) is compacted
into one record in its own hash slot (service/store/archive_codec.py), and its stream, command table, secret and
replay snapshots are removed, only once the record is written, read back and found to give back every stored
event byte for byte with the hash chain recomputed to the stored head. Every read answers the same afterwards
(the store falls back to the record). Nothing is appended to an archived match: the append script refuses.

Steps, each safe to die after (a match is always readable: its stream stays until the last step):
1. read the stream, meta and secret; 2. encode (and check) the record; 3. write it; 4. read it back and decode
it; 5. the switch script drops the rest and marks the meta, if the match is still at the version and head the
record was made from and the stored record is the one checked (a match that moved on meanwhile, a chat message,
keeps its stream and the stale record is dropped). A second run after a crash does the whole thing again; a
run on an archived match changes nothing.
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from domain.engine.json_codec import loads
from domain.engine.timestamps import parse_time

from service.store.archive_codec import ArchiveError, decode, encode
from service.store.archive_index import finished_candidates, not_archived

ARCHIVED = "archived"  # archived now
ALREADY = "already"  # archived before
RECENT = "recent"  # finished, but its last event is newer than the cut-off
NOT_FINISHED = "not_finished"
MISSING = "missing"
MOVED = "moved"  # an event was appended while it was being archived: it stays live (archived by a later run)
FAILED = "failed"
OUTCOMES = (ARCHIVED, ALREADY, RECENT, NOT_FINISHED, MISSING, MOVED, FAILED)
STEPS = ("read", "encoded", "written", "read back", "switched")


def utc_now() -> datetime:
    """Now, in UTC."""
    return datetime.now(timezone.utc)


def archive_match(store, match_id: str, older_than_hours: float, now: datetime | None = None,
                  step=None) -> dict:
    """Archive one match if it is finished and its last event is at least `older_than_hours` old.
    Answers {"match", "status" (one of OUTCOMES), "events", "live_bytes" (its event texts), "record_bytes",
    "reason" (when failed or moved)}. `step(name)` is called after each step (tests stop a run there)."""
    step = step or (lambda name: None)
    out = {"match": match_id, "status": FAILED, "events": 0, "live_bytes": 0, "record_bytes": 0}
    texts, meta, secret = store.archive_source(match_id)
    step("read")
    if meta.get("archived"):
        return dict(out, status=ALREADY, events=int(meta.get("version") or 0))
    if not meta:
        return dict(out, status=MISSING)
    if meta.get("status") != "finished":
        return dict(out, status=NOT_FINISHED)
    version, head = int(meta.get("version") or 0), meta.get("head") or ""
    out.update(events=version, live_bytes=sum(len(t) for t in texts))
    if len(texts) != version:
        return dict(out, reason=f"its stream holds {len(texts)} events where its meta says {version}")
    last = loads(texts[-1]).get("at")
    now = now or utc_now()
    try:
        if parse_time(last) > now - timedelta(hours=older_than_hours):
            return dict(out, status=RECENT)
    except (TypeError, ValueError):
        return dict(out, reason=f"its last event's time {last!r} cannot be read")
    try:
        record = encode(match_id, texts, head, secret)
        step("encoded")
        store.archive_write(match_id, record)
        step("written")
        stored = store.archive_read_back(match_id)
        if stored != record:
            return dict(out, reason="the record read back is not the record written")
        if decode(stored).texts != texts:
            return dict(out, reason="the record read back does not give back the events")
        step("read back")
    except ArchiveError as exc:
        return dict(out, reason=str(exc))
    status, current = store.archive_switch(match_id, version, head, stored)
    step("switched")
    if status == "ok":
        return dict(out, status=ARCHIVED, record_bytes=len(record))
    if status == "already":
        return dict(out, status=ALREADY)
    if status == "moved":
        return dict(out, status=MOVED, reason=f"it moved on to version {current} meanwhile (kept live)")
    return dict(out, reason="the stream or the record changed before the switch (nothing removed)")


# -- many matches ----------------------------------------------------------------------------------------------
class Tally:
    """Counts of a run's outcomes, events and bytes, and its failures."""

    def __init__(self):
        self.counts = {k: 0 for k in OUTCOMES}
        self.events = self.live_bytes = self.record_bytes = 0
        self.failures: list = []

    def add(self, outcome: dict) -> None:
        """Count one match's outcome."""
        self.counts[outcome["status"]] += 1
        if outcome["status"] == ARCHIVED:
            self.events += outcome["events"]
            self.live_bytes += outcome["live_bytes"]
            self.record_bytes += outcome["record_bytes"]
        if outcome["status"] == FAILED:
            self.failures.append(outcome)

    @property
    def done(self) -> int:
        """Matches looked at."""
        return sum(self.counts.values())

    def summary(self) -> dict:
        """The counts as one JSON-able document."""
        return {**self.counts, "checked": self.done, "events": self.events, "event_bytes": self.live_bytes,
                "record_bytes": self.record_bytes,
                "failures": [{"match": f["match"], "reason": f.get("reason", "")} for f in self.failures]}


def archive_due(store, index_redis, older_than_hours: float, now: datetime | None = None, budget_seconds: float | None = None,
                start: float = float("-inf"), on_outcome=None, batch: int = 200) -> tuple[Tally, float | None]:
    """Archive every finished match last updated at least `older_than_hours` ago (from the index of finished
    matches, from score `start` on, oldest first), for at most about `budget_seconds`; `on_outcome(outcome)`
    after each match. Answers (the tally, the score to resume from when the budget ran out, else None). `store`: the
    event store; `index_redis`: the Redis holding its index of finished matches (the events Redis)."""
    now = now or utc_now()
    cutoff = now - timedelta(hours=older_than_hours)
    tally, began, offset = Tally(), time.monotonic(), 0
    while True:
        entries = finished_candidates(index_redis, store.keys, cutoff, start, batch, offset)
        todo = set(not_archived(store, [m for m, _score in entries]))
        for i, (match_id, _score) in enumerate(entries):
            if match_id in todo:
                outcome = archive_match(store, match_id, older_than_hours, now)
                tally.add(outcome)
                if on_outcome is not None:
                    on_outcome(outcome)
            if (budget_seconds is not None and time.monotonic() - began > budget_seconds
                    and i + 1 < len(entries)):
                return tally, entries[i + 1][1]  # resume there (its ties before it are re-read: archived now)
        if len(entries) < batch:
            return tally, None
        last = entries[-1][1]
        # the next page starts at the last score seen (its ties re-read, cheaply: archived or skipped now); a page
        # of one score throughout moves on by offset
        offset = offset + batch if last == start else 0
        start = last
