"""Disputes through the API: accept reverts, reject, expire by the RQ job, the match pauses, fresh dice."""
from __future__ import annotations

from rq import Queue
from rq.registry import ScheduledJobRegistry

from domain.engine.rng import draw_value
from service.store.connections import make_queue_redis
from tests.integration.history.races import command, start_race, turn_headers
from workers.history_jobs import expire_dispute
from tests.invites import start_http


def dispute(client, mid, headers, version, reason="that die was loaded"):
    resp = client.post(f"/api/matches/{mid}/disputes", headers=headers, json={"version": version, "reason": reason})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def vote(client, mid, did, headers, accept):
    return client.post(f"/api/matches/{mid}/disputes/{did}/votes", headers=headers, json={"accept": accept})


def test_unanimous_accept_reverts_and_the_replayed_roll_draws_fresh_dice(client, make_user, wiring):
    """Three players; ann's roll disputed by bob, accepted by ann and cy: reverted, the match paused meanwhile,
    and ann's new roll uses a later draw number whose value the seed derives."""
    mid, people = start_race(client, make_user, names=("ann", "bob", "cy"), target=50)
    ha, hb, hc = (people[n][1] for n in ("ann", "bob", "cy"))
    rolled = wiring.store.read_range(mid, command(client, mid, ha, "roll")["version"])[0]
    stored = wiring.store.read_range(mid, 1)
    opened = dispute(client, mid, hb, rolled["version"])
    assert opened["status"] == "open" and opened["deadline"]
    paused = client.post(f"/api/matches/{mid}/commands", headers=hb, json={"type": "roll"})
    assert paused.status_code == 409 and paused.get_json()["error"]["code"] == "match_paused"
    assert client.get(f"/api/matches/{mid}").get_json()["active_players"] == []
    assert vote(client, mid, opened["id"], hb, True).status_code == 422
    assert vote(client, mid, opened["id"], ha, True).get_json()["status"] == "open"
    assert vote(client, mid, opened["id"], hc, True).get_json() == {"id": opened["id"], "status": "accepted",
                                                                     "version": rolled["version"] + 5}
    after = wiring.store.read_range(mid, 1)
    assert after[:len(stored)] == stored, "the stream only grows"
    assert [e["type"] for e in after[len(stored):]] == ["dispute_opened", "dispute_voted", "dispute_voted",
                                                        "dispute_resolved", "moves_reverted"]
    state = client.get(f"/api/matches/{mid}/state", headers=ha).get_json()
    assert state["view"]["scores"][people["ann"][0]] == 0 and state["active_players"] == [people["ann"][0]]
    again = wiring.store.read_range(mid, command(client, mid, ha, "roll")["version"])[0]
    old_n, new = rolled["rng"][0][0], again["rng"][0]
    assert new[0] > old_n
    seed = bytes.fromhex(wiring.store.secret(mid))
    assert new[3] == draw_value(seed, mid, new[0], 1, 6) == again["data"]["value"]
    listed = client.get(f"/api/matches/{mid}/disputes").get_json()["disputes"]
    assert [(d["id"], d["status"], d["version"]) for d in listed] == [(opened["id"], "accepted", rolled["version"])]


def test_any_rejection_rejects(client, make_user):
    """One reject settles it; the disputed roll stays."""
    mid, people = start_race(client, make_user)
    (ann, ha), (_, hb) = people["ann"], people["bob"]
    rolled = command(client, mid, ha, "roll")["events"][0]
    opened = dispute(client, mid, hb, rolled["version"])
    assert vote(client, mid, opened["id"], ha, False).get_json()["status"] == "rejected"
    assert client.get(f"/api/matches/{mid}/state").get_json()["view"]["scores"][ann] == rolled["data"]["value"]
    assert vote(client, mid, opened["id"], ha, True).get_json()["error"]["rule"] == "platform:dispute.closed"


def test_the_deadline_rejects_through_the_scheduled_job(client, make_user, wiring):
    """Opening schedules expire_dispute with enqueue_in; run at the deadline it rejects, and is idempotent."""
    mid, people = start_race(client, make_user)
    rolled = command(client, mid, people["ann"][1], "roll")["events"][0]
    opened = dispute(client, mid, people["bob"][1], rolled["version"])
    queue = Queue("default", connection=make_queue_redis(wiring.settings))
    scheduled = ScheduledJobRegistry(queue=queue).get_job_ids()
    assert f"dispute-{mid}-{opened['id']}" in scheduled
    assert expire_dispute(mid, opened["id"]) == "open"
    assert expire_dispute(mid, opened["id"], now=opened["deadline"]) == "rejected"
    assert expire_dispute(mid, opened["id"], now=opened["deadline"]) == "rejected"
    events = client.get(f"/api/matches/{mid}/events?after={rolled['version']}").get_json()["events"]
    assert [(e["type"], e["data"].get("cause")) for e in events] == [("dispute_opened", None),
                                                                      ("dispute_resolved", "deadline")]
    assert client.get(f"/api/matches/{mid}").get_json()["active_players"] == [people["bob"][0]]


def test_listing_hides_what_the_viewer_could_not_see(client, make_user):
    """bob disputes ann's card draw: the card shows to ann only, until the match finishes."""
    mid, people = start_race(client, make_user, target=6)
    (ann, ha), (bob, hb) = people["ann"], people["bob"]
    drawn = command(client, mid, ha, "draw")["events"][0]
    opened = dispute(client, mid, hb, drawn["version"])

    def card(headers):
        [d] = client.get(f"/api/matches/{mid}/disputes", headers=headers).get_json()["disputes"]
        assert d["id"] == opened["id"] and d["reason"] == "that die was loaded"
        return d["event"]["data"]["card"]

    assert card(ha) == drawn["data"]["card"]
    assert card(hb) is None and card({}) is None
    vote(client, mid, opened["id"], ha, False)
    while client.get(f"/api/matches/{mid}").get_json()["status"] != "finished":
        command(client, mid, turn_headers(client, mid, people), "roll")
    assert card(hb) == drawn["data"]["card"] and card({}) == drawn["data"]["card"]


def test_bad_dispute_requests(client, make_user):
    """Bad body 400, outsiders 403, unknown dispute 404, a setup event or unknown version 422, a second 422."""
    mid, people = start_race(client, make_user)
    (ann, ha), (bob, hb) = people["ann"], people["bob"]
    _, hc = make_user("cy")
    rolled = command(client, mid, ha, "roll")["events"][0]
    url = f"/api/matches/{mid}/disputes"
    assert client.post(url, headers=hb, json={"version": "x", "reason": "r"}).status_code == 400
    assert client.post(url, headers=hb, json={"version": rolled["version"]}).status_code == 400
    assert client.post(url, headers=hc, json={"version": rolled["version"], "reason": "r"}).status_code == 403
    for version in (3, 999):
        resp = client.post(url, headers=hb, json={"version": version, "reason": "r"})
        assert resp.status_code == 422 and resp.get_json()["error"]["rule"] == "platform:dispute.not-a-move"
    opened = dispute(client, mid, hb, rolled["version"])
    resp = client.post(url, headers=ha, json={"version": rolled["version"], "reason": "r"})
    assert resp.get_json()["error"]["rule"] == "platform:dispute.already-open"
    assert vote(client, mid, "d999", ha, True).status_code == 404
    assert vote(client, mid, opened["id"], hc, True).status_code == 403
    assert client.post(f"/api/matches/{mid}/disputes/{opened['id']}/votes", headers=ha,
                       json={"accept": "maybe"}).status_code == 400
    assert client.get("/api/matches/m_missing/disputes").status_code == 404


def test_an_overdue_dispute_expires_on_next_access_even_without_the_job(client, make_user, wiring, monkeypatch):
    """A lost expiry job cannot stall the match: the next history call past the deadline rejects it."""
    mid, people = start_race(client, make_user)
    rolled = command(client, mid, people["ann"][1], "roll")["events"][0]
    opened = dispute(client, mid, people["bob"][1], rolled["version"])
    monkeypatch.setattr(wiring.matches, "clock", lambda: "2999-01-01T00:00:00.000Z")
    [listed] = client.get(f"/api/matches/{mid}/disputes").get_json()["disputes"]
    assert (listed["id"], listed["status"]) == (opened["id"], "rejected")
    assert client.get(f"/api/matches/{mid}").get_json()["active_players"] == [people["bob"][0]]


def test_accepting_a_dispute_on_the_middle_of_a_command_reverts_the_whole_command(client, make_user, wiring):
    """Uchronia through the API: dispute the middle event of a multi-event command, accept; the moves are
    reverted from the command's first event and the player to move has legal commands again."""
    import random

    users = {name: make_user(name) for name in ("ann", "bob")}
    headers = {uid: h for uid, h in users.values()}
    mid = start_http(client, users["ann"][1], {"game": "uchronia", "players": list(headers)}, users["bob"][1])
    chooser, command_events = random.Random(3), []
    while len(command_events) < 3:
        mover = chooser.choice(sorted(client.get(f"/api/matches/{mid}").get_json()["active_players"]))
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers[mover]).get_json()["commands"]
        answer = command_client(client, mid, headers[mover], chooser.choice(legal))
        command_events = [e["version"] for e in answer["events"] if e["scope"] == "game"]
    other = next(uid for uid in headers if uid != mover)
    opened = dispute(client, mid, headers[other], command_events[1], reason="that was not legal")
    [listed] = client.get(f"/api/matches/{mid}/disputes").get_json()["disputes"]
    assert listed["version"] == command_events[1] and listed["reverts_from"] == command_events[0]
    assert vote(client, mid, opened["id"], headers[mover], True).get_json()["status"] == "accepted"
    reverted = wiring.store.read_range(mid, wiring.store.version(mid))[0]
    assert reverted["type"] == "moves_reverted" and reverted["data"]["from_version"] == command_events[0]
    active = client.get(f"/api/matches/{mid}").get_json()["active_players"]
    assert active and all(client.get(f"/api/matches/{mid}/legal", headers=headers[p]).get_json()["commands"]
                          for p in active)


def command_client(client, mid, headers, cmd):
    """Send one command {"type", "payload"}; return the 201 answer."""
    resp = client.post(f"/api/matches/{mid}/commands", headers=headers, json=cmd)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()
