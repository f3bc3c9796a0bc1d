"""An operator backup taken from a Redis Cluster with the CLI restores into a single Redis, identical."""
from __future__ import annotations

import os

from service import create_app
from service.cli import main
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis
from service.bootstrap import build
from tests.conftest import drain_projections
from tests.integration.backups.populating import listed, play, seen
from tests.invites import start_http


def run_cli(argv, env: dict) -> int:
    """`turnstream <argv>` in this process with these environment variables."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return main(argv)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_cluster_backup_restores_into_a_single_redis(cluster_wiring, games, tmp_path, capsys):  # noqa: F811
    """export --all on the cluster (REDIS_CLUSTER=1), import into a plain Redis: same reads, play goes on."""
    from workers import context
    w = cluster_wiring
    client = create_app(wiring=w).test_client()
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    tokens = {u["id"]: {"Authorization": f"Bearer {u['token']}"} for u in users}
    ids = [start_http(client, tokens[users[0]["id"]], {"game": "uchronia", "players": list(tokens)},
                      tokens[users[1]["id"]]) for _ in range(4)]
    for n, mid in enumerate(ids):
        play(client, mid, tokens, 6 + n, seed=n)
    drain_projections(w)
    before, lists = seen(client, ids, tokens), listed(client)
    cluster_env = {"REDIS_URL": w.settings.redis_url, "REDIS_CLUSTER": "1", "RQ_REDIS_URL": w.settings.rq_redis_url}
    assert run_cli(["export", "--all", "-o", str(tmp_path / "backup")], cluster_env) == 0
    assert "matches 4/4" in capsys.readouterr().out

    single = EmbeddedRedis(tmp_path / "single", appendfsync="no").start()
    try:
        assert run_cli(["import", str(tmp_path / "backup")], {"REDIS_URL": single.url, "REDIS_CLUSTER": "0",
                                                                "RQ_REDIS_URL": single.url}) == 0
        assert "rebuilt" in capsys.readouterr().out
        restored_wiring = build(Settings(redis_url=single.url, rate_limit_per_minute=100000), games=games)
        restored = create_app(wiring=restored_wiring).test_client()
        assert seen(restored, ids, tokens) == before
        assert listed(restored) == lists
        play(restored, ids[0], tokens, 2, seed=9)
        assert restored.get(f"/api/matches/{ids[0]}").get_json()["version"] > before[ids[0]]["summary"]["version"]
    finally:
        context.use(w)
        single.stop()
