"""The bench's http_ratio is taken against the median of its in-process runs, and every run is reported."""
from __future__ import annotations

from service.cli.bench.http import CLIENT_COUNTS, figures, median_run, report


def phase(per_s: float) -> dict:
    return {"requests": 10, "per_s": per_s, "p50_ms": 1.0, "p99_ms": 2.0,
            "cpu_ms_per_request": {"web": 1.0}, "runqueue_ms_per_s": {"web": 0.0}}


def test_the_ratio_uses_the_median_run_and_reports_all_three():
    runs = [{"commands_per_s": x, "p99_ms": 1.0} for x in (1200.0, 3400.0, 3000.0)]
    base = median_run(runs)
    assert base["commands_per_s"] == 3000.0 and base["runs_per_s"] == [1200.0, 3400.0, 3000.0]
    phases = {f"{kind}_{c}": phase(600.0) for kind in ("commands", "state", "note") for c in CLIENT_COUNTS}
    fig = figures(base, phases, [0.01], 0.1, "redis", ["python", "-m", "gunicorn"])
    assert fig["http_ratio"]["16"] == 0.2 and fig["in_process_runs_per_s"] == [1200.0, 3400.0, 3000.0]
    assert "the median of 1,200/3,400/3,000" in report(fig)
