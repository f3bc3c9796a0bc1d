"""Redis Cluster: a 3-node cluster on loopback holds the events and read models, RQ a plain Redis."""
from __future__ import annotations

import json

from domain.engine.hashing import verify_chain
from service import create_app
from service.bootstrap import build
from tests.conftest import drain_projections
from tests.waiting import wait_for
from domain.games.dice_race import GAME as RACE
from tests.invites import create_started, start_http


def test_matches_play_through_a_three_node_cluster(cluster_wiring, cluster):
    """Users, matches, commands, an idempotent retry, a conflict, events, state and the projections
    (the match list and the inbox) all work on the cluster; matches spread over its nodes."""
    import redis
    w = cluster_wiring
    client = create_app(wiring=w).test_client()
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    ids = []
    for _ in range(8):
        mid = start_http(client, ann, {"game": RACE.id, "players": [users[0]["id"], users[1]["id"]]},
                         {"Authorization": f"Bearer {users[1]['token']}"})
        ids.append(mid)
        first = client.post(f"/api/matches/{mid}/commands", headers=ann,
                            json={"type": "roll", "payload": {}, "command_id": "r1"})
        again = client.post(f"/api/matches/{mid}/commands", headers=ann,
                            json={"type": "roll", "payload": {}, "command_id": "r1"})
        assert first.status_code == again.status_code == 201 and first.get_json() == again.get_json()
        stale = client.post(f"/api/matches/{mid}/commands", headers=bob,
                            json={"type": "draw", "payload": {}, "expected_version": 1})
        assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "version_conflict"
        drawn = client.post(f"/api/matches/{mid}/commands", headers=bob, json={"type": "draw", "payload": {}})
        assert drawn.status_code == 201, drawn.get_json()
        events = client.get(f"/api/matches/{mid}/events?after=0", headers=ann).get_json()["events"]
        assert [e["type"] for e in events][-2:] == ["die_rolled", "card_drawn"]
        assert verify_chain(w.store.read_range(mid, 1), bytes.fromhex(w.store.secret(mid))) is None
    holders = set()
    for node in cluster:
        keys = redis.Redis(port=node.port, decode_responses=True).keys("ts:{p*}:m:*")
        holders |= {node.port for k in keys if not k.endswith((":meta", ":cmds", ":secret"))}
    assert len(holders) >= 2, "every match landed on one node: the partitions are not spread"
    drain_projections(w)
    listed = {m["id"] for m in client.get(f"/api/matches?player={users[0]['id']}").get_json()["matches"]}
    assert set(ids) <= listed
    inbox = client.get("/api/users/me/inbox", headers=ann).get_json()["matches"]
    assert {m["id"] for m in inbox} == set(ids)
    state = client.get(f"/api/matches/{ids[0]}/state", headers=ann).get_json()
    assert state["version"] == w.store.version(ids[0]) and state["active_players"] == [users[0]["id"]]
    from projections.rebuild import rebuild_projections
    rows = client.get(f"/api/matches?player={users[0]['id']}").get_json()["matches"]
    assert rebuild_projections(w.projector, say=lambda line: None) == len(rows)  # beside, then switched slot by slot
    assert client.get(f"/api/matches?player={users[0]['id']}").get_json()["matches"] == rows
    assert {m["id"] for m in client.get("/api/users/me/inbox", headers=ann).get_json()["matches"]} == set(ids)


def test_a_uchronia_match_plays_to_its_end_on_the_cluster(cluster_wiring):
    """A real game, driven by its legal commands through the service, finishes on the cluster; its
    stored chain verifies and a fresh process (empty cache) folds the same state."""
    import random

    from service.app.matches import MatchService
    w = cluster_wiring
    game = w.games["uchronia"]
    match = w.matches.load(create_started(w, "u1", game, ["u1", "u2", "u3"]))
    chooser = random.Random(7)
    for _ in range(400):
        match = w.matches.load(match.id)
        if match.finished:
            break
        player = chooser.choice(sorted(match.active_players()))
        _version, legal = w.matches.legal(player, match.id)
        command = chooser.choice(legal)
        w.matches.submit(player, match.id, command["type"], command["payload"])
    assert match.finished, "the match did not finish in 400 commands"
    envs = w.store.read_range(match.id, 1)
    assert verify_chain(envs, bytes.fromhex(w.store.secret(match.id))) is None
    assert envs[-1]["type"] == "seed_revealed"
    cold = MatchService(w.store, w.games).load(match.id)
    assert json.dumps(cold.game_state, sort_keys=True) == json.dumps(match.game_state, sort_keys=True)


def test_live_streams_follow_the_partition_logs_of_every_node(cluster_wiring):
    """With REDIS_CLUSTER=1 the live reader polls each node's partition logs: a match stream and a player's
    browser stream both get the events of matches on different nodes, each once."""
    import dataclasses
    import threading

    from tests.integration.live.streams import read_all, streams_followed, typed_messages
    w = build(dataclasses.replace(cluster_wiring.settings, stream_lifetime_seconds=1.5), games=cluster_wiring.games)
    client = create_app(wiring=w).test_client()
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann = {"Authorization": f"Bearer {users[0]['token']}"}
    bob = {"Authorization": f"Bearer {users[1]['token']}"}
    ids = [start_http(client, ann, {"game": RACE.id, "players": [users[0]["id"], users[1]["id"]]}, bob)
           for _ in range(4)]

    def notes():
        for mid in ids:
            assert client.post(f"/api/matches/{mid}/commands", headers=ann,
                               json={"type": "note", "payload": {"text": "hi"}}).status_code == 201

    bodies = {}

    def hold(name, path, headers):
        bodies[name] = typed_messages(read_all(client.get(path, headers=headers, buffered=False)))

    readers = [threading.Thread(target=hold, args=("mine", "/api/users/me/stream", ann)),
               threading.Thread(target=hold, args=("one", f"/api/matches/{ids[0]}/stream", {}))]
    try:
        for t in readers:
            t.start()
        streams_followed(w, 2)
        notes()
        for t in readers:
            t.join()
    finally:
        w.live.stop()
    got_mine, got_one = bodies["mine"], bodies["one"]
    noted = sorted(m["data"]["match"] for m in got_mine if m.get("event") == "match")
    assert noted == sorted(ids), "one event of each match, whichever node holds it"
    assert [m["data"]["type"] for m in got_one if "data" in m] == ["noted"]


def test_a_projection_follower_follows_the_partition_logs_of_every_node(cluster_wiring):
    """On a cluster the follower polls each partition log (XREAD cannot span slots), renews its leases key by
    key, and brings every match's row, on whichever node it lives, to the match's version."""
    import threading

    from tests.integration.projections.projected import row_version
    from projections.follower import start_follower
    from projections.leases import Leases
    w = cluster_wiring
    stop = threading.Event()
    thread = start_follower(w.projector, "cluster-follower", stop, cluster=bool(w.settings.redis_cluster),
                            gather_seconds=w.settings.follow_gather_ms / 1000)
    try:
        wait_for(lambda: len(thread.follower.positions) == w.store.keys.partitions, 10, "every lease taken")
        ids = [create_started(w, f"a{i}", RACE, [f"a{i}", f"b{i}"]) for i in range(6)]
        for i, mid in enumerate(ids):
            w.matches.submit(f"a{i}", mid, "note", {"text": "hi"})
        wait_for(lambda: all(row_version(w, mid) == w.store.version(mid) for mid in ids), 10,
                 "every row at its match's version")
        assert Leases(w.redis, w.store.keys, "x").renew_many([0, 1]) == [False, False], "leases are the follower's"
        assert thread.follower.leases.renew_many([0, 1]) == [True, True]
    finally:
        stop.set()
        thread.join(5)
    assert set(Leases(w.redis, w.store.keys, "x").holders(range(w.store.keys.partitions))) == {None}
