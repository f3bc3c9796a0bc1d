"""The rule ids a game's code can refuse a command with, found by reading its source: every string literal
shaped like a rule id (`command.joker`, `73.2d`, `movement.max-speed-dice`) in the game's package, which is
where the ids passed to RuleViolation (directly, through helpers such as fail/require/violate, or returned
by checks such as can_start) are written. Messages have spaces and event types underscores, so neither
matches."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from domain.games import GAME_PACKAGES

RULE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
NOT_RULES = (".json", ".py", ".lock")


def raised_rule_ids(game_id: str) -> set:
    """Every rule-id literal in the game's package (its frozen versions' code included)."""
    package = Path(importlib.import_module(GAME_PACKAGES[game_id]).__file__).parent
    found = set()
    for source in package.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.match(node.value) \
                    and not node.value.endswith(NOT_RULES):
                found.add(node.value)
    return found
