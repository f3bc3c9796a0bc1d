"""The packages import one way: domain <- projections <- service.app/store <- workers, service.web, service.cli.

Every import counts, those inside functions too. A unit is a top-level package (domain, projections, workers)
or one of service's subpackages or top-level modules (service.app, service.config, ...). No two modules import
each other either, in any folder (the games' frozen version copies aside), and an import inside a function says why
in a comment."""
from __future__ import annotations

import ast
import functools
import io
import tokenize
from pathlib import Path

import pytest

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


@functools.cache  # every test walks the same files: each is read and parsed once a session
def parsed(path: Path) -> tuple:
    """(source, syntax tree) of a file."""
    source = path.read_text()
    return source, ast.parse(source, str(path))


@functools.cache
def imported(path: Path) -> frozenset:
    """The project modules a file imports (relative imports resolved)."""
    module, found = module_of(path), set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(parsed(path)[1]):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            modules = {f"{target}.{alias.name}" for alias in node.names if is_module(f"{target}.{alias.name}")}
            found.update(modules or {target})  # `from service import logs` imports service.logs
    return frozenset(name for name in found if name.split(".")[0] in PACKAGES)


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


def is_frozen_copy(path: Path) -> bool:
    """True for a file of a game's released versions (domain/games/<game>/versions/**): frozen whole, never edited."""
    parts = path.relative_to(ROOT).parts
    return parts[:2] == ("domain", "games") and "versions" in parts[3:-1]


def source_files():
    """Every source file of the project, the games' frozen version copies aside."""
    for package in PACKAGES:
        yield from (path for path in sorted((ROOT / package).rglob("*.py")) if not is_frozen_copy(path))


def module_graph() -> dict:
    """{module: {project modules it imports}}, imports inside functions included."""
    return {module_of(path): imported(path) - {module_of(path)} for path in source_files()}


def circles(graph: dict) -> list:
    """The strongly connected groups of two or more nodes (each sorted), found by Tarjan's algorithm."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while not group or group[-1] != node:
                        group.append(stack.pop())
                        on_stack.discard(group[-1])
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(found)


def test_the_module_circle_finder_finds_circles():
    """The finder reports each circle once, a longer one whole, and nothing for a chain (so the next test can fail)."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e", "d"}, "g": {"a"}}
    assert circles(graph) == [["a", "b", "c"], ["e", "f"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_circle_among_modules():
    """No module reaches itself through imports, those inside functions counted: a shared piece moves down into a
    module both sides import, never into a function."""
    assert circles(module_graph()) == []


def comment_lines(source: str) -> tuple:
    """(lines holding a comment, lines that are nothing but a comment), 1-based."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    lines = source.splitlines()
    return ({t.start[0] for t in tokens},
            {t.start[0] for t in tokens if lines[t.start[0] - 1].lstrip().startswith("#")})


def function_imports(tree: ast.AST) -> list:
    """The import statements inside functions, in line order (statements hold both: expressions are skipped)."""
    found, todo = [], [(tree, False)]
    while todo:
        node, inside = todo.pop()
        if inside and isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        inside = inside or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend((child, inside) for child in getattr(node, field, ()))
    return sorted(found, key=lambda node: node.lineno)


def unexplained_imports(source: str, tree: ast.AST | None = None) -> list:
    """The lines of imports inside functions that no comment explains: one on the statement's own lines, or a
    comment line right above it (or above the run of imports it ends, blank lines between them allowed)."""
    starts = {node.lineno: node for node in function_imports(tree or ast.parse(source))}
    if not starts:
        return []
    commented, comment_only = comment_lines(source)
    ends = {node.end_lineno: node for node in starts.values()}
    blank = {n for n, text in enumerate(source.splitlines(), 1) if not text.strip()}
    bare = []
    for line, node in starts.items():
        above = line - 1
        while above in ends or (above in blank and above - 1 in ends):  # one comment over a run of imports
            above = ends[above].lineno - 1 if above in ends else above - 1
        if not commented & set(range(line, node.end_lineno + 1)) and above not in comment_only:
            bare.append(line)
    return bare


def test_the_import_comment_check_tells_explained_from_bare():
    """An import in a function is explained by a comment on its line or the line above, not by one elsewhere."""
    source = ("import os  # top level: no reason needed\n"
              "def f():\n"
              "    from json import dumps  # optional dependency\n"
              "    # heavy: only one subcommand uses it\n"
              "    import csv\n"
              "    import zlib\n"
              "\n"
              "    from lzma import open\n"
              "    x = 1  # a comment on other code\n"
              "    import gzip\n"
              "    # a comment before other code\n"
              "    y = 2\n"
              "\n"
              "    import bz2\n")
    assert unexplained_imports(source) == [10, 14]


def test_every_import_inside_a_function_says_why():
    """An import inside a function carries a comment saying why it is not at the top (the command line's start-up
    cost, an optional dependency, a heavy module one path alone uses)."""
    bare = [f"{path.relative_to(ROOT)}:{line}" for path in source_files()
            for line in unexplained_imports(*parsed(path))]
    assert bare == []
