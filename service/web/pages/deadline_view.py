"""When each waiting player's turn is due on the match page (turn deadline = waiting since + the match's hours)."""
from __future__ import annotations

from datetime import timedelta

from domain.engine.timestamps import format_time, parse_time


def turn_deadlines(w, match, active: list) -> list:
    """[{"player", "since", "due"}] for the players to move, when the match has a turn deadline.

    "since" is the inbox projection's start of the wait (the same the deadline worker uses); a player
    the projection has not caught up with yet waits since the latest event."""
    hours = match.turn_deadline_hours
    if not hours or not active or not match.envelopes:
        return []
    rows = w.read_models.rows([match.id])
    waiting = rows[0].get("waiting", {}) if rows else {}
    latest = match.envelopes[-1].get("at")
    out = []
    for player in active:
        since = waiting.get(player) or latest
        if since:
            out.append({"player": player, "since": since,
                        "due": format_time(parse_time(since) + timedelta(hours=hours))})
    return out


def hours_text(hours: float) -> str:
    """A turn deadline's length in words ("3 days", "12 hours", "10 minutes", "11 seconds")."""
    seconds = round(hours * 3600)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0 or seconds >= 2 * size:
            count = round(seconds / size, 1)
            count = int(count) if count == int(count) else count
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"
