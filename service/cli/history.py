"""`turnstream replay`, `turnstream audit` (online or --file offline), `export` (one match or --all) and `import`."""
from __future__ import annotations

import argparse
import json
import re
import sys

from domain.games import load_games
from service.logs import say


def _history():
    # the service loads when the command runs, not for the command line's --help
    from service.app.history import History
    from service.bootstrap import build
    return History.from_wiring(build())


def _fail(message: str) -> int:
    print(f"turnstream: {message}", file=sys.stderr)
    return 2


def _guarded(run):
    """Run a command, turning API and Redis errors into a one-line message and exit status 2; a Redis that
    cannot work as configured (a cluster node without REDIS_CLUSTER=1) is said so before anything is read."""
    def wrapper(args) -> int:
        # redis-py and the service load when the command runs, not for the command line's --help
        from redis.exceptions import RedisError

        from service.app.errors import AppError
        from service.config import from_env
        from service.store.connections import Misconfigured, check_topology, redis_problem
        settings = from_env()
        try:
            if not getattr(args, "file", None):  # `audit --file` reads no Redis
                check_topology(settings)
            return run(args)
        except Misconfigured as exc:
            return _fail(str(exc))
        except AppError as exc:
            return _fail(exc.message)
        except RedisError as exc:
            return _fail(redis_problem(exc, settings))
    return wrapper


def print_audit(report: dict, out=None) -> None:
    """Print an audit report in a few readable lines (to standard output by default)."""
    out = out or sys.stdout
    rnd = report["randomness"]
    chain = "intact" if report["broken_at"] is None else f"BROKEN at version {report['broken_at']}"
    fmt = report.get("chain") or {}
    salted = " (salted; links only until the seed is revealed)" if not fmt.get("hashes_verified", True) else ""
    print(f"hash chain: {chain}{salted}, format {fmt.get('format', 1)} ({report['length']} events, "
          f"head {report['head']})", file=out)
    for kept in report.get("kept_heads", []):
        where = "on the chain" if kept["on_chain"] else "NOT on the chain"
        print(f"kept head: version {kept['version']} {kept['hash'][:16]}... {where}", file=out)
    print(f"commitment: {rnd['commitment']}", file=out)
    if rnd["revealed"]:
        print(f"randomness: seed revealed, draws {'verified' if rnd['verified'] else 'NOT verified'}", file=out)
    else:
        print("randomness: seed not revealed yet (the match is running); draws verifiable once it finishes",
              file=out)
    for problem in report.get("problems", []):
        print(f"  problem: {problem}", file=out)
    print("OK" if report["ok"] else "FAILED", file=out)


def kept_head(text: str) -> tuple[int, str]:
    """Parse a kept head `V:HASH` (a version and the 64-hex-digit hash shown at it)."""
    found = re.fullmatch(r"([0-9]{1,12}):([0-9a-fA-F]{64})", text.strip())
    if not found:
        raise argparse.ArgumentTypeError(f"a kept head is VERSION:HASH (64 hex digits), not {text!r}")
    return int(found.group(1)), found.group(2).lower()


def cmd_replay(args) -> int:
    """Print the move log up to a version, one sentence per event, then the state at that version."""
    history = _history()
    answer = history.replay(args.match, args.version, args.as_user)
    for version, sentence in history.move_log(args.match, args.as_user, answer["version"]):
        print(f"{version:>6}  {sentence}")
    names = history.users.names(answer["active_players"]) if history.users else {}
    to_move = ", ".join(names.get(p, p) for p in answer["active_players"]) or "nobody"
    print(f"\nstate at version {answer['version']} of {answer['latest_version']} ({answer['status']}); "
          f"to move: {to_move}")
    print(json.dumps(answer["view"], indent=2, sort_keys=True))
    return 0


def cmd_audit(args) -> int:
    """Audit a stored match, or an export file offline (no Redis, no server)."""
    if bool(args.file) == bool(args.match):
        return _fail("give a match id or --file FILE (not both)")
    if args.file:
        from service.app.audit import audit_export, load_export  # (as above: when the command runs)
        try:
            report = audit_export(load_export(args.file), load_games(), args.head)
        except (OSError, ValueError) as exc:
            return _fail(f"cannot audit {args.file}: {exc}")
    else:
        report = _history().audit(args.match, args.head)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_audit(report)
    return 0 if report["ok"] else 1


def cmd_export(args) -> int:
    """Write a match's export document (events, hashes, commitment, seed once revealed), or with --all an
    operator backup of every match and user into a directory."""
    if args.all == bool(args.match):
        return _fail("give a match id, or --all -o DIR for an operator backup")
    if args.all:
        return _export_all(args)
    doc = _history().export(args.match)
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        print(f"wrote {args.output}: {doc['length']} events, head {doc['head']}", file=sys.stderr)
    else:
        print(text)
    return 0


def _export_all(args) -> int:
    # the service loads when the command runs, not for the command line's --help
    from service.app.backup import export_all
    from service.bootstrap import build
    if not args.output or args.output == "-":
        return _fail("--all writes a directory: give -o DIR")
    manifest = export_all(build(), args.output, say)
    print(f"wrote {args.output}: {manifest['matches']} matches ({manifest['events']} events), "
          f"{manifest['users']} users. It is an OPERATOR BACKUP with secret seeds: keep it private.", file=sys.stderr)
    if manifest["damaged"]:
        print(f"turnstream export: {len(manifest['damaged'])} match(es) could not be read and are NOT in the backup: "
              f"{', '.join(manifest['damaged'])}", file=sys.stderr)
        return 1
    return 0


def cmd_import(args) -> int:
    """Restore an operator backup (directories or files): check every file first, write only if nothing is
    refused, rebuild projections. Each problem is one line on standard error; exit 1 when there is any."""
    # the service loads when the command runs, not for the command line's --help
    from service.app.backup import import_files
    from service.bootstrap import build
    counts = import_files(build(), args.files, say)
    for problem in counts["refused"]:
        print(f"turnstream import: refused {problem}", file=sys.stderr)
    if counts["refused"] and not (counts["matches"] or counts["users"]):
        print(f"turnstream import: nothing restored: {len(counts['refused'])} problem(s); nothing was written",
              file=sys.stderr)
        return 1
    print(f"restored {counts['matches']} matches ({counts['events']} events) and {counts['users']} users; "
          f"{len(counts['refused'])} refused", file=sys.stderr)
    return 1 if counts["refused"] else 0


def add_commands(sub) -> None:
    """Register replay, audit and export on the `turnstream` subcommand parser."""
    replay = sub.add_parser("replay", help="print a match's move log and its state at a version")
    replay.add_argument("match", help="match id")
    replay.add_argument("--version", type=int, default=None, help="version to show (default: the latest)")
    replay.add_argument("--as", dest="as_user", default=None,
                        help="a seated player's user id to view as (default: a spectator)")
    replay.set_defaults(func=_guarded(cmd_replay))

    audit = sub.add_parser("audit", help="verify a match's hash chain and randomness (or an export, offline)")
    audit.add_argument("match", nargs="?", default=None, help="match id (reads Redis)")
    audit.add_argument("--file", default=None, help="an export document to verify offline (no Redis, no server)")
    audit.add_argument("--head", action="append", type=kept_head, default=[], metavar="V:HASH",
                       help="a head you were shown at version V (repeatable): checked to lie on the chain")
    audit.add_argument("--json", action="store_true", help="print the report as JSON")
    audit.set_defaults(func=_guarded(cmd_audit))

    export = sub.add_parser("export", help="write a match's events, hashes, commitment and revealed seed as JSON "
                                           "(--all: an operator backup of everything)",
                            description="One match: its export document (the seed only once revealed). With --all "
                                        "-o DIR: an operator backup, DIR/matches/<id>.json (events, hashes, "
                                        "commitment and the secret seed), DIR/users.json (id, name, token digest, "
                                        "webhook; never a raw token) and DIR/manifest.json; restore it with "
                                        "`turnstream import DIR`.")
    export.add_argument("match", nargs="?", default=None, help="match id")
    export.add_argument("--all", action="store_true", help="back up every match and user into the directory -o DIR")
    export.add_argument("-o", "--output", default=None,
                        help="file to write (default: standard output); with --all, the directory")
    export.set_defaults(func=_guarded(cmd_export))

    restore = sub.add_parser("import", help="restore an operator backup into this Redis (empty or not)",
                             description="Restore what `turnstream export --all -o DIR` wrote. Every file is "
                                         "checked before anything is written: each match's hash chain with its "
                                         "seed, the seed against the commitment, the chain format match_created "
                                         "declares, every draw, its status and version recomputed from its "
                                         "events; match and user ids and names as the API checks them; no token "
                                         "for a bot; webhook targets as a registration checks them; nothing that "
                                         "already exists here. Any problem: one line each, nothing written, exit "
                                         "1. Else users, then matches through the store (partition, hash tag, "
                                         "change log), then every projection is rebuilt.")
    restore.add_argument("files", nargs="+", metavar="FILE", help="backup directories or their JSON files")
    restore.set_defaults(func=_guarded(cmd_import))
