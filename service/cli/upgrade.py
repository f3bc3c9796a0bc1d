"""`turnstream upgrade-check`: before a deploy, replay every stored match (Redis, or an operator backup folder)
under this code and name each one it would judge differently.

For each match: its audit must hold (hash chain with the match's secret seed, commitment, every revealed draw,
the setup) and `recheck` must find it identical (domain/engine/recheck.py: every derivable event derived again
under the rules the match is pinned to). One line per match that is not; a count line; exit 1 when any is not.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from domain.engine import audit as audit_mod
from domain.engine.recheck import BROKEN, CHANGED, IDENTICAL, recheck

BATCH = 100  # matches read from Redis in one pipelined round trip
PROGRESS_SECONDS = 2.0


def check_match(match_id: str, envelopes: list, games: dict, length: int | None, head: str | None,
                seed: str | None, learned: dict) -> dict:
    """{status, version, rules, reason} of one stored match: a broken chain (or a failed audit) is broken;
    otherwise what recheck says, the audit's other problems last."""
    try:
        report = audit_mod.audit(match_id, envelopes, games, claimed_length=length, claimed_head=head,
                                 seed=bytes.fromhex(seed) if seed else None)
    except Exception as exc:  # an envelope the audit cannot even read
        return {"status": BROKEN, "version": None, "rules": None, "reason": f"the audit fails: {exc}"}
    if report["broken_at"] is not None:
        reason = "; ".join(report["problems"]) or "the hash chain does not verify"
        return {"status": BROKEN, "version": report["broken_at"], "rules": None,
                "reason": f"the hash chain breaks here ({reason})"}
    outcome = recheck(match_id, envelopes, games, learned)
    if outcome["status"] == IDENTICAL and not report["ok"]:
        return {"status": BROKEN, "version": None, "rules": outcome["rules"], "reason": "; ".join(report["problems"])}
    return outcome


def line_of(match_id: str, outcome: dict) -> str:
    """The one line naming a match that is not identical."""
    at = f" at version {outcome['version']}" if outcome.get("version") is not None else ""
    if outcome["status"] == CHANGED:
        return f"{match_id}: changed{at} under rules {outcome.get('rules')}: {outcome['reason']}"
    return f"{match_id}: broken{at}: {outcome['reason']}"


# -- sources: (match id, envelopes, claimed length, claimed head, seed) ------------------------------------------
def stored_matches(store, ids: list):
    """Each stored match with its meta and secret, read BATCH matches per pipelined round trip through the store
    (an archived match from its archive record)."""
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        for match_id, (envelopes, meta, secret) in store.read_matches(batch).items():
            yield match_id, envelopes, int(meta.get("version") or 0), meta.get("head"), secret


def backup_match_files(directory: Path) -> list:
    """The match files of a backup folder (DIR/matches/*.json), or the export documents right in DIR."""
    directory = Path(directory)
    if (directory / "matches").is_dir():
        return sorted((directory / "matches").glob("*.json"))
    return sorted(p for p in directory.glob("*.json") if p.name not in ("users.json", "manifest.json"))


def exported_matches(paths: list):
    """Each match of a backup folder's files (an unreadable file is yielded as an error string)."""
    for path in paths:
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            if not isinstance(doc, dict) or not isinstance(doc.get("events"), list):
                raise ValueError("not a turnstream match export")
        except (OSError, ValueError) as exc:
            yield str(path), f"cannot read {path}: {exc}", None, None, None
            continue
        yield (str(doc.get("match") or Path(path).stem), doc["events"], doc.get("length"), doc.get("head"),
               doc.get("secret_seed") or doc.get("seed"))


# -- the run ----------------------------------------------------------------------------------------------------
class Progress:
    """A line on standard error every PROGRESS_SECONDS: matches done of the total and matches per second."""

    def __init__(self, total: int, err, clock=time.monotonic):
        self.total, self.err, self.clock = total, err, clock
        self.start = self.last = clock()

    def tick(self, done: int) -> None:
        """Report when the last report is PROGRESS_SECONDS old."""
        now = self.clock()
        if now - self.last >= PROGRESS_SECONDS:
            self.last = now
            print(f"upgrade-check: {done}/{self.total} matches ({done / (now - self.start):.0f} matches/s)",
                  file=self.err, flush=True)


def check_one(item: tuple, games: dict, learned: dict) -> tuple[str, dict]:
    """(match id, outcome) of one source item (match id, envelopes or the reason they cannot be read, length,
    head, seed)."""
    match_id, envelopes, length, head, seed = item
    if isinstance(envelopes, str):
        return match_id, {"status": BROKEN, "version": None, "rules": None, "reason": envelopes}
    return match_id, check_match(match_id, envelopes, games, length, head, seed, learned)


_WORKER: dict = {}  # a --jobs process: the installed games, and what recheck learned of them


def _worker_init() -> None:
    from domain.games import load_games
    _WORKER.update(games=load_games(), learned={})


def _worker_check(item: tuple) -> tuple[str, dict]:
    return check_one(item, _WORKER["games"], _WORKER["learned"])


def outcomes(matches, games: dict, jobs: int):
    """(match id, outcome) of every match, in order: in this process, or in `jobs` processes of the installed
    games (the matches read here and handed out in chunks)."""
    if jobs <= 1:
        learned: dict = {}
        yield from (check_one(item, games, learned) for item in matches)
        return
    import multiprocessing
    with multiprocessing.get_context("spawn").Pool(jobs, initializer=_worker_init) as pool:
        yield from pool.imap(_worker_check, matches, chunksize=16)


def run_check(matches, total: int, games: dict, out, err, jobs: int = 1) -> dict:
    """Check every match; print a line per one that is not identical (to `out`, None: nowhere); the summary."""
    counts = {IDENTICAL: 0, CHANGED: 0, BROKEN: 0}
    found, progress = [], Progress(total, err)
    for done, (match_id, outcome) in enumerate(outcomes(matches, games, jobs), 1):
        counts[outcome["status"]] += 1
        if outcome["status"] != IDENTICAL:
            found.append(dict(outcome, match=match_id))
            if out is not None:
                print(line_of(match_id, outcome), file=out, flush=True)
        progress.tick(done)
    seconds = progress.clock() - progress.start
    checked = sum(counts.values())
    return {"checked": checked, "seconds": round(seconds, 3),
            "per_second": round(checked / seconds, 1) if seconds > 0 else None, **counts, "matches": found}


def summary_line(summary: dict) -> str:
    """The count line."""
    rate = f"{summary['per_second']:.0f}" if summary["per_second"] is not None else "-"
    return (f"checked {summary['checked']} matches in {summary['seconds']:.1f} s ({rate} matches/s): "
            f"{summary[IDENTICAL]} identical, {summary[CHANGED]} changed, {summary[BROKEN]} broken")


def upgrade_check(w=None, export: str | None = None, games: dict | None = None, as_json: bool = False,
                  out=None, err=None, jobs: int = 1) -> int:
    """Check the matches of the wiring `w`'s Redis (or of the backup folder `export`) under `games` (default:
    the wiring's, or the installed games; `jobs` > 1: the installed games, in that many processes); exit status
    0 when all are identical, 1 otherwise."""
    out, err = out or sys.stdout, err or sys.stderr
    if export is not None:
        from domain.games import load_games
        paths = backup_match_files(Path(export))
        games = games if games is not None else load_games()
        matches, total = exported_matches(paths), len(paths)
    else:
        games = games if games is not None else w.games
        from service.app.backup import match_ids
        ids = match_ids(w)
        matches, total = stored_matches(w.store, ids), len(ids)
    summary = run_check(matches, total, games, None if as_json else out, err, jobs)
    if as_json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        print(summary_line(summary), file=out)
    return 0 if summary[IDENTICAL] == summary["checked"] else 1


def cmd_upgrade_check(args) -> int:
    """`turnstream upgrade-check`: every stored match (or a backup folder's) replayed under this code."""
    if args.export is not None:
        if not Path(args.export).is_dir():
            print(f"turnstream upgrade-check: {args.export} is not a folder (give the folder "
                  "`turnstream export --all -o DIR` wrote)", file=sys.stderr)
            return 2
        return upgrade_check(export=args.export, as_json=args.json, jobs=args.jobs)
    from service.bootstrap import build
    return upgrade_check(build(), as_json=args.json, jobs=args.jobs)


def _jobs(raw: str) -> int:
    """--jobs: a whole number of processes, 0 meaning one per core."""
    import argparse
    import os
    try:
        n = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError("at least 0 (0: one per core)")
    return n or os.cpu_count() or 1


def add_commands(sub) -> None:
    """Register `turnstream upgrade-check`."""
    from service.cli.history import _guarded
    check = sub.add_parser(
        "upgrade-check", help="before a deploy: replay every stored match under this code (exit 1 if any differs)",
        description="Replay every stored match under the code installed here, as a deploy of it would judge "
                    "them: each match's audit must hold (hash chain verified with the match's secret seed, "
                    "commitment, every revealed draw, the opening setup) and every event the rules derive "
                    "(setup, each command's events from a legal command and the recorded draws, turn "
                    "timeouts, the final result) must be derived again identically under the rules version "
                    "the match is pinned to (match_created's, then each rules_upgraded's). Prints one line per "
                    "match that is not: '<match>: changed at version V under rules R: <reason>' or "
                    "'<match>: broken at version V: <reason>', progress on standard error every 2 s, then "
                    "'checked N matches in S s (M matches/s): K identical, C changed, B broken'. Reads the "
                    "Redis at REDIS_URL (REDIS_CLUSTER=1 for a cluster), or with --export a backup folder. "
                    "Exit status: 0 all identical, 1 some changed or broken, 2 Redis unreachable or a bad "
                    "folder.")
    check.add_argument("--export", metavar="DIR", default=None,
                       help="check the operator backup folder DIR (written by `turnstream export --all -o DIR`: "
                            "DIR/matches/<id>.json) instead of Redis; needs no Redis")
    check.add_argument("--json", action="store_true",
                       help="print the summary and every match that is not identical as one JSON document")
    check.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                       help="check in N processes (default 1; 0: one per core); the matches are read here")
    check.set_defaults(func=_guarded(cmd_upgrade_check))
