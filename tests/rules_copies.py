"""A game package copied under another name, so a test can bump its rules version and edit the new version's
data without touching the repository (what a designer does to the real package). The copy holds the package's
current version alone (CURRENT), as a game before its first bump; a bump on BUMP_DAY makes BUMPED."""
from __future__ import annotations

import importlib
import json
import shutil
import sys
from datetime import date
from pathlib import Path

from service.cli.rules import next_version

ROOT = Path(__file__).resolve().parents[1]
BUMP_DAY = date(2026, 12, 1)


def current_version(package: str = "uchronia") -> str:
    """The real package's current rules version (the last of its versions/index.json)."""
    return json.loads((ROOT / "domain" / "games" / package / "versions" / "index.json").read_text())["versions"][-1]


CURRENT = current_version()  # Uchronia's current version: the copy's only one
BUMPED = next_version(CURRENT, BUMP_DAY)  # what a bump of the copy makes


def copy_game(tmp_path: Path, package: str = "uchronia", name: str = "rulescopy") -> Path:
    """Copy domain/games/<package>, its current version only, to <tmp>/<name>/<package>; return the copy's folder
    (importable)."""
    target = tmp_path / name / package
    shutil.copytree(ROOT / "domain" / "games" / package, target, ignore=shutil.ignore_patterns("__pycache__"))
    for frozen in (target / "versions").iterdir():
        if frozen.is_dir():
            shutil.rmtree(frozen)
    (target / "versions" / "index.json").write_text(json.dumps({"versions": [current_version(package)]}) + "\n")
    (tmp_path / name / "__init__.py").write_text("")
    return target


def import_fresh(tmp_path: Path, package: str = "uchronia", name: str = "rulescopy"):
    """Import the copy as a process would after a restart (nothing of it cached); return its GAME."""
    for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[loaded]
    if str(tmp_path) not in sys.path:
        sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    return importlib.import_module(f"{name}.{package}").GAME


def edit_json(path: Path, **changes) -> None:
    """Change top-level keys of a JSON data file."""
    import json
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc.update(changes)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
