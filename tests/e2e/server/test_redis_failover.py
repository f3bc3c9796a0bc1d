"""A Redis host dies under load, tested as Jepsen would with real processes (`turnstream bench --failover`'s scenario,
service/cli/bench/failover.py): a primary behind a link the test cuts, two replicas, three sentinels
(`redis-server --sentinel`); the web server and a worker with TURNSTREAM_MIN_REPLICAS=1 find the primary through the
sentinels. The replicas are paused (SIGSTOP), the link cut, the primary killed (-9) and its data deleted, the
replicas resumed, one promoted."""
from __future__ import annotations

import pytest

from service.cli.bench.failover import report, run_failover


@pytest.mark.slow
def test_nothing_acknowledged_is_lost_when_the_primary_host_dies(tmp_path):
    """Every acknowledged command survives, none sent while the replicas were paused was acknowledged, every match's
    audit verifies (one through `turnstream audit` and the sentinels), writes resume within 30 s, the matches created
    before the kill are there and a turn deadline scheduled before it fires."""
    fig = run_failover(tmp_path)
    print(report(fig))
    assert fig["primary_moved"], "no replica was promoted"
    assert fig["acknowledged"] > 0
    assert fig["lost"] == 0, fig["lost_examples"]
    assert fig["sent_while_unreplicated"] > 0
    assert fig["acknowledged_while_unreplicated"] == 0
    assert fig["seconds_to_recover"] is not None and fig["seconds_to_recover"] < 30
    assert fig["matches_kept"] == fig["matches"] > 0
    assert fig["audits_failed"] == []
    assert fig["cli_audit"]["status"] == 0 and "OK" in fig["cli_audit"]["output"], fig["cli_audit"]
    assert fig["deadline_fired"], "the turn deadline scheduled before the kill did not fire"
