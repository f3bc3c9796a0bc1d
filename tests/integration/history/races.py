"""A dice race played through the HTTP API by test clients: started by invitation, sent commands, whose turn it is."""
from __future__ import annotations

import secrets

from tests.invites import start_http


def start_race(client, make_user, names=("ann", "bob"), target=10):
    """An invited dice race: (match id, {name: (user id, headers)})."""
    people = {n: make_user(n) for n in names}
    ann_headers = people[names[0]][1]
    mid = start_http(client, ann_headers, {"game": "dice-race", "players": [people[n][0] for n in names],
                                           "options": {"target": target}}, *[people[n][1] for n in names[1:]])
    return mid, people


def command(client, mid, headers, type_, **payload):
    """Submit a command that must be accepted (with a fresh command id, as careful clients do)."""
    body = {"type": type_, "payload": payload, "command_id": secrets.token_hex(6)}
    resp = client.post(f"/api/matches/{mid}/commands", headers=headers, json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def turn_headers(client, mid, people):
    """The headers of the player who must act."""
    active = client.get(f"/api/matches/{mid}").get_json()["active_players"]
    return next(h for uid, h in people.values() if uid in active)
