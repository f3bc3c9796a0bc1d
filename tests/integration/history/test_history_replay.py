"""Replay: every version as each viewer saw it live, snapshots bound a seek to K events, cold loads use them."""
from __future__ import annotations

import dataclasses

import pytest

from domain.engine import aggregate as agg
from service import create_app
from service.app.history import History
from service.cli.bench.seek import measure_seek
from service.bootstrap import build
from tests.conftest import drain_projections
from domain.games.dice_race import GAME as RACE
from workers import context
from tests.integration.history.races import command, start_race, turn_headers

K = 5


@pytest.fixture
def small_k(wiring, make_user):
    """A wiring whose projection job writes a snapshot every K versions, and its client (it replaces the
    default wiring as the worker's context)."""
    w = build(dataclasses.replace(wiring.settings, snapshot_every=K), games=wiring.games)
    context.use(w)
    yield w, create_app(wiring=w).test_client()
    context.use(None)


@pytest.fixture
def evolve_calls(monkeypatch, games):
    """Counts the dice race's evolve calls: the wiring's games serve a counting variant of the race."""
    calls = [0]

    def counting(state, event):
        calls[0] += 1
        return RACE.evolve(state, event)

    monkeypatch.setitem(games, RACE.id, dataclasses.replace(RACE, evolve=counting))
    return lambda: calls[0]


def test_replay_at_every_version_equals_the_live_view(small_k, make_user):
    """Views captured live after every command, per viewer, equal the replay at that version (before and
    after snapshots exist); at every version the replay equals a fold of the first v events."""
    w, client = small_k
    mid, people = start_race(client, make_user, target=40)
    viewers = {"ann": people["ann"][1], "bob": people["bob"][1], "spectator": {}}
    live = {}

    def capture():
        for who, headers in viewers.items():
            state = client.get(f"/api/matches/{mid}/state", headers=headers).get_json()
            live[(who, state["version"])] = state["view"]

    capture()
    for i in range(6):
        headers = turn_headers(client, mid, people)
        command(client, mid, headers, "note", text=f"n{i}")
        capture()
        command(client, mid, headers, "draw" if i % 2 else "roll")
        capture()
    for snapshots in (False, True):
        if snapshots:
            drain_projections(w)
            assert w.matches.snapshots.versions(mid)
        for (who, version), view in live.items():
            replay = client.get(f"/api/matches/{mid}/replay?version={version}", headers=viewers[who]).get_json()
            assert replay["version"] == version and replay["view"] == view, (who, version)
    envs = w.store.read_range(mid, 1)
    for v in range(len(envs) + 1):
        folded = agg.fold(mid, envs[:v], w.games)
        for who, headers in viewers.items():
            replay = client.get(f"/api/matches/{mid}/replay?version={v}", headers=headers).get_json()
            assert replay["view"] == folded.view(people[who][0] if who in people else None), (who, v)
            if who != "ann" and replay["view"]:
                assert isinstance(replay["view"]["hands"][people["ann"][0]], int), "ann's cards leaked"


def test_a_finished_match_replays_everything(client, make_user):
    """Once finished, a replay at any version shows every hand, also to the other player and spectators."""
    mid, people = start_race(client, make_user, target=8)
    ann, ha = people["ann"]
    drawn = command(client, mid, ha, "draw")["events"][0]
    while client.get(f"/api/matches/{mid}").get_json()["status"] != "finished":
        command(client, mid, turn_headers(client, mid, people), "roll")
    for headers in (people["bob"][1], {}):
        replay = client.get(f"/api/matches/{mid}/replay?version={drawn['version']}", headers=headers).get_json()
        assert replay["view"]["hands"][ann] == [drawn["data"]["card"]]
        assert isinstance(replay["view"]["deck"], list)


def test_seeking_folds_at_most_k_events(small_k, make_user, evolve_calls):
    """With snapshots every K versions no seek evolves more than K events; without, the far end folds them all."""
    w, client = small_k
    mid, people = start_race(client, make_user)
    ha = people["ann"][1]
    for i in range(4 * K + 3):
        command(client, mid, ha, "note", text=str(i))
    drain_projections(w)
    head = w.store.version(mid)
    assert w.matches.snapshots.versions(mid) == list(range(K, head + 1, K))
    history = History.from_wiring(w)
    for v in range(head + 1):
        before = evolve_calls()
        at = history.state_at(mid, v)
        assert evolve_calls() - before <= K, v
        assert at.version == v
    before = evolve_calls()
    history.state_at(mid, head, use_snapshots=False)
    assert evolve_calls() - before > K
    report = measure_seek(history, mid, seeks=8, counter=evolve_calls)
    assert report["events"] == head and report["with_snapshots"]["max_events_folded"] <= K
    assert report["without_snapshots"]["max_events_folded"] > K


def noted_race_with_snapshots(small_k, make_user, notes: int):
    """A dice race with `notes` notes of ann's, its snapshots written, and a fresh process's wiring:
    (wiring, client, match id, ann's headers, fresh wiring)."""
    w, client = small_k
    mid, people = start_race(client, make_user)
    ha = people["ann"][1]
    for i in range(notes):
        command(client, mid, ha, "note", text=str(i))
    drain_projections(w)
    return w, client, mid, ha, build(w.settings, games=w.games)


def test_cold_load_starts_from_a_snapshot_and_a_take_back_still_refolds(small_k, make_user, evolve_calls):
    """A fresh process folds from the latest snapshot (at most K events) and can take back past it."""
    w, client, mid, ha, fresh = noted_race_with_snapshots(small_k, make_user, 3 * K)
    before = evolve_calls()
    loaded = fresh.matches.load(mid)
    assert 0 < loaded.base < loaded.version and evolve_calls() - before <= K
    assert loaded.game_state == w.matches.load(mid).game_state
    resp = create_app(wiring=fresh).test_client().post(f"/api/matches/{mid}/takeback", headers=ha)
    assert resp.status_code == 201, resp.get_json()
    full = agg.fold(mid, w.store.read_range(mid, 1), w.games)
    assert fresh.matches.load(mid).game_state == full.game_state
    assert full.game_state["notes"] == [str(i) for i in range(3 * K - 1)]


def test_replay_bad_versions_and_unknown_match(client, make_user):
    """A version past the head or negative is a 400; an unknown match a 404."""
    mid, people = start_race(client, make_user)
    head = client.get(f"/api/matches/{mid}").get_json()["version"]
    for bad in (head + 1, -1, "x"):
        resp = client.get(f"/api/matches/{mid}/replay?version={bad}")
        assert resp.status_code == 400 and resp.get_json()["error"]["code"], bad
    assert client.get("/api/matches/m_nope/replay").status_code == 404
    latest = client.get(f"/api/matches/{mid}/replay").get_json()
    assert latest["version"] == head


def test_events_of_a_match_cold_loaded_from_a_snapshot_start_at_version_one(small_k, make_user):
    """GET events from 0 on a process that loaded the match from a snapshot still lists every event."""
    w, client, mid, ha, fresh = noted_race_with_snapshots(small_k, make_user, 2 * K)
    assert fresh.matches.load(mid).base > 0
    events = create_app(wiring=fresh).test_client().get(f"/api/matches/{mid}/events?after=0",
                                                        headers=ha).get_json()["events"]
    assert [e["version"] for e in events] == list(range(1, w.store.version(mid) + 1))
    assert events == client.get(f"/api/matches/{mid}/events?after=0", headers=ha).get_json()["events"]


def test_the_match_page_of_a_match_cold_loaded_from_a_snapshot_logs_every_move(small_k, make_user):
    """The page's move log and chat of a process that loaded the match from a snapshot go back to version 1,
    as on the process that played it (they showed only the events after the snapshot)."""
    import re
    w, client, mid, ha, fresh = noted_race_with_snapshots(small_k, make_user, 2 * K)
    assert fresh.matches.load(mid).base > 0
    logged = [re.findall(r'data-event-version="(\d+)"', c.get(f"/matches/{mid}").get_data(as_text=True))
              for c in (client, create_app(wiring=fresh).test_client())]
    assert logged[1] == logged[0] and "1" in logged[1]
    fresh.live.stop()
    fresh.users.cache.close()
