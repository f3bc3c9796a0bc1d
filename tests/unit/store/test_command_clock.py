"""The command handler's clock: the text format_time gives datetime.now(utc), formatted once a second."""
from __future__ import annotations

import random
from datetime import datetime, timezone

from domain.engine.timestamps import format_time, parse_time
from service.app.matches import stamp, utc_now

EDGES = [1764650000.0, 1764650000.9999996, 1764650000.9999994, 1764650000.0004995, 1764650000.0005,
         1764650000.9994999, 1e9 + 0.5, 946684799.9995]


def test_the_text_of_datetime():
    """Any moment, also where microseconds round up into the next millisecond or second, reads as format_time's."""
    rng = random.Random(7)
    whole_micros = [rng.randrange(10 ** 9, 4 * 10 ** 9) + rng.randrange(10 ** 6) / 1e6 for _ in range(20000)]
    moments = EDGES + [rng.uniform(1e9, 4e9) for _ in range(20000)] + whole_micros
    assert [stamp(t) for t in moments] == [format_time(datetime.fromtimestamp(t, timezone.utc)) for t in moments]


def test_now_moves_on_with_the_clock():
    """Stamps taken in a row never go back and parse as now."""
    taken = [utc_now() for _ in range(2000)]
    assert taken == sorted(taken)
    assert abs((parse_time(taken[-1]) - datetime.now(timezone.utc)).total_seconds()) < 5
