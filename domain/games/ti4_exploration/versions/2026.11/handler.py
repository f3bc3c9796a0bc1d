"""The shape of one command's rules: when it may be sent, its checks, its effect and its legal payloads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from domain.engine.errors import RuleViolation


@dataclass(frozen=True)
class Handler:
    """One command type: `when` is the who/when column, `check` the checks column (raises RuleViolation),
    `apply` emits the events through an Emitter, `legal` lists every valid payload (called only when `when`
    holds), `direct` (optional) returns the events without simulating follow-ups."""

    when: Callable
    check: Callable
    apply: Callable
    legal: Callable
    direct: Optional[Callable] = None


def fail(rule_id: str, message: str) -> None:
    """Raise a RuleViolation citing the bare rule id."""
    raise RuleViolation(rule_id, message)


def no_check(state: dict, player: str, payload: dict) -> None:
    """A command whose only conditions are the who/when column."""
    return None


def empty_payload(state: dict, player: str) -> list:
    """The single payload of a command without fields."""
    return [{}]

