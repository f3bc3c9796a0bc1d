"""The real processes (web, worker, deliveries worker) with an SMTP server on loopback: a player away from the page
gets one "your move" mail within 30 s of the opponent's move, and its link opens the match."""
from __future__ import annotations

import time
import urllib.request

from tests.e2e.processes import Api, service, start_invited
from tests.mailbox import Mailbox, link_path, notifications_idle
from tests.waiting import wait_for


def test_your_move_mail_arrives_within_30_seconds_with_a_working_link(redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    mailbox = Mailbox().start()
    try:
        with service(redis_url, tmp_path, extra_env={"TURNSTREAM_SMTP_URL": mailbox.url}) as base:
            players = {}
            for name in ("ann", "bob"):
                _, made = Api(base).post("/api/users", {"name": name})
                api = Api(base, made["token"])
                assert api.call("PUT", "/api/users/me/email", {"email": f"{name}@example.com"})[0] == 202
                verify = wait_for(lambda: mailbox.to(f"{name}@example.com"), 30, f"{name}'s verification mail")
                with urllib.request.urlopen(base + link_path(verify[0], "/verify-email/"), timeout=10) as page:
                    assert page.status == 200
                players[name] = (made, api)
            (ann, ann_api), (bob, _bob_api) = players["ann"], players["bob"]
            tokens = {ann["id"]: ann["token"], bob["id"]: bob["token"]}
            status, match = start_invited(ann_api, {"game": "uchronia", "players": [ann["id"], bob["id"]]}, tokens)
            assert status == 201
            mid = match["id"]
            mover = next(name for name, (made, _) in players.items()
                         if made["id"] in ann_api.get(f"/api/matches/{mid}")[1]["active_players"])
            other = "bob" if mover == "ann" else "ann"
            wait_for(lambda: any(m["X-Turnstream-Kind"] == "your_move" for m in mailbox.to(f"{mover}@example.com")),
                     30, "the first player's 'your move' mail")
            api = players[mover][1]
            version = api.get(f"/api/matches/{mid}")[1]["version"]
            while True:  # the mover plays until it is the other player's turn
                legal = api.get(f"/api/matches/{mid}/legal")[1]
                if not legal["commands"]:
                    break
                command = legal["commands"][0]
                assert api.post(f"/api/matches/{mid}/commands", {**command,
                                                                 "expected_version": legal["version"]})[0] == 201
            moved_at = time.monotonic()
            assert api.get(f"/api/matches/{mid}")[1]["version"] > version
            mails = wait_for(lambda: [m for m in mailbox.to(f"{other}@example.com")
                                      if m["X-Turnstream-Kind"] == "your_move"], 30, "the 'your move' mail")
            assert time.monotonic() - moved_at < 30
            with urllib.request.urlopen(base + link_path(mails[0], f"/matches/{mid}"), timeout=10) as page:
                assert page.status == 200 and mid in page.read().decode()
            wait_for(lambda: notifications_idle(redis.Redis.from_url(redis_url)), 30, "no mail left on its way")
            assert len([m for m in mailbox.to(f"{other}@example.com") if m["X-Turnstream-Kind"] == "your_move"]) == 1
    finally:
        mailbox.stop()
