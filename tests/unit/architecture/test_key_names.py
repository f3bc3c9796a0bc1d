"""Every Redis key name is spelled in service/store: no `"ts:...` string literal anywhere else."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LITERAL = re.compile(r"""(?<![\w`])[fbr]?["']ts:""")  # a string that starts with a key name (not `ts:` in prose)


def spelled_outside_the_store() -> list:
    """`path:line` of every key-name literal outside service/store."""
    found = []
    for package in ("service", "projections", "workers", "domain"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.is_relative_to(ROOT / "service" / "store"):
                continue
            lines = path.read_text().splitlines()
            found += [f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(lines, 1) if LITERAL.search(line)]
    return found


def test_key_names_live_in_the_store():
    """service/store/keys.py names every key; the other modules ask it."""
    assert spelled_outside_the_store() == []


def test_the_pattern_finds_key_names_and_leaves_prose():
    """The spellings a key name takes match (so the test above can fail); a key named in a docstring does not."""
    assert all(LITERAL.search(line) for line in ('K = "ts:x"', "k = f'ts:{a}'", 'scan_iter(match="ts:*")'))
    assert not LITERAL.search("One sorted set per user, `ts:presence:<user>`: a member per open stream")
