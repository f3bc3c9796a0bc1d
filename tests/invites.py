"""Test helpers for invited matches made through the service layer: create, then every invited player accepts."""
from __future__ import annotations

from service.app import invitations


def create_started(w, creator: str, game, players: list, options: dict | None = None, **kw) -> str:
    """Create an invited match of `game` seating `players` (the creator among them) and start it; its id."""
    match = w.matches.create(creator, game.id, game.options_schema.load(options or {}), players=list(players), **kw)
    return invitations.accept_for_all(w.matches, match).id


def start_http(client, creator_headers: dict, body: dict, *invited_headers) -> str:
    """POST /api/matches with a Flask test client, then each of `invited_headers` accepts; the match id."""
    resp = client.post("/api/matches", json=body, headers=creator_headers)
    assert resp.status_code == 201, resp.get_json()
    mid = resp.get_json()["id"]
    for headers in invited_headers:
        answer = client.post(f"/api/matches/{mid}/accept", headers=headers)
        assert answer.status_code == 200, answer.get_json()
    return mid
