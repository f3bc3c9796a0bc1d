"""`turnstream bench --streams`: the command an operator runs holds every stream it asks for (each viewer from its
own loopback address, so the per-address cap of 64 does not refuse them) and misses no delivery."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.slow]


def test_bench_streams_holds_every_stream_and_misses_no_delivery(tmp_path):
    run = subprocess.run([sys.executable, "-m", "service.cli", "bench", "--streams", "300", "--stream-matches", "5",
                          "--commands", "20", "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])  # the report, then the figures as one JSON line
    assert (figures["streams.held"], figures["streams.refused"]) == (300, 0)
    assert figures["streams.commands"] == 20 and figures["streams.missed"] == 0
    assert figures["streams.deliveries"] == 20 * 300 // 5
    assert "Traceback" not in run.stderr
