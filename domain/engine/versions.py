"""Rules versions of a game package: each version's data (and any module it freezes) lives in
`versions/<version>/`, listed oldest first in `versions/index.json`; a match is played under the version it was
created with for ever. The newest version is the package as imported; an older one is the same package loaded
again under another name, with `versions/<version>/` searched before the shared modules."""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
from pathlib import Path

INDEX = "index.json"


class UnknownRulesVersion(ValueError):
    """A match names a rules version this installation does not have."""


def base_package(package: str) -> str:
    """The game package a (possibly versioned) package was loaded from."""
    return getattr(sys.modules[package], "BASE_PACKAGE", package)


def package_dir(package: str) -> Path:
    """The folder of a game package."""
    return Path(sys.modules[base_package(package)].__file__).parent


def versions_of(package: str) -> tuple[str, ...]:
    """The package's rules versions, oldest first (the last is the current one)."""
    return tuple(json.loads((package_dir(package) / "versions" / INDEX).read_text(encoding="utf-8"))["versions"])


def rules_version(package: str) -> str:
    """The rules version `package` was loaded as (the current one for the package itself)."""
    return getattr(sys.modules[package], "RULES_VERSION", None) or versions_of(package)[-1]


def data_file(package: str, name: str) -> Path:
    """The data file `name` of the rules version `package` was loaded as."""
    return package_dir(package) / "versions" / rules_version(package) / name


def version_digest(folder: Path) -> str:
    """sha256 over a version folder's files (their paths and bytes, in path order; caches left out)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def digest_of(package: str) -> str:
    """The digest of the rules version `package` was loaded as."""
    return version_digest(package_dir(package) / "versions" / rules_version(package))


def load_version(package: str, version: str):
    """The game package at rules `version` (loaded once per process)."""
    base = base_package(package)
    known = versions_of(base)
    if version not in known:
        raise UnknownRulesVersion(f"rules version {version!r} of {base} is not installed (known: {', '.join(known)})")
    if version == known[-1]:
        return importlib.import_module(base)
    name = f"{base}.v{version.replace('.', '_').replace('-', '_')}"
    if name in sys.modules:
        return sys.modules[name]
    folder = package_dir(base)
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder / "versions" / version), str(folder)])
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
