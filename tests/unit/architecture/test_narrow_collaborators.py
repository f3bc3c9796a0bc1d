"""Projections and workers receive the few collaborators they use, typed, never the whole wiring: no function of
theirs takes a `w` or `wiring` parameter (the jobs read the wiring from workers/context.py and hand parts on)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
WHOLE_WIRING = {"w", "wiring"}


def wiring_parameters(source: str) -> list:
    """(line, function) of every function in `source` with a parameter named like the whole wiring."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
            if names & WHOLE_WIRING:
                found.append((node.lineno, node.name))
    return found


def test_no_projection_or_worker_function_takes_the_whole_wiring():
    """Every function of projections/ and workers/ names what it uses (a Projector, a Mailing, a Redis, ...)."""
    offenders = [f"{path.relative_to(ROOT)}:{line} {name}" for package in ("projections", "workers")
                 for path in sorted((ROOT / package).rglob("*.py"))
                 for line, name in wiring_parameters(path.read_text())]
    assert offenders == []


def test_the_checker_finds_a_function_taking_the_wiring():
    """The finder reports a function with a `w` parameter, a method's too, and passes the others."""
    source = "def a(w, p):\n    pass\n\nclass B:\n    def c(self, *, wiring=None):\n        pass\n\ndef d(x):\n    pass\n"
    assert wiring_parameters(source) == [(1, "a"), (5, "c")]
