"""`turnstream upgrade-check`: before a deploy, replay every stored match (Redis, or an operator backup folder)
under this code and name each one it would judge differently.

For each match: its audit must hold (hash chain with the match's secret seed, commitment, every revealed draw,
the setup) and `recheck` must find it identical (domain/engine/recheck.py: every derivable event derived again
under the rules the match is pinned to). One line per match that is not; a count line; exit 1 when any is not.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from domain.engine import audit as audit_mod
from domain.engine import platform_events as pe
from domain.engine.recheck import BROKEN, CHANGED, IDENTICAL, recheck
from domain.engine.versions import data_digest
from domain.games import load_games
from service.cli import rules
from service.cli.history import _guarded
from service.store.keys import Keys

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


# -- the rules versions in use: what judged them then, what would judge them now --------------------------------
class VersionsInUse:
    """Every (game, rules version) the checked matches are judged by, the matches on each, and the digests their
    creation recorded; `problems` compares them with this code's and the lock's (a frozen version's) digests."""

    def __init__(self):
        self.matches: dict = {}  # (game, version) -> [match id]
        self.recorded: dict = {}  # (game, version) -> {digest recorded by match_created}

    def note(self, match_id: str, envelopes) -> None:
        """Record the versions one match is judged by (its creation's, then each rules_upgraded's)."""
        if isinstance(envelopes, str):
            return
        game = None
        for env in envelopes:
            data = env.get("data") or {}
            if env.get("scope") != pe.PLATFORM:
                continue
            if env.get("type") == pe.MATCH_CREATED:
                game = data.get("game")
                key = (game, data.get("rules_version"))
                if data.get("rules_digest"):
                    self.recorded.setdefault(key, set()).add(data["rules_digest"])
            elif env.get("type") == pe.RULES_UPGRADED and game is not None:
                key = (game, data.get("to"))
            else:
                continue
            self.matches.setdefault(key, []).append(match_id)

    def watch(self, items):
        """Pass the source's items through, noting each."""
        for item in items:
            self.note(item[0], item[1])
            yield item

    def problems(self, games: dict, lock: dict) -> list:
        """[(game, version, why, [match ids])] for each version in use that this code would judge differently."""
        found, legacy = [], 0
        for (game_id, version), ids in sorted(self.matches.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
            game = games.get(game_id)
            if game is None:
                found.append((game_id, version, "this code has no such game", ids))
                continue
            try:
                rules = game.created_under(version)
            except ValueError:
                found.append((game_id, version, "this code does not have that rules version", ids))
                continue
            now, frozen = rules.rules_digest, (lock.get(game_id) or {}).get(rules.rules_version)
            old = self.recorded.get((game_id, version), set())
            legacy_data = data_digest(rules.table.folder) if rules.table is not None else None
            if frozen is not None and frozen != now:
                found.append((game_id, rules.rules_version, f"it changed since its release (lock {frozen[:12]}, "
                              f"code {now[:12]}): bump the rules version instead", ids))
            elif any(d not in (now, legacy_data, frozen) for d in old):
                was = ", ".join(sorted(d[:12] for d in old if d not in (now, legacy_data, frozen)))
                found.append((game_id, rules.rules_version, f"its code or data changed in place (recorded {was}, "
                              f"code {now[:12]}): bump the rules version instead", ids))
            legacy += sum(1 for d in old if d == legacy_data and d != now)
        self.legacy = legacy
        return found


def version_lines(problems: list) -> list:
    """One line per changed or missing rules version, naming every stored match judged by it."""
    return [f"rules {game} {version}: {why}; {len(ids)} stored match{'es' if len(ids) != 1 else ''} judged by it: "
            f"{', '.join(sorted(set(ids)))}" for game, version, why, ids in problems]


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
    import multiprocessing  # the process machinery loads for --jobs only, not for the command line's --help
    with multiprocessing.get_context("spawn").Pool(jobs, initializer=_worker_init) as pool:
        yield from pool.imap(_worker_check, matches, chunksize=16)


def run_check(matches, total: int, games: dict, out, err, jobs: int = 1, lock: dict | None = None) -> dict:
    """Check every match; print a line per one that is not identical (to `out`, None: nowhere), then one per rules
    version in use that this code changed; the summary."""
    counts = {IDENTICAL: 0, CHANGED: 0, BROKEN: 0}
    found, progress, in_use = [], Progress(total, err), VersionsInUse()
    for done, (match_id, outcome) in enumerate(outcomes(in_use.watch(matches), games, jobs), 1):
        counts[outcome["status"]] += 1
        if outcome["status"] != IDENTICAL:
            found.append(dict(outcome, match=match_id))
            if out is not None:
                print(line_of(match_id, outcome), file=out, flush=True)
        progress.tick(done)
    seconds = progress.clock() - progress.start
    checked = sum(counts.values())
    problems = in_use.problems(games, read_lock() if lock is None else lock)
    if out is not None:
        for line in version_lines(problems):
            print(line, file=out, flush=True)
    return {"checked": checked, "seconds": round(seconds, 3),
            "per_second": round(checked / seconds, 1) if seconds > 0 else None, **counts, "matches": found,
            "rules_changed": [{"game": g, "version": v, "reason": why, "matches": sorted(set(ids))}
                              for g, v, why, ids in problems],
            "recorded_data_only": in_use.legacy}


def read_lock() -> dict:
    """The frozen versions' digests (domain/games/rules.lock.json)."""
    return rules.read_lock()


def summary_line(summary: dict) -> str:
    """The count line."""
    rate = f"{summary['per_second']:.0f}" if summary["per_second"] is not None else "-"
    versions = len(summary.get("rules_changed") or [])
    return (f"checked {summary['checked']} matches in {summary['seconds']:.1f} s ({rate} matches/s): "
            f"{summary[IDENTICAL]} identical, {summary[CHANGED]} changed, {summary[BROKEN]} broken"
            + (f"; {versions} rules version{'s' if versions != 1 else ''} changed in place" if versions else ""))


def upgrade_check(w=None, export: str | None = None, games: dict | None = None, as_json: bool = False,
                  out=None, err=None, jobs: int = 1, allow_empty: bool = False, lock: dict | None = None) -> int:
    """Check the matches of the wiring `w`'s Redis (or of the backup folder `export`) under `games` (default:
    the wiring's, or the installed games; `jobs` > 1: the installed games, in that many processes); exit status
    0 when all are identical and no rules version in use changed, 1 otherwise (also when there is nothing to
    check, unless `allow_empty`)."""
    out, err = out or sys.stdout, err or sys.stderr
    if export is not None:
        paths = backup_match_files(Path(export))
        games = games if games is not None else load_games()
        matches, total = exported_matches(paths), len(paths)
    else:
        games = games if games is not None else w.games
        from service.app.backup import match_ids  # the service loads when the command runs, not for --help
        ids = match_ids(w)
        matches, total = stored_matches(w.store, ids), len(ids)
    if total == 0 and not allow_empty:
        print(f"turnstream upgrade-check: {nothing_here(w, export)}: nothing was checked (--allow-empty when that is "
              "expected)", file=err)
        return 1
    summary = run_check(matches, total, games, None if as_json else out, err, jobs, lock)
    if as_json:
        print(json.dumps(summary, indent=2), file=out)
    else:
        print(summary_line(summary), file=out)
    return 0 if summary[IDENTICAL] == summary["checked"] and not summary["rules_changed"] else 1


def nothing_here(w, export: str | None) -> str:
    """Why a source has no match: an empty folder, an empty Redis, or one that holds no turnstream data."""
    if export is not None:
        return f"{export} holds no match files"
    from service.store.connections import shown_url  # redis-py loads when the command runs, not for --help
    where = shown_url(w.settings.redis_url)
    if w.redis.dbsize() == 0:
        return f"the Redis at {where} is empty"
    if next(iter(w.redis.scan_iter(match=Keys.ANY, count=1000)), None) is None:
        return f"the Redis at {where} holds no turnstream data (another application's database?)"
    return f"the Redis at {where} holds no match"


def cmd_upgrade_check(args) -> int:
    """`turnstream upgrade-check`: every stored match (or a backup folder's) replayed under this code."""
    if args.export is not None:
        if not Path(args.export).is_dir():
            print(f"turnstream upgrade-check: {args.export} is not a folder (give the folder "
                  "`turnstream export --all -o DIR` wrote)", file=sys.stderr)
            return 2
        return upgrade_check(export=args.export, as_json=args.json, jobs=args.jobs, allow_empty=args.allow_empty)
    from service.bootstrap import build  # the service loads when the command runs, not for --help
    return upgrade_check(build(), as_json=args.json, jobs=args.jobs, allow_empty=args.allow_empty)


def _jobs(raw: str) -> int:
    """--jobs: a whole number of processes, 0 meaning one per core."""
    try:
        n = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError("at least 0 (0: one per core)")
    return n or os.cpu_count() or 1


def add_commands(sub) -> None:
    """Register `turnstream upgrade-check`."""
    check = sub.add_parser(
        "upgrade-check", help="before a deploy: replay every stored match under this code (exit 1 if any differs)",
        description="Replay every stored match under the code installed here, as a deploy of it would judge "
                    "them: each match's audit must hold (hash chain verified with the match's secret seed, "
                    "commitment, every revealed draw, the opening setup) and every event the rules derive "
                    "(setup, each command's events from a legal command and the recorded draws, turn "
                    "timeouts, the final result) must be derived again identically under the rules version "
                    "the match is pinned to (match_created's, then each rules_upgraded's). Every rules version in use "
                    "must also be the one its matches were created under: a version whose files' digest differs "
                    "from the one its matches recorded (or from the lock, for a frozen one), or that this code "
                    "lacks, fails the check naming every stored match judged by it. Prints one line per "
                    "match that is not: '<match>: changed at version V under rules R: <reason>' or "
                    "'<match>: broken at version V: <reason>', progress on standard error every 2 s, then "
                    "'checked N matches in S s (M matches/s): K identical, C changed, B broken'. Reads the "
                    "Redis at REDIS_URL (REDIS_CLUSTER=1 for a cluster), or with --export a backup folder. "
                    "Settings are read from the environment and ./.env. Exit status: 0 all identical, 1 some "
                    "changed or broken, a rules version changed, or nothing to check (see --allow-empty), 2 "
                    "Redis unreachable or a bad folder.")
    check.add_argument("--export", metavar="DIR", default=None,
                       help="check the operator backup folder DIR (written by `turnstream export --all -o DIR`: "
                            "DIR/matches/<id>.json) instead of Redis; needs no Redis")
    check.add_argument("--json", action="store_true",
                       help="print the summary and every match that is not identical as one JSON document")
    check.add_argument("--allow-empty", action="store_true",
                       help="exit 0 when there is no match to check (else an empty or foreign database is an error)")
    check.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                       help="check in N processes (default 1; 0: one per core); the matches are read here")
    check.set_defaults(func=_guarded(cmd_upgrade_check))
