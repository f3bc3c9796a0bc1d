"""Concurrency: racing clients on one match, many matches at once, stale caches across web processes."""
from __future__ import annotations

import json
import threading
from collections import Counter

from domain.engine.hashing import verify_chain
from service.app.errors import AppError, Conflict, RuleRefused, VersionConflict
from service.bootstrap import build
from tests.conftest import drain_projections
from tests.invites import create_started

ROUNDS = 6
RACERS = 8


def own_service(w):
    """A MatchService with its own fold cache on the same Redis: another web process."""
    return build(w.settings, games=w.games).matches


def new_race(w, players=("ann", "bob")):
    """A started dice-race match; returns its id."""
    game = w.games["dice-race"]
    return create_started(w, players[0], game, list(players))


def note(text: str) -> tuple:
    return "note", {"text": text}


def stored(w, match_id: str) -> list:
    return w.store.read_range(match_id, 1)


def test_racers_get_one_success_per_version_and_the_rest_409(wiring):
    """RACERS threads (each its own process cache) race ROUNDS times at the same expected version:
    exactly one 201 per round, every other answer a 409 carrying the current version; the stream has
    no gap and no duplicate, and its hash chain holds."""
    w = wiring
    mid = new_race(w)
    services = [own_service(w) for _ in range(RACERS)]
    for svc in services:
        svc.load(mid)  # warm caches: the optimistic one-round-trip path is what races
    outcomes: list = []
    lock = threading.Lock()

    def racer(i, barrier, version):
        barrier.wait()
        try:
            answer = services[i].submit("ann", mid, *note(f"r{i}"), expected_version=version)
            result = ("ok", answer["version"], i)
        except AppError as exc:
            result = (409 if isinstance(exc, VersionConflict) else repr(exc), exc.extra.get("current_version"), i)
        with lock:
            outcomes.append(result)

    for _round in range(ROUNDS):
        version = w.store.version(mid)
        barrier = threading.Barrier(RACERS, timeout=30)
        threads = [threading.Thread(target=racer, args=(i, barrier, version)) for i in range(RACERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        round_results = outcomes[-RACERS:]
        wins = [r for r in round_results if r[0] == "ok"]
        assert len(wins) == 1, round_results
        assert wins[0][1] == version + 1
        assert all(r[0] == 409 and r[1] == version + 1 for r in round_results if r[0] != "ok"), round_results
    envs = stored(w, mid)
    assert [e["version"] for e in envs] == list(range(1, len(envs) + 1))
    assert verify_chain(envs, bytes.fromhex(w.store.secret(mid))) is None
    notes = [e["data"]["text"] for e in envs if e["type"] == "noted"]
    assert len(notes) == ROUNDS and len(set(notes)) <= RACERS


def test_racers_retrying_on_conflict_each_land_exactly_once(wiring):
    """Racers without an expected version (each its own cache) retry a 409 with the same command id,
    as a client does: every command lands exactly once, on a gapless chain."""
    w = wiring
    mid = new_race(w)
    services = [own_service(w) for _ in range(RACERS)]
    for svc in services:
        svc.load(mid)
    barrier = threading.Barrier(RACERS, timeout=30)
    errors: list = []

    def racer(i):
        barrier.wait()
        for k in range(4):
            for _attempt in range(100):
                try:
                    services[i].submit("ann", mid, *note(f"{i}-{k}"), command_id=f"{i}-{k}")
                    break
                except Conflict:
                    continue
                except AppError as exc:
                    errors.append(repr(exc))
                    return
            else:
                errors.append(f"{i}-{k} never landed")

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    envs = stored(w, mid)
    notes = Counter(e["data"]["text"] for e in envs if e["type"] == "noted")
    assert notes == Counter({f"{i}-{k}": 1 for i in range(RACERS) for k in range(4)})
    assert [e["version"] for e in envs] == list(range(1, len(envs) + 1))
    assert verify_chain(envs, bytes.fromhex(w.store.secret(mid))) is None


def test_many_matches_in_parallel_have_no_cross_talk(wiring, client):
    """Twelve matches driven at once from six threads: each stream holds only its own commands, in
    order, and each read model row (after projection) is at its match's version."""
    w = wiring
    matches = [new_race(w, (f"p{i}a", f"p{i}b")) for i in range(12)]
    errors: list = []

    def driver(mine):
        try:
            for k in range(10):
                for mid in mine:
                    w.matches.submit(w.matches.load(mid).players[0], mid, *note(f"{mid[-6:]}:{k}"))
        except Exception as exc:  # reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=driver, args=(matches[i::6],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    for mid in matches:
        envs = stored(w, mid)
        texts = [e["data"]["text"] for e in envs if e["type"] == "noted"]
        assert texts == [f"{mid[-6:]}:{k}" for k in range(10)]
        assert verify_chain(envs, bytes.fromhex(w.store.secret(mid))) is None
    drain_projections(w)
    for mid in matches:
        row = json.loads(w.redis.get(w.store.keys.summary(mid)))
        assert row["version"] == w.store.version(mid) and row["players"] == w.matches.load(mid).players


def count_round_trips(service) -> Counter:
    """Count the service's store round trips (reads and appends) from now on."""
    store, counts = service.store, Counter()
    read, append = store.read, store.append

    def counted_read(*args, **kwargs):
        counts["read"] += 1
        return read(*args, **kwargs)

    def counted_append(*args, **kwargs):
        counts["append"] += 1
        return append(*args, **kwargs)

    store.read, store.append = counted_read, counted_append
    return counts


def test_a_command_costs_one_round_trip_on_a_fresh_cache_and_two_on_a_stale_one(wiring):
    """The command path's round trips: fresh cache -> the append only; a cache another process made
    stale -> the append, whose conflict answer carries the missing events, then the append again."""
    w = wiring
    mid = new_race(w)
    a, b = own_service(w), own_service(w)
    a.load(mid)
    b.load(mid)
    counts = count_round_trips(a)
    a.submit("ann", mid, *note("fresh"))
    assert counts == Counter({"append": 1})
    b.submit("ann", mid, *note("from b"))
    counts.clear()
    answer = a.submit("ann", mid, *note("stale"))
    assert counts == Counter({"append": 2})
    assert answer["version"] == w.store.version(mid)
    assert [e["data"]["text"] for e in stored(w, mid) if e["type"] == "noted"] == ["fresh", "from b", "stale"]


def test_a_refused_command_on_a_stale_cache_is_decided_on_the_fresh_state(wiring):
    """A cache that still thinks it is ann's turn refuses nothing wrongly: bob's roll, refused on the
    stale fold, is read again and accepted; a refusal on the fresh fold stays a 422 citing the rule."""
    w = wiring
    mid = new_race(w)
    a, b = own_service(w), own_service(w)
    a.load(mid)
    b.submit("ann", mid, "roll", {})
    assert a.submit("bob", mid, "roll", {})["events"][0]["type"] == "die_rolled"
    try:
        a.submit("bob", mid, "roll", {})
    except RuleRefused as exc:
        assert exc.extra["rule"] == "dice-race:race.turn"
    else:
        raise AssertionError("bob rolled twice in a row")
    assert [e["data"]["player"] for e in stored(w, mid) if e["type"] == "die_rolled"] == ["ann", "bob"]
