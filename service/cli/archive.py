"""`turnstream archive [--older-than HOURS] [--match ID ...]`: compact finished matches into their archive records
(service/app/archive.py), with progress, counts and one line per match that could not be archived."""
from __future__ import annotations

import json
import sys
import time

from service.cli.history import _guarded

PROGRESS_SECONDS = 2.0


def run_archive(w, older_than: float, match_ids: list | None = None, as_json: bool = False, out=None,
                err=None) -> int:
    """Archive the given matches, or every finished match last updated `older_than` hours ago or more; exit
    status 0, or 1 when some match failed."""
    from service.app.archive import FAILED, Tally, archive_due, archive_match  # loaded when it runs, not for --help
    out, err = out or sys.stdout, err or sys.stderr
    tally, began = Tally(), time.monotonic()
    last = began

    def seen(outcome: dict) -> None:
        nonlocal last
        tally.add(outcome)
        if outcome["status"] == FAILED:
            print(f"{outcome['match']}: not archived: {outcome.get('reason', '')}", file=err, flush=True)
        now = time.monotonic()
        if now - last >= PROGRESS_SECONDS:
            last = now
            print(f"archive: {tally.done} matches looked at, {tally.counts['archived']} archived "
                  f"({tally.done / (now - began):.0f} matches/s)", file=err, flush=True)

    if match_ids:
        for match_id in match_ids:
            seen(archive_match(w.store, match_id, older_than))
    else:
        archive_due(w.store, w.redis, older_than, on_outcome=seen)
    summary = tally.summary()
    summary["seconds"] = round(time.monotonic() - began, 3)
    if as_json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        print(summary_line(summary), file=out)
    return 1 if summary[FAILED] else 0


def summary_line(summary: dict) -> str:
    """The count line of a run."""
    ratio = (f" ({summary['event_bytes']:,} bytes of events in {summary['record_bytes']:,} bytes of records, "
             f"{summary['record_bytes'] / summary['event_bytes']:.1%})" if summary["event_bytes"] else "")
    return (f"archived {summary['archived']} matches, {summary['events']:,} events{ratio} in "
            f"{summary['seconds']:.1f} s; {summary['already']} already archived, {summary['recent']} too recent, "
            f"{summary['moved']} moved on meanwhile, {summary['not_finished']} not finished, "
            f"{summary['missing']} not found, {summary['failed']} failed")


def cmd_archive(args) -> int:
    """`turnstream archive`."""
    from service.bootstrap import build  # the service loads when the command runs, not for --help
    w = build()
    setting = w.settings.archive_after_hours  # < 0 (off) stops the worker only: the command keeps the default
    hours = args.older_than if args.older_than is not None else (setting if setting >= 0 else 24.0)
    if hours < 0:
        print("turnstream archive: --older-than wants a number of hours, 0 or more", file=sys.stderr)
        return 2
    return run_archive(w, hours, args.match or None, args.json)


def add_commands(sub) -> None:
    """Register `turnstream archive`."""
    p = sub.add_parser(
        "archive", help="compact finished matches into one archive record each (reads stay the same)",
        description="Archive finished matches: each finished match whose last event is at least HOURS old "
                    "(default TURNSTREAM_ARCHIVE_AFTER_HOURS, 24) is compacted into one record in its own hash slot "
                    "(what cannot be recomputed from the events and the revealed seed, zstd-compressed); its stream, "
                    "command table, secret and replay snapshots are removed only once the record is written, read "
                    "back and found to give back every event byte for byte with the hash chain recomputed to the "
                    "stored head. Every read (page, replay, events, audit, export, upgrade-check, projection "
                    "rebuild) answers the same afterwards; nothing more can be appended (chat closes). Safe to run "
                    "twice or to interrupt at any point. Candidates come from the index of finished matches. "
                    "Prints progress on standard error every 2 s, one line per match that could not be archived, "
                    "then a count line. Exit status: 0, 1 when some match failed, 2 when Redis is unreachable.")
    p.add_argument("--older-than", type=float, default=None, metavar="HOURS",
                   help="archive matches whose last event is at least HOURS old (default: "
                        "TURNSTREAM_ARCHIVE_AFTER_HOURS, 24); 0 archives every finished match")
    p.add_argument("--match", action="append", metavar="ID", help="archive this match only (repeatable)")
    p.add_argument("--json", action="store_true", help="print the counts and failures as one JSON document")
    p.set_defaults(func=_guarded(cmd_archive))
