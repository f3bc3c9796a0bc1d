"""`turnstream check-game` (the contract kit on any game module) and `turnstream new-game` (a working scaffold)."""
from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from datetime import date
from pathlib import Path

SCAFFOLD = Path(__file__).with_name("scaffold")
PACKAGE_FILES = ("game.py", "bots.py", "table.py", "drawing.py", "words.py")  # rules, bots, board, page wording
TEXT_FILES = ("rules.en.json", "rules.ru.json", "glossary.json", "names.ru.json", "words.ru.po")  # its words
GAME_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def load_game(target: str):
    """The GAME of a module name (`domain.games.<pkg>`) or of a package directory / .py file path."""
    path = Path(target)
    if path.exists():
        path = path.resolve()
        init = path / "__init__.py" if path.is_dir() else path
        if not init.is_file():
            raise ImportError(f"{target} is a folder without __init__.py: give a game package's folder (the one "
                              f"holding __init__.py with GAME = Game(...)), a .py file or a module name")
        name = f"turnstream_checked_{path.stem if path.is_file() else path.name}"
        spec = importlib.util.spec_from_file_location(
            name, init, submodule_search_locations=[str(path)] if path.is_dir() else None)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    game = getattr(module, "GAME", None)
    if game is None:
        raise SystemExit(f"turnstream check-game: {target} has no GAME object")
    return game


def cmd_check_game(args) -> int:
    """Run the contract kit on a game module and print its report; exit 1 when a check fails."""
    from domain.engine.contract_kit import check_game  # the kit (and marshmallow) load when it runs, not for --help
    try:
        game = load_game(args.module)
    except (ImportError, SyntaxError, OSError) as exc:
        print(f"turnstream check-game: cannot import {args.module}: {exc}", file=sys.stderr)
        return 2
    seats = [args.players] if args.players else None
    report = check_game(game, seeds=tuple(range(1, args.seeds + 1)), budget=args.budget, seats=seats)
    print(report.text())
    return 0 if report.ok else 1


def scaffold_files(game_id: str, title: str, root: Path) -> dict:
    """{path: text} of a new game package, its data, board and tests."""
    package = game_id.replace("-", "_")
    values = {"game_id": game_id, "title": title, "package": package}
    first = f"{date.today():%Y.%m}"  # the first rules version; `turnstream rules bump` makes the next

    def fill(name):
        return (SCAFFOLD / name).read_text().format(**values)

    home = root / "domain" / "games" / package
    files = {home / name: fill(f"{name}.tmpl") for name in PACKAGE_FILES}
    files.update({home / "text" / name: fill(f"{name}.tmpl") for name in TEXT_FILES})
    files[home / "__init__.py"] = fill("init.py.tmpl")
    files[home / f"{package}.json"] = fill("data.json.tmpl")
    files[home / "versions" / "index.json"] = f'{{"versions": ["{first}"]}}\n'
    files[root / "tests" / "unit" / package / f"test_{package}.py"] = fill("test.py.tmpl")
    return files


def cmd_new_game(args) -> int:
    """Write a small complete game package (rules, data, bots, board, words and rules page in English and Russian,
tests) that passes the contract kit and is hosted at once."""
    if not GAME_ID.match(args.id):
        print(f"turnstream new-game: {args.id!r} is not a game id (lowercase words joined by '-')", file=sys.stderr)
        return 2
    files = scaffold_files(args.id, args.title or args.id.replace("-", " ").title(), Path(args.root))
    existing = [str(p) for p in files if p.exists()]
    if existing:
        print(f"turnstream new-game: would overwrite {', '.join(existing)}", file=sys.stderr)
        return 2
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"  wrote {path}")
    package = args.id.replace("-", "_")
    print(f"{args.id} is playable now (the registry finds domain/games/{package}/ by itself): restart the service "
          f"and start a match in the lobby. Next: turnstream check-game domain.games.{package}; pytest "
          f"tests/unit/{package}; then make it your game (docs/adding-a-game.md)")
    return 0


def add_commands(sub) -> None:
    """Register check-game and new-game on the CLI's subparsers."""
    check = sub.add_parser("check-game", help="check a game module against the contract (contract kit)",
                           description="Run domain/engine/contract_kit.py on a game module's GAME: random legal "
                                       "playouts finish, one seed gives one history, JSON round trips, legal "
                                       "commands are accepted, mutated ones refused with a rule id, views hide "
                                       "what redaction hides, timeouts leave the game playable. Exit 1 on a "
                                       "failed check.")
    check.add_argument("module", help="a module name (domain.games.<pkg>) or a package directory")
    check.add_argument("--seeds", type=int, default=2, help="playouts per player count (default 2)")
    check.add_argument("--budget", type=int, default=3000, help="commands before a playout counts as stuck")
    check.add_argument("--players", type=int, help="only this player count (default: min and max)")
    check.set_defaults(func=cmd_check_game)
    new = sub.add_parser("new-game", help="write a small complete game package that passes the contract kit",
                         description="Write domain/games/<pkg>/ (rules, JSON data, bots.py, drawing.py, words.py, "
                                     "text/: rules page, glossary and words in English and Russian) and "
                                     "tests/unit/<pkg>/ for a new game id: a complete game the service hosts "
                                     "at once (no registry edit); see docs/adding-a-game.md.")
    new.add_argument("id", help="the public game id, e.g. stone-pile")
    new.add_argument("--title", help="the display title (default: from the id)")
    new.add_argument("--root", default=".", help="the project checkout to write into (default: .)")
    new.set_defaults(func=cmd_new_game)
