"""The service's timestamp format (ISO-8601 UTC, milliseconds, `Z`): parsing and formatting, no clock."""
from __future__ import annotations

from datetime import datetime, timezone


def parse_time(iso: str) -> datetime:
    """A timestamp string as an aware UTC datetime."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(timezone.utc)


def format_time(moment: datetime) -> str:
    """An aware datetime as a timestamp string."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def epoch(iso: str) -> float:
    """Seconds since the epoch of a timestamp string."""
    return parse_time(iso).timestamp()


def from_epoch(seconds: float) -> str:
    """A timestamp string of seconds since the epoch."""
    return format_time(datetime.fromtimestamp(seconds, timezone.utc))
