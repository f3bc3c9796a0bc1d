"""The packages import one way: domain <- projections <- service.app/store <- workers, service.web, service.cli.

Every import counts, those inside functions too. A unit is a top-level package (domain, projections, workers)
or one of service's subpackages or top-level modules (service.app, service.config, ...)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("domain", "projections", "service", "workers")


def unit_of(module: str) -> str:
    """The unit a module belongs to: `service.web.api.matches` -> `service.web`, `domain.games.x` -> `domain`."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "service" and len(parts) > 1 else parts[0]


def module_of(path: Path) -> str:
    """A source file's module name."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    """True when a dotted name is a module or package of the source tree."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imported(path: Path) -> set:
    """The project modules a file imports (relative imports resolved)."""
    module, found = module_of(path), set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            modules = {f"{target}.{alias.name}" for alias in node.names if is_module(f"{target}.{alias.name}")}
            found.update(modules or {target})  # `from service import logs` imports service.logs
    return {name for name in found if name.split(".")[0] in PACKAGES}


def unit_graph() -> dict:
    """{unit: {units it imports}} over the whole source tree."""
    graph: dict = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            unit = unit_of(module_of(path))
            graph.setdefault(unit, set()).update(unit_of(name) for name in imported(path))
    for unit, targets in graph.items():
        targets.discard(unit)
    return graph


def cycles(graph: dict) -> list:
    """Every unit that can reach itself, with one path that shows it."""
    found = []
    for start in sorted(graph):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    found.append(" -> ".join(path + [start]))
                    stack = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    return found


def test_no_import_circle_between_packages_or_service_subpackages():
    """No unit reaches itself through its imports."""
    assert cycles(unit_graph()) == []


def test_domain_imports_nothing_else_of_the_project():
    """The domain is pure: no service, projections or workers."""
    assert unit_graph()["domain"] == set()


def imported_by_package(package: str) -> set:
    """The project modules the files of one top-level package import."""
    return {name for path in (ROOT / package).rglob("*.py") for name in imported(path)}


def test_projections_and_the_application_never_import_the_layers_above_them():
    """projections know only the domain and the store's key names; the use cases and the store know no web,
    server, CLI or worker."""
    graph = unit_graph()
    assert graph["projections"] <= {"domain", "service.store"}
    assert {m for m in imported_by_package("projections") if m.startswith("service.")} <= {"service.store.keys"}
    above = {"workers", "service.web", "service.server", "service.cli", "service.bootstrap"}
    for unit in ("service.app", "service.store"):
        assert not graph[unit] & above, (unit, graph[unit] & above)


def test_the_checker_finds_a_circle():
    """The cycle finder itself reports a circle (so the first test can fail)."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == ["a -> b -> a", "b -> a -> b"]
