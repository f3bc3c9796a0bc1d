"""`turnstream up` with no REDIS_URL: embedded Redis, web and worker; Ctrl-C stops all; data survives."""
from __future__ import annotations

import pytest

from service.server.embedded_redis import free_port
from tests.e2e.processes import Api, interrupt, start_invited, start_up


@pytest.mark.slow
def test_up_runs_everything_and_a_second_up_finds_the_matches(tmp_path):
    """A match created under one `up` is there, with its events, after Ctrl-C and a second `up`."""
    data, log = tmp_path / "var", tmp_path / "up.log"
    port = free_port()
    proc = start_up(data, port, log)
    try:
        base = f"http://127.0.0.1:{port}"
        status, ann = Api(base).post("/api/users", {"name": "ann"})
        _, bob = Api(base).post("/api/users", {"name": "bob"})
        api = Api(base, ann["token"])
        status, match = start_invited(api, {"game": "uchronia", "players": [ann["id"], bob["id"]]},
                                      {bob["id"]: bob["token"]})
        assert status == 201
        status, legal = api.get(f"/api/matches/{match['id']}/legal")
        status, answer = api.post(f"/api/matches/{match['id']}/commands", legal["commands"][0])
        assert status == 201
    finally:
        code = interrupt(proc)
    assert code == 0
    text = log.read_text()
    assert "turnstream is up" in text and "stopped." in text
    assert (data / "appendonly.aof").exists() or (data / "appendonlydir").exists()

    port = free_port()
    proc = start_up(data, port, log)
    try:
        api = Api(f"http://127.0.0.1:{port}", ann["token"])
        status, again = api.get(f"/api/matches/{match['id']}")
        assert status == 200 and again["version"] == answer["version"]
        assert api.get("/api/users/me")[1]["name"] == "ann"
    finally:
        assert interrupt(proc) == 0
