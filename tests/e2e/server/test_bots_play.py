"""A person plays every game against every bot level over HTTP with a real worker; an absent player
is stood in for by the greedy bot after repeated timeouts and takes the seat back by moving."""
from __future__ import annotations

import random
import threading
import time

import pytest

from domain.engine.timestamps import parse_time
from tests.e2e.processes import Api, service, spawn, start_invited, stop
from tests.waiting import wait_for

BOT_MS = 100
SHORT = {"uchronia": {"max_rounds": 5}, "merchant-of-venus": {"max_rounds": 3},
         "ti4-exploration": {"rounds": 1}, "origins": {"max_rounds": 3}}


def play_as_person(api: Api, me: str, match_id: str, seed: int, timeout: float = 240) -> dict:
    """Send a random legal command whenever it is `me`'s move, until the match finishes; return its summary."""
    chooser = random.Random(seed)
    deadline = time.monotonic() + timeout

    def my_move_or_the_end():
        """My legal commands when I have some, else the summary of the finished match, else None."""
        status, legal = api.get(f"/api/matches/{match_id}/legal")
        assert status == 200
        if legal["commands"]:
            return legal
        summary = api.get(f"/api/matches/{match_id}")[1]
        return summary if summary["status"] == "finished" else None

    while True:
        # a person looks every 0.1 s, not in a tight loop: that would starve the worker on 2 cores
        found = wait_for(my_move_or_the_end, max(0.0, deadline - time.monotonic()),
                         f"{match_id} to finish in {timeout} s", interval=0.1)
        if "commands" not in found:
            return found
        command = dict(chooser.choice(found["commands"]), expected_version=found["version"])
        status, answer = api.post(f"/api/matches/{match_id}/commands", command)
        assert status in (201, 409), answer  # 409: a bot moved in between


def bot_delays(events: list, bot: str) -> list:
    """(seconds, version) from the event before each of the bot's commands to that command's first event
    (the events of one command share their time stamp)."""
    return [((parse_time(env["at"]) - parse_time(before["at"])).total_seconds(), env["version"])
            for before, env in zip(events, events[1:]) if env["actor"] == bot and env["at"] != before["at"]]


@pytest.mark.slow
def test_a_person_plays_each_game_against_each_bot_level(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    env = {"TURNSTREAM_BOT_MS": str(BOT_MS)}
    with service(redis_url, tmp_path, extra_env=env) as base:
        # a worker of its own for bot turns (the main worker serves them too), as a busy site would run
        bots_worker = spawn(["worker", "--queues", "bots"], redis_url, tmp_path / "bots.log", env)
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        api = Api(base, ann["token"])
        outcomes, failures = {}, []

        def one(game: str, level: str, seed: int) -> None:
            try:
                status, match = api.post("/api/matches", {"game": game, "players": [ann["id"]], "bots": [level],
                                                          "options": SHORT[game]})
                assert status == 201 and match["status"] == "active", match
                summary = play_as_person(api, ann["id"], match["id"], seed)
                events = api.get(f"/api/matches/{match['id']}/events")[1]["events"]
                outcomes[(game, level)] = (summary, events)
            except BaseException as exc:  # reported below, with the game and level
                failures.append((game, level, repr(exc)))

        for level in ("random", "greedy", "mcts"):
            threads = [threading.Thread(target=one, args=(game, level, n)) for n, game in enumerate(SHORT)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        stop(bots_worker)
        assert not failures, failures
        delays = []
        for (game, level), (summary, events) in outcomes.items():
            bot = f"bot:{level}:1"
            assert summary["players"] == [ann["id"], bot] and summary["result"]["winners"]
            moved = [e for e in events if e["actor"] == bot]
            assert moved, f"the {level} bot never moved in {game}"
            delays += [(d, level, game, v) for d, v in bot_delays(events, bot)]
        delays.sort()
        p75, p90, slowest = delays[int(0.75 * (len(delays) - 1))], delays[int(0.9 * (len(delays) - 1))], delays[-1]
        print(f"bot moves: {len(delays)}, p50 {delays[len(delays) // 2][0]:.3f} s, p75 {p75[0]:.3f} s, "
              f"p90 {p90[0]:.3f} s, max {slowest[0]:.3f} s ({slowest[1]} in {slowest[2]} at version {slowest[3]})")
        # the bots think at most BOT_MS; a move's arrival adds the projection and the job queue. On the
        # shared 2-core machine (load average 17-30 from other test runs) a process starves for seconds
        # now and then, so the hard checks are: the 75th percentile within budget + 1 s, none over 15 s
        # (a stalled or lost bot turn); the figures are printed
        assert p75[0] <= BOT_MS / 1000 + 1.0, f"p75 of bot moves {p75[0]:.2f} s; slowest {slowest}"
        assert slowest[0] <= 15.0, f"slowest bot move {slowest}"
        board = api.get("/api/games/uchronia/leaderboard")[1]["ratings"]
        assert {r["user"] for r in board} == {ann["id"], "bot:random:1", "bot:greedy:1", "bot:mcts:1"}
        assert {r["name"] for r in board} >= {"Random bot", "Greedy bot", "MCTS bot"}


def test_an_absent_player_is_stood_in_for_and_takes_the_seat_back(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    with service(redis_url, tmp_path, extra_env={"TURNSTREAM_BOT_MS": str(BOT_MS)}) as base:
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        _, bob = Api(base).post("/api/users", {"name": "bob"})
        ann_api, bob_api = Api(base, ann["token"]), Api(base, bob["token"])
        status, match = start_invited(ann_api, {"game": "uchronia", "players": [ann["id"], bob["id"]],
                                                "turn_deadline_hours": 0.001, "replace_after_timeouts": 2},
                                      {bob["id"]: bob["token"]})
        assert status == 201
        mid = match["id"]
        chooser = random.Random(5)
        stop = threading.Event()

        def ann_plays():
            while not stop.is_set():
                _, legal = ann_api.get(f"/api/matches/{mid}/legal")
                if legal["commands"]:
                    ann_api.post(f"/api/matches/{mid}/commands",
                                 dict(chooser.choice(legal["commands"]), expected_version=legal["version"]))
                stop.wait(0.05)  # a person's pace, and an end as soon as the test stops

        player = threading.Thread(target=ann_plays, daemon=True)
        player.start()
        try:
            def events():
                return ann_api.get(f"/api/matches/{mid}/events")[1]["events"]

            def stood_in():
                evs = events()
                started = [e for e in evs if e["type"] == "stand_in_started"]
                return evs if started and any(e["actor"] == bob["id"] and e["version"] > started[0]["version"]
                                              for e in evs) else None

            evs = wait_for(stood_in, 40, "two timeouts of bob, then the stand-in moving for him", interval=0.2)
            started = next(e for e in evs if e["type"] == "stand_in_started")
            assert started["data"] == {"player": bob["id"], "bot": "greedy", "after_timeouts": 2}
            timeouts = [e for e in evs if e["type"] == "turn_timed_out" and e["version"] < started["version"]]
            assert [e["data"]["player"] for e in timeouts][-2:] == [bob["id"], bob["id"]]

            def bob_moves():
                _, legal = bob_api.get(f"/api/matches/{mid}/legal")
                if not legal["commands"]:
                    return None
                status, answer = bob_api.post(f"/api/matches/{mid}/commands",
                                              dict(legal["commands"][0], expected_version=legal["version"]))
                return answer if status == 201 else None

            answer = wait_for(bob_moves, 40, "bob's own move", interval=0.01)
            assert answer["events"][0]["type"] == "stand_in_ended"
            assert answer["events"][0]["data"] == {"player": bob["id"]}
            back = answer["version"]

            def bobs_turn_again():
                summary = bob_api.get(f"/api/matches/{mid}")[1]
                return summary if bob["id"] in summary["active_players"] else None

            waiting = wait_for(bobs_turn_again, 20, "bob's next turn")
            time.sleep(1.0)  # the stand-in would move within BOT_MS; the deadline is 3.6 s away
            after = [e for e in events() if e["version"] > max(back, waiting["version"])]
            assert all(e["actor"] != bob["id"] for e in after), "nobody plays for bob once he is back"
        finally:
            stop.set()
            player.join(5)


def test_a_worker_killed_during_a_bots_move_delays_it_and_never_stalls_the_match(redis_url, tmp_path):
    """kill -9 the only worker serving bot turns while the MCTS bot thinks (5 s); a new worker plays the turn."""
    import os
    import signal

    import redis
    from rq.job import Job, JobStatus

    from workers.bot_turns import bot_turn_job_id
    conn = redis.Redis.from_url(redis_url)
    conn.flushdb()
    slow = {"TURNSTREAM_BOT_MS": "5000"}
    with service(redis_url, tmp_path, worker=False, extra_env=slow) as base:
        # projections and deadlines (and the reconciler) in one worker; bot turns only in one we can kill
        main = spawn(["worker", "--queues", "projections,default"], redis_url, tmp_path / "worker.log", slow)
        _, ann = Api(base).post("/api/users", {"name": "ann"})
        api = Api(base, ann["token"])
        status, match = api.post("/api/matches", {"game": "uchronia", "players": [ann["id"]], "bots": ["mcts"]})
        assert status == 201
        mid = match["id"]
        bots = spawn(["worker", "--queues", "bots"], redis_url, tmp_path / "bots-1.log", slow)
        try:
            while api.get(f"/api/matches/{mid}")[1]["active_players"] == [ann["id"]]:
                legal = api.get(f"/api/matches/{mid}/legal")[1]
                assert api.post(f"/api/matches/{mid}/commands", legal["commands"][0])[0] == 201
            version = api.get(f"/api/matches/{mid}")[1]["version"]
            jid = bot_turn_job_id(mid, "bot:mcts:1", version)

            def thinking():
                return conn.exists(Job.key_for(jid)) and Job.fetch(jid, connection=conn).get_status() == JobStatus.STARTED

            wait_for(thinking, 30, "the bots worker to start the MCTS bot's turn", interval=0.05)
            os.kill(bots.pid, signal.SIGKILL)
            bots.wait(10)
            assert api.get(f"/api/matches/{mid}")[1]["version"] == version, "the killed search sent nothing"
        finally:
            stop(bots)
        again = spawn(["worker", "--queues", "bots"], redis_url, tmp_path / "bots-2.log", slow)
        try:
            def bot_moved():
                summary = api.get(f"/api/matches/{mid}")[1]
                return summary if summary["version"] > version else None

            wait_for(bot_moved, 60, "the bot's turn scheduled again and played by the new worker", interval=0.2)
            events = api.get(f"/api/matches/{mid}/events?after={version}")[1]["events"]
            assert events[0]["actor"] == "bot:mcts:1"
        finally:
            stop(again)
            stop(main)
