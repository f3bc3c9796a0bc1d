"""Backups' test data made through the API and read back: a populated site, random legal play, everything a reader
sees of the matches, the match lists, and the CLI run against a wiring's Redis."""
from __future__ import annotations

import random

from service.cli import main
from tests.invites import start_http


def play(client, match_id, tokens, steps, seed):
    """Random legal commands by whoever is to move."""
    chooser = random.Random(seed)
    for _ in range(steps):
        summary = client.get(f"/api/matches/{match_id}").get_json()
        if summary["status"] != "active" or not summary["active_players"]:
            return
        auth = tokens[summary["active_players"][0]]
        legal = client.get(f"/api/matches/{match_id}/legal", headers=auth).get_json()
        cmd = dict(chooser.choice(legal["commands"]), expected_version=legal["version"])
        assert client.post(f"/api/matches/{match_id}/commands", json=cmd, headers=auth).status_code == 201


def seen(client, match_ids, tokens) -> dict:
    """Everything a player or spectator can read of each match: summary, views, legal commands, audit, events."""
    out = {}
    for mid in match_ids:
        out[mid] = {"summary": client.get(f"/api/matches/{mid}").get_json(),
                    "audit": client.get(f"/api/matches/{mid}/audit").get_json(),
                    "spectator": client.get(f"/api/matches/{mid}/state").get_json(),
                    "events": client.get(f"/api/matches/{mid}/events?after=0").get_json()}
        for uid, auth in tokens.items():
            out[mid][uid] = (client.get(f"/api/matches/{mid}/state", headers=auth).get_json(),
                             client.get(f"/api/matches/{mid}/legal", headers=auth).get_json())
    return out


def listed(client) -> dict:
    """The match lists by status (from the projections), as sets of ids."""
    return {s: {m["id"] for m in client.get(f"/api/matches?status={s}").get_json()["matches"]}
            for s in ("open", "active", "finished")}


def populate(client, make_user):
    """Three users; a long Uchronia match, a finished dice race, an open match; returns (tokens, match ids)."""
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    make_user("cyd")
    tokens = {ann: ha, bob: hb}
    assert client.put("/api/users/me/webhook", json={"url": "https://example.com/hook"}, headers=ha).status_code == 200
    long_match = start_http(client, ha, {"game": "uchronia", "players": [ann, bob]}, hb)
    play(client, long_match, tokens, 30, seed=1)
    race = start_http(client, hb, {"game": "dice-race", "players": [ann, bob], "options": {"target": 3}}, ha)
    play(client, race, tokens, 60, seed=2)
    opened = client.post("/api/matches", json={"game": "uchronia", "seats": 3}, headers=hb).get_json()["id"]
    return tokens, [long_match, race, opened]


def main_with(w, argv) -> int:
    """Run the CLI against the wiring's Redis."""
    import os
    old = os.environ.get("REDIS_URL")
    os.environ["REDIS_URL"] = w.settings.redis_url
    try:
        return main(argv)
    finally:
        if old is None:
            os.environ.pop("REDIS_URL", None)
        else:
            os.environ["REDIS_URL"] = old
