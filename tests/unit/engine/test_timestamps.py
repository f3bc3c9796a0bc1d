"""The service's timestamp format round-trips through parsing, formatting and epoch seconds."""
from __future__ import annotations

from domain.engine.timestamps import epoch, format_time, from_epoch, parse_time


def test_timestamps_round_trip():
    """Parse, format and epoch conversions agree, always in UTC with milliseconds and Z."""
    stamp = "2026-11-29T18:42:40.495Z"
    assert format_time(parse_time(stamp)) == stamp
    assert from_epoch(epoch(stamp)) == stamp
    assert parse_time("2026-11-29T19:42:40.495+01:00") == parse_time(stamp)
