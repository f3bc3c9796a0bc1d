"""GET /state's rendered bodies: kept per (match, viewer) and version, revalidated by ETag, never shared."""
from __future__ import annotations

from tests.invites import start_http


def _race(client, make_user):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob]}, hb)
    return mid, (ann, ha), (bob, hb)


def _to_move(client, mid, seats):
    active = client.get(f"/api/matches/{mid}").get_json()["active_players"][0]
    return next(s for s in seats if s[0] == active)


def test_a_state_carries_an_etag_and_answers_304_while_nothing_moved(client, make_user):
    mid, ann, bob = _race(client, make_user)
    first = client.get(f"/api/matches/{mid}/state", headers=ann[1])
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(f"/api/matches/{mid}/state", headers={**ann[1], "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]


def test_a_move_gives_a_new_body_and_a_new_etag(client, make_user):
    mid, ann, bob = _race(client, make_user)
    mover = _to_move(client, mid, (ann, bob))
    before = client.get(f"/api/matches/{mid}/state", headers=mover[1])
    posted = client.post(f"/api/matches/{mid}/commands", headers=mover[1],
                         json={"type": "note", "payload": {"text": "moved"}})
    assert posted.status_code == 201
    after = client.get(f"/api/matches/{mid}/state", headers={**mover[1], "If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    assert after.get_json()["version"] == before.get_json()["version"] + 1
    assert "moved" in after.get_json()["view"]["notes"]
    assert after.headers["ETag"] != before.headers["ETag"]


def test_players_and_spectators_never_get_each_others_body(client, make_user):
    """dice-race hides each hand from the others: every viewer's body holds only what they may see, and one
    viewer's ETag never revalidates another's copy."""
    mid, ann, bob = _race(client, make_user)
    for _ in range(6):  # draw hidden cards until both hold some
        mover = _to_move(client, mid, (ann, bob))
        assert client.post(f"/api/matches/{mid}/commands", headers=mover[1],
                           json={"type": "draw", "payload": {}}).status_code == 201
    seen = {}
    for name, headers in (("ann", ann[1]), ("bob", bob[1]), ("spectator", {})):
        for _ in range(2):  # the second read is the kept body
            seen[name] = client.get(f"/api/matches/{mid}/state", headers=headers)
    own = {"ann": ann[0], "bob": bob[0]}
    for name, response in seen.items():
        hands = response.get_json()["view"]["hands"]
        for player, hand in hands.items():
            assert isinstance(hand, list) == (own.get(name) == player), (name, player, hand)
    tags = {name: r.headers["ETag"] for name, r in seen.items()}
    assert len(set(tags.values())) == 3
    crossed = client.get(f"/api/matches/{mid}/state", headers={"If-None-Match": tags["ann"]})
    assert crossed.status_code == 200 and crossed.headers["ETag"] == tags["spectator"]


def test_a_state_read_through_another_process_sees_the_latest_version(client, make_user, wiring):
    """Each web process keeps its own bodies: a move made through one is in the next read through another."""
    from service import create_app
    from service.bootstrap import build
    mid, ann, bob = _race(client, make_user)
    other = create_app(wiring=build(wiring.settings, games=wiring.games)).test_client()
    assert other.get(f"/api/matches/{mid}/state", headers=ann[1]).status_code == 200  # kept there
    mover = _to_move(client, mid, (ann, bob))
    client.post(f"/api/matches/{mid}/commands", headers=mover[1], json={"type": "note", "payload": {"text": "x"}})
    fresh = other.get(f"/api/matches/{mid}/state", headers=ann[1]).get_json()
    assert fresh["version"] == client.get(f"/api/matches/{mid}/state", headers=ann[1]).get_json()["version"]
    assert "x" in fresh["view"]["notes"]
