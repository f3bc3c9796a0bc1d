"""Rules versions of a game package, each frozen whole once released.

The current version is the package itself (its code, data, texts, board and bot knowledge: everything in its folder
but `versions/`). `turnstream rules bump` freezes it by copying all of that into `versions/<version>/` (its digest
goes into domain/games/rules.lock.json) and the package becomes the next version. Versions are listed oldest first
in `versions/index.json`; a match is judged for ever by the version it was created under: an older one is loaded
from its frozen copy alone, under its own module name, so no edit of the current code can change it."""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
from pathlib import Path

INDEX = "index.json"
VERSIONS = "versions"


class UnknownRulesVersion(ValueError):
    """A match names a rules version this installation does not have."""

    def __init__(self, game: str, version: str, known: tuple = ()):
        super().__init__(f"rules version {version!r} of {game} is not installed"
                         + (f" (known: {', '.join(known)})" if known else ""))
        self.game, self.version = game, version


def base_package(package: str) -> str:
    """The game package a (possibly frozen) package was loaded from."""
    return getattr(sys.modules[package], "BASE_PACKAGE", package)


def package_dir(package: str) -> Path:
    """The folder of a game package (the current version's)."""
    return Path(sys.modules[base_package(package)].__file__).parent


def versions_of(package: str) -> tuple[str, ...]:
    """The package's rules versions, oldest first (the last is the current one)."""
    return tuple(json.loads((package_dir(package) / VERSIONS / INDEX).read_text(encoding="utf-8"))["versions"])


def rules_version(package: str) -> str:
    """The rules version `package` was loaded as (the current one for the package itself)."""
    return getattr(sys.modules[package], "RULES_VERSION", None) or versions_of(package)[-1]


def own_folder(package: str) -> Path:
    """The folder `package` was loaded from: the package itself, or a frozen version's copy."""
    return Path(sys.modules[package].__file__).parent


def data_file(package: str, name: str) -> Path:
    """The data file `name` of the rules version `package` was loaded as (beside its code)."""
    return own_folder(package) / name


def _files(folder: Path) -> list:
    """A version's files: everything in its folder but frozen versions and caches, in path order."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.suffix != ".pyc" and p.relative_to(folder).parts[0] != VERSIONS)


def version_digest(folder: Path) -> str:
    """sha256 over a version's files (their paths and bytes, in path order): what judges and shows its matches."""
    digest = hashlib.sha256()
    for path in _files(folder):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def data_digest(folder: Path) -> str:
    """sha256 over a version's top-level JSON data alone: what matches recorded before versions froze code too."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def version_folder(package: str, version: str) -> Path:
    """Where a version's files are: the package for the current one, else its frozen copy."""
    return package_dir(package) if version == versions_of(package)[-1] else package_dir(package) / VERSIONS / version


def digest_of(package: str) -> str:
    """The digest of the rules version `package` was loaded as."""
    return version_digest(own_folder(package))


def module_name(base: str, version: str) -> str:
    """The module name a frozen version is loaded under (`domain.games.<pkg>.v2026_11`)."""
    return f"{base}.v{version.replace('.', '_').replace('-', '_')}"


def load_version(package: str, version: str):
    """The game package at rules `version` (loaded once per process, a frozen one from its copy alone)."""
    base = base_package(package)
    known = versions_of(base)
    folder = package_dir(base) / VERSIONS / version
    if version == known[-1]:
        return importlib.import_module(base)
    if version not in known or not (folder / "__init__.py").is_file():
        raise UnknownRulesVersion(base.rpartition(".")[2].replace("_", "-"), version, known)
    name = module_name(base, version)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    module.RULES_VERSION, module.BASE_PACKAGE = version, base
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def rules_fields(package: str) -> dict:
    """The rules-version fields of a game package's `Game(...)` declaration (`**rules_fields(__package__)`)."""
    return {"rules_version": rules_version(package), "rules_versions": versions_of(package),
            "rules_digest": digest_of(package), "at_version": lambda version: load_version(package, version).GAME}
