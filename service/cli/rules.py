"""`turnstream rules`: list the games' rules versions, bump a game to a new version (freezing the current), and
write golden matches of a game's version."""
from __future__ import annotations

import importlib
import json
import shutil
import sys
from datetime import date
from pathlib import Path

from domain.engine.versions import INDEX, VERSIONS, version_digest
import domain.games as games_package
from domain.games import GAME_PACKAGES, load_games
from service.app.errors import AppError, NotFound
from service.logs import say

LOCK = Path(games_package.__file__).with_name("rules.lock.json")  # the released versions' digests


def read_lock(path: Path = LOCK) -> dict:
    """{game id: {version: digest}} of the released (frozen) versions."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def write_json(path: Path, doc: dict) -> None:
    """Write a JSON document the way the repository keeps them (sorted, indented, a final newline)."""
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def game_folder(game_id: str) -> Path:
    """The folder of a game package."""
    return Path(importlib.import_module(GAME_PACKAGES[game_id]).__file__).parent


def next_version(current: str, today: date) -> str:
    """The version after `current`: this month's YYYY.MM, or the current with a counter when that is not newer."""
    month = f"{today.year}.{today.month:02d}"
    if month > current.split("-")[0]:
        return month
    base, _, n = current.partition("-")
    return f"{base}-{int(n or 1) + 1}"


ADVICE = {
    "frozen": "a frozen version never changes: undo this edit (git checkout -- {folder}); change the current "
              "version, the package itself, instead",
    "released": "matches are played under it, so it never changes in place: put the edit aside (git stash), run "
                "`turnstream rules bump {game}` (it freezes {version} as released), then make the edit again: it "
                "becomes the next version",
}


def lock_problems(game_id: str, folder: Path, lock: dict) -> list:
    """What breaks the promise that a released version never changes: a frozen copy or a released current version
    whose files differ from their locked digest, a locked copy missing, an older version not frozen."""
    versions = json.loads((folder / VERSIONS / INDEX).read_text(encoding="utf-8"))["versions"]
    problems = []
    for version, digest in sorted(lock.get(game_id, {}).items()):
        copy = folder / VERSIONS / version
        if version == versions[-1] and not copy.exists():
            if version_digest(folder) != digest:
                problems.append(f"{game_id} {version} was edited after its release: "
                                + ADVICE["released"].format(game=game_id, version=version))
        elif not (copy / "__init__.py").is_file():
            problems.append(f"{game_id} {version} is locked but its frozen copy {copy} is missing")
        elif version_digest(copy) != digest:
            problems.append(f"{game_id} {version} was edited in {copy} after its release: "
                            + ADVICE["frozen"].format(folder=copy))
    problems += [f"{game_id} {v} is older than the current version but not frozen (turnstream rules bump)"
                 for v in versions[:-1] if v not in lock.get(game_id, {})]
    return problems


def release(game_id: str, version: str, folder: Path, lock_path: Path) -> str:
    """Record a version as released (its files' digest in the lock: from now on it never changes); its digest. A
    version released before must still have the digest it was released with."""
    lock = read_lock(lock_path)
    copy = folder / VERSIONS / version
    digest = version_digest(copy if copy.exists() else folder)
    was = lock.get(game_id, {}).get(version)
    if was is not None and was != digest:
        raise ValueError(f"{game_id} {version} was edited after its release: "
                         + ADVICE["released"].format(game=game_id, version=version))
    lock.setdefault(game_id, {})[version] = digest
    write_json(lock_path, lock)
    return digest


def bump(game_id: str, folder: Path, lock_path: Path, today: date) -> tuple[str, str, Path]:
    """Freeze the game's current version whole (the package but versions/ copied into versions/<current>/, its digest
    into the lock file) and make the package the next version; return (frozen, new, the frozen copy's folder)."""
    index_path = folder / VERSIONS / INDEX
    index = json.loads(index_path.read_text(encoding="utf-8"))
    current = index["versions"][-1]
    target = folder / VERSIONS / current
    if target.exists():
        raise FileExistsError(f"{target} exists already: {current} was frozen before")
    released = read_lock(lock_path).get(game_id, {}).get(current)
    if released is not None and released != version_digest(folder):
        raise ValueError(f"{game_id} {current} was edited after its release, so freezing it now would freeze the edit: "
                         f"put the edit aside (git stash), bump again, then make the edit again")
    shutil.copytree(folder, target, ignore=_not_frozen(folder))
    lock = read_lock(lock_path)
    lock.setdefault(game_id, {})[current] = version_digest(target)
    new = next_version(current, today)
    index["versions"].append(new)
    write_json(index_path, index)
    write_json(lock_path, lock)
    return current, new, target


def _not_frozen(folder: Path):
    """copytree's ignore: the package's own versions folder and caches stay out of a frozen copy."""
    def ignore(directory, names):
        top = Path(directory) == folder
        return [n for n in names if n in ("__pycache__",) or n.endswith(".pyc") or (top and n == VERSIONS)]
    return ignore


def cmd_list(args) -> int:
    """Print each game's versions, the current one marked, and whether each is released (locked) or a draft."""
    lock = read_lock()
    for game in load_games().values():
        frozen = lock.get(game.id, {})
        marks = [f"{v}{' (current)' if v == game.rules_version else ''}{' released' if v in frozen else ' draft'}"
                 for v in game.rules_versions]
        say(f"{game.id}: {', '.join(marks)}")
    return 0


def cmd_bump(args) -> int:
    """Freeze the current version of a game and create the next one to edit."""
    if args.game not in GAME_PACKAGES:
        say(f"turnstream rules bump: no game {args.game!r}; games: {', '.join(GAME_PACKAGES)}")
        return 2
    folder = game_folder(args.game)
    try:
        frozen, new, target = bump(args.game, folder, LOCK, date.today())
    except (FileExistsError, ValueError) as exc:
        say(f"turnstream rules bump: {exc}")
        return 1
    say(f"{args.game}: {frozen} is frozen whole in {target} (code, data, texts, board, bot knowledge; its digest is "
        f"in {LOCK}): its matches are judged and shown by that copy for ever, and the tests fail on any edit of it.")
    say(f"New matches get {new}: edit the package itself ({folder}, not versions/) to change the rules.")
    say(f"Then: turnstream rules golden {args.game} (golden matches of {new}) and the tests.")
    return 0


def cmd_golden(args) -> int:
    """Play and write golden matches of a game at a rules version (in memory: no Redis)."""
    from service.cli.golden import NotFinished, make_golden  # the service loads when it runs, not for --help
    games = load_games()
    if args.game not in games:
        say(f"turnstream rules golden: no game {args.game!r}; games: {', '.join(GAME_PACKAGES)}")
        return 2
    game = games[args.game]
    version = args.version or game.rules_version
    if version not in game.rules_versions:
        say(f"turnstream rules golden: {args.game} has no rules version {version!r} "
            f"(versions: {', '.join(game.rules_versions)})")
        return 2
    try:
        release(args.game, version, game_folder(args.game), LOCK)  # golden matches are matches played under it
        make_golden(game.at(version), args.count, Path(args.out), say)
    except (NotFinished, ValueError) as exc:
        say(f"turnstream rules golden: {exc}")
        return 1
    say(f"{args.game} {version} is released: its digest is in {LOCK}, and it never changes in place from now on.")
    return 0


def migrate(w, match_id: str, to_version: str) -> tuple[int, str]:
    """Move a running match to rules `to_version` (`rules_upgraded`, through MatchService.execute on wiring `w`):
    (exit status, the one line to print): 0 when appended, 1 when refused (the line says why), 2 when there is
    no such match."""
    from service.app.rules_upgrade import RulesUpgrades  # the service loads when the command runs, not for --help
    try:
        done = RulesUpgrades(w.matches).migrate(match_id, to_version)
    except NotFound as exc:
        return 2, f"turnstream rules migrate: {exc.message}"
    except AppError as exc:
        rule = exc.extra.get("rule")
        return 1, f"turnstream rules migrate: refused{f' ({rule})' if rule else ''}: {exc.message}"
    return 0, (f"{match_id}: moved from rules {done['from']} to {done['to']} at version {done['version']}; "
               f"the moves after it are judged by {done['to']}")


def cmd_migrate(args) -> int:
    """Append `rules_upgraded` to a running match (against REDIS_URL), or print the refusal and exit 1."""
    # redis-py and the service load when the command runs, not for --help
    from redis.exceptions import RedisError

    from service.bootstrap import build
    try:
        status, line = migrate(build(), args.match, args.to)
    except RedisError as exc:
        print(f"turnstream rules migrate: cannot reach Redis ({exc}); set REDIS_URL", file=sys.stderr)
        return 2
    print(line, file=sys.stdout if status == 0 else sys.stderr, flush=True)
    return status


def add_commands(sub) -> None:
    """Register `turnstream rules ...`."""
    rules = sub.add_parser("rules", help="the games' rules versions: list them, bump one, write golden matches, migrate a match",
                           description="A match is judged for ever by the rules version it was created under. "
                                       "Released versions are frozen (domain/games/rules.lock.json); a rule "
                                       "changes by bumping the game to a new version.")
    actions = rules.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", help="each game's versions (current, frozen or draft)").set_defaults(func=cmd_list)
    bump_cmd = actions.add_parser("bump", help="freeze the current version of a game and create the next to edit")
    bump_cmd.add_argument("game", help="the game id (turnstream rules list names them)")
    bump_cmd.set_defaults(func=cmd_bump)
    migrate_cmd = actions.add_parser(
        "migrate", help="move a running match to a newer rules version (a rules_upgraded event)",
        description="Append rules_upgraded {from, to} to a running match after checking that its whole history "
                    "folds under the new version; the moves after it are judged by the new rules. A refusal "
                    "(unknown or older version, match not running, history does not fold) is printed in one line "
                    "and exits 1.")
    migrate_cmd.add_argument("match", help="the match id")
    migrate_cmd.add_argument("--to", required=True, metavar="VERSION", help="the rules version to move to")
    migrate_cmd.set_defaults(func=cmd_migrate)
    golden = actions.add_parser(
        "golden", help="play and write golden matches of a game at a rules version (no Redis)",
        description="Play COUNT complete matches of GAME under one rules version in memory (random legal moves "
                    "from a fixed seed, short options, a few turn timeouts and take-backs) and write each as an "
                    "export document with its final state's sha256 and result under OUT/<game>/<version>/"
                    "golden-<n>.json. The same code writes the same files. The tests replay every golden match "
                    "for ever: a released version's must stay identical; a new version needs its own.")
    golden.add_argument("game", help="the game id (turnstream rules list names them)")
    golden.add_argument("--count", type=int, default=2, help="how many matches to write (default 2)")
    golden.add_argument("--version", default=None, help="the rules version to play (default: the current one)")
    golden.add_argument("--out", default="tests/fixtures/golden",
                        help="the folder of golden matches (default tests/fixtures/golden)")
    golden.set_defaults(func=cmd_golden)
