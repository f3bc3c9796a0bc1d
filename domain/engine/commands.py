"""Which stored events one command appended: the same actor, command marker and timestamp.

Every command's events carry one marker (`cmd`: the client's command id or a generated one), so a
take-back and an accepted dispute revert whole commands, never half of one.
"""
from __future__ import annotations

from . import platform_events as pe


def same_command(a: dict, b: dict) -> bool:
    """True when two envelopes were appended by the same command."""
    return a.get("actor") == b.get("actor") and a.get("cmd") == b.get("cmd") and a.get("at") == b.get("at")


def game_run_start(envelopes: list, i: int) -> int:
    """The index of the first game event of the command whose game event is envelopes[i]."""
    while i > 0 and envelopes[i - 1]["scope"] == pe.GAME and same_command(envelopes[i - 1], envelopes[i]):
        i -= 1
    return i


def first_version(match, version: int) -> int:
    """The version of the first game event of the command that appended game event `version`."""
    span = 32
    while True:
        lo = max(1, version - span)
        window = match.envelopes_since(lo)[:version - lo + 1]
        start = game_run_start(window, len(window) - 1)
        if start > 0 or lo == 1:
            return window[start]["version"]
        span *= 4
