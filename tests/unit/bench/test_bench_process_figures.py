"""The bench's per-process figures from /proc: CPU used and time spent waiting for a core."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from service.cli.bench.http import cpu_seconds, runqueue_seconds
from tests.waiting import wait_for

pytestmark = pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/schedstat"), reason="needs schedstats")

SPIN = "import os, time\nos.sched_setaffinity(0, {0})\nend = time.time() + 1.0\nwhile time.time() < end: pass\n"


def test_two_processes_sharing_one_core_each_wait_for_it_about_half_the_time():
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(2)]
    pids = [p.pid for p in spinners]
    wait_for(lambda: all(os.sched_getaffinity(pid) == {0} for pid in pids), 10, "both pinned to core 0 (then spinning)",
             interval=0.01)
    cpu0, queued0 = cpu_seconds(pids), runqueue_seconds(pids)
    time.sleep(0.5)  # the window measured: half a second of both spinning
    cpu, queued = cpu_seconds(pids) - cpu0, runqueue_seconds(pids) - queued0
    for p in spinners:
        p.wait(10)
    assert cpu <= 0.65, cpu  # one core between them
    assert queued >= 0.25, queued  # while one runs, the other waits
    assert 0.8 <= cpu + queued <= 1.2, (cpu, queued)  # both always runnable: running or queued, 2 x 0.5 s


def test_a_process_that_is_gone_counts_nothing():
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(10)
    assert runqueue_seconds([gone.pid]) == 0 and cpu_seconds([gone.pid]) == 0
