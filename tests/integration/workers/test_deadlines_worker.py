"""A real web server and worker: a passed turn deadline appends turn_timed_out and the game's default move."""
from __future__ import annotations


from tests.e2e.processes import Api, service, start_invited
from tests.waiting import wait_for


def test_the_worker_times_out_a_waiting_player(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    with service(redis_url, tmp_path) as base:
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        _, bob = Api(base).post("/api/users", {"name": "bob"})
        status, match = start_invited(Api(base, ann["token"]), {
            "game": "uchronia", "players": [ann["id"], bob["id"]], "turn_deadline_hours": 0.001},
            {bob["id"]: bob["token"]})
        assert status == 201
        mid, started = match["id"], match["version"]
        bob_api = Api(base, bob["token"])
        status, legal = bob_api.get(f"/api/matches/{mid}/legal")
        assert status == 200 and legal["commands"]
        assert bob_api.post(f"/api/matches/{mid}/commands", legal["commands"][0])[0] == 201
        def events_once_timed_out():
            events = Api(base, ann["token"]).get(f"/api/matches/{mid}/events?after={started}")[1]["events"]
            return events if any(e["type"] == "turn_timed_out" for e in events) else None

        events = wait_for(events_once_timed_out, 15, "the deadline job", interval=0.2)
        timed_out = [e for e in events if e["type"] == "turn_timed_out"]
        assert [e["data"]["player"] for e in timed_out] == [ann["id"]], "only the player who did not move"
        after = [e for e in events if e["version"] > timed_out[0]["version"]]
        assert after and after[0]["scope"] == "game" and after[0]["actor"] is None
        assert after[0]["type"] == "card_discarded_to_forum" and after[0]["data"]["player"] == ann["id"]
