"""`turnstream rules`: list the games' rules versions, and bump a game to a new version (freezing the current)."""
from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

from domain.engine.versions import INDEX, version_digest
import domain.games as games_package
from domain.games import GAME_PACKAGES, load_games
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
    import importlib
    return Path(importlib.import_module(GAME_PACKAGES[game_id]).__file__).parent


def next_version(current: str, today: date) -> str:
    """The version after `current`: this month's YYYY.MM, or the current with a counter when that is not newer."""
    month = f"{today.year}.{today.month:02d}"
    if month > current.split("-")[0]:
        return month
    base, _, n = current.partition("-")
    return f"{base}-{int(n or 1) + 1}"


def bump(game_id: str, folder: Path, lock_path: Path, today: date) -> tuple[str, str, list]:
    """Freeze the game's current version (its digest into the lock file) and create the next as an editable copy;
    return (frozen, new, the new version's files)."""
    index_path = folder / "versions" / INDEX
    index = json.loads(index_path.read_text(encoding="utf-8"))
    current = index["versions"][-1]
    lock = read_lock(lock_path)
    lock.setdefault(game_id, {})[current] = version_digest(folder / "versions" / current)
    new = next_version(current, today)
    target = folder / "versions" / new
    shutil.copytree(folder / "versions" / current, target, ignore=shutil.ignore_patterns("__pycache__"))
    index["versions"].append(new)
    write_json(index_path, index)
    write_json(lock_path, lock)
    return current, new, sorted(str(p) for p in target.rglob("*") if p.is_file())


def cmd_list(args) -> int:
    """Print each game's versions, the current one marked, and whether each is frozen."""
    lock = read_lock()
    for game in load_games().values():
        frozen = lock.get(game.id, {})
        marks = [f"{v}{' (current)' if v == game.rules_version else ''}{' frozen' if v in frozen else ' draft'}"
                 for v in game.rules_versions]
        say(f"{game.id}: {', '.join(marks)}")
    return 0


def cmd_bump(args) -> int:
    """Freeze the current version of a game and create the next one to edit."""
    if args.game not in GAME_PACKAGES:
        say(f"turnstream rules bump: no game {args.game!r}; games: {', '.join(GAME_PACKAGES)}")
        return 2
    folder = game_folder(args.game)
    frozen, new, files = bump(args.game, folder, LOCK, date.today())
    say(f"{args.game}: {frozen} is frozen (its digest is in {LOCK}); new matches will use {new}.")
    say(f"Edit the rules of {new} here:")
    for path in files:
        say(f"  {path}")
    say(f"Logic that must differ from {frozen}: copy the module into versions/{frozen}/ first (it then keeps the old "
        f"code), run the tests (the golden matches of {frozen} must replay the same), and add golden matches of {new}.")
    return 0


def add_commands(sub) -> None:
    """Register `turnstream rules ...`."""
    rules = sub.add_parser("rules", help="the games' rules versions: list them, bump one",
                           description="A match is judged for ever by the rules version it was created under. "
                                       "Released versions are frozen (domain/games/rules.lock.json); a rule "
                                       "changes by bumping the game to a new version.")
    actions = rules.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", help="each game's versions (current, frozen or draft)").set_defaults(func=cmd_list)
    bump_cmd = actions.add_parser("bump", help="freeze the current version of a game and create the next to edit")
    bump_cmd.add_argument("game", help="the game id (uchronia, merchant-of-venus, ti4-exploration, origins)")
    bump_cmd.set_defaults(func=cmd_bump)
