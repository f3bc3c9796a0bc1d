"""The projection follower: workers read the partition logs themselves, one projector per partition (leases)."""
from __future__ import annotations

import threading
import time

from tests.invites import create_started
from tests.integration.projections.projected import row_version
from tests.waiting import wait_for
from projections import follower as follower_mod
from projections.follower import ProjectionFollower, start_follower
from projections.delivery import catch_up, lagging_partitions
from projections.leases import Leases


def run_follower(w, owner: str):
    """Start a follower thread on `w`; return (thread, stop event)."""
    stop = threading.Event()
    return start_follower(w.projector, owner, stop, gather_seconds=w.settings.follow_gather_ms / 1000), stop


def recorded_claims(monkeypatch) -> list:
    """Each follower's finished claims (renew, share, take) as (owner, when it ended, partitions then held)."""
    claims, claim = [], ProjectionFollower.claim

    def recording(self):
        claim(self)
        claims.append((self.owner, time.monotonic(), len(self.positions)))
    monkeypatch.setattr(ProjectionFollower, "claim", recording)
    return claims


def test_a_follower_projects_each_command_without_any_job(wiring):
    """With no RQ worker, a follower brings each match's row to its version within moments of
    the append, holds every partition's lease while it runs, and gives them all up when stopped."""
    w = wiring
    thread, stop = run_follower(w, "follower-a")
    try:
        wait_for(lambda: len(thread.follower.positions) == w.store.keys.partitions, 10, "every lease taken")
        mid = create_started(w, "ann", w.games["dice-race"], ["ann", "bob"])
        lags = []
        for k in range(20):
            version = w.matches.submit("ann", mid, "note", {"text": f"n{k}"})["version"]
            start = time.monotonic()
            wait_for(lambda: row_version(w, mid) >= version, 10, f"the row at version {version}")
            lags.append(time.monotonic() - start)
        assert sorted(lags)[10] < 0.25, lags
        assert lagging_partitions(w.redis, w.store.keys) == []
    finally:
        stop.set()
        thread.join(5)
    holders = Leases(w.redis, w.store.keys, "test").holders(range(w.store.keys.partitions))
    assert holders == [None] * w.store.keys.partitions


def test_commands_arriving_during_the_gather_pause_are_projected_in_one_batch(wiring):
    """After a batch the follower waits its gather pause before reading again: a burst that arrives meanwhile
    is read and projected as one batch, not one batch per command (a batch's round trips are most of its cost)."""
    w = wiring
    stop = threading.Event()
    # a pause long enough for 20 in-process commands even on a loaded 2-core machine (0.5 s was not, once)
    follower = ProjectionFollower(w.projector, "gatherer", stop, gather_seconds=2.0)
    thread = threading.Thread(target=follower.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: len(follower.positions) == w.store.keys.partitions, 10, "every lease taken")
        mid = create_started(w, "ann", w.games["dice-race"], ["ann", "bob"])
        wait_for(lambda: row_version(w, mid) >= w.matches.load(mid).version, 10, "the new match projected")
        before = follower.batches
        first = w.matches.submit("ann", mid, "note", {"text": "first"})["version"]
        wait_for(lambda: row_version(w, mid) >= first, 10, "the first note projected", interval=0.005)
        started = time.monotonic()
        burst = [w.matches.submit("ann", mid, "note", {"text": f"n{k}"})["version"] for k in range(20)]
        assert time.monotonic() - started < 2.0, "the burst outlasted the pause: the machine is too busy to tell"
        wait_for(lambda: row_version(w, mid) >= burst[-1], 10, "the burst projected")
        assert follower.batches - before == 2, "the first note alone, then the whole burst together"
    finally:
        stop.set()
        thread.join(5)


def test_two_followers_never_hold_one_partition_and_a_silent_ones_partitions_are_taken_over(wiring, monkeypatch,
                                                                                          caplog):
    """A second follower takes nothing the first holds; when the first stops renewing (frozen or killed),
    its leases lapse and the second takes them over from their checkpoints, missing no entry; the first, woken,
    says in one line which partitions it lost."""
    w = wiring
    monkeypatch.setattr(follower_mod, "RENEW_SECONDS", 0.1)
    claims = recorded_claims(monkeypatch)
    short = 600
    first = ProjectionFollower(w.projector, "first", threading.Event())
    first.leases.lease_ms = short
    held_until = time.monotonic() + short / 1000  # the first's leases last at least this long
    first.claim()  # takes every partition, then falls silent: it never reads nor renews
    assert len(first.positions) == w.store.keys.partitions
    mid = create_started(w, "ann", w.games["dice-race"], ["ann", "bob"])
    version = w.matches.submit("ann", mid, "note", {"text": "silent"})["version"]
    second, stop = run_follower(w, "second")
    second.follower.leases.lease_ms = short
    try:
        wait_for(lambda: sum(owner == "second" for owner, _at, _held in claims) >= 2, 10, "two claims of the second")
        early = [held for owner, at, held in claims if owner == "second" and at < held_until]
        assert early and not any(early), "the second took a partition the first still held"
        wait_for(lambda: row_version(w, mid) >= version, 10, "the second follower to take the lapsed leases")
        wait_for(lambda: len(second.follower.positions) == w.store.keys.partitions, 10,
                 "the second to take every partition once the silent one no longer counts as alive")
        holders = set(Leases(w.redis, w.store.keys, "test").holders(range(w.store.keys.partitions)))
        assert holders == {"second"}
        caplog.clear()
        first.claim()  # the first wakes up: its leases are gone, and it takes none back
        assert first.positions == {}
        lost = [r.getMessage() for r in caplog.records if "lost the lease" in r.getMessage()]
        assert lost == [f"projection follower: lost the lease of {w.store.keys.partitions} partitions "
                        f"(0-{w.store.keys.partitions - 1})"]
    finally:
        stop.set()
        second.join(5)


def test_two_running_followers_share_the_partitions_and_one_left_takes_them_all(wiring, monkeypatch):
    """A second follower makes the first give half its partitions up (an even share each, none held twice,
    every one held); when the second stops, the first takes them all back, and rows keep coming."""
    w = wiring
    monkeypatch.setattr(follower_mod, "RENEW_SECONDS", 0.1)
    partitions = w.store.keys.partitions
    first, stop_first = run_follower(w, "first")
    second = stop_second = None
    try:
        wait_for(lambda: len(first.follower.positions) == partitions, 10, "the first to take every partition")
        second, stop_second = run_follower(w, "second")
        wait_for(lambda: len(first.follower.positions) == len(second.follower.positions) == partitions // 2, 10,
                 "an even share each")
        holders = Leases(w.redis, w.store.keys, "test").holders(range(partitions))
        assert sorted(holders) == sorted(["first"] * (partitions // 2) + ["second"] * (partitions // 2))
        stop_second.set()
        second.join(5)
        wait_for(lambda: len(first.follower.positions) == partitions, 10, "the first to take them all back")
        mid = create_started(w, "ann", w.games["dice-race"], ["ann", "bob"])
        version = w.matches.submit("ann", mid, "note", {"text": "after"})["version"]
        wait_for(lambda: row_version(w, mid) >= version, 10, "the row projected by the one left")
    finally:
        stop_first.set()
        first.join(5)
        if stop_second is not None:
            stop_second.set()
            second.join(5)


def test_a_catch_up_leaves_a_followed_partition_alone(wiring):
    """A catch-up of a partition whose lease a follower holds writes nothing; once free, it projects."""
    w = wiring
    mid = create_started(w, "ann", w.games["dice-race"], ["ann", "bob"])
    p = w.store.keys.partition(mid)
    holder = Leases(w.redis, w.store.keys, "some-follower")
    assert holder.take(p)
    assert catch_up(w.projector, p) is None and row_version(w, mid) == 0
    holder.release(p)
    assert catch_up(w.projector, p) == 1 and row_version(w, mid) == w.store.version(mid)
    assert w.redis.get(w.store.keys.projector(p)) is None, "the catch-up gave its own lease up"


def test_a_batch_reads_the_new_events_of_its_cached_matches_in_one_round_trip(wiring, monkeypatch):
    """The matches of one projection batch that the process has folded before are caught up by one pipelined
    read (not one read each), and come out equal to a fresh load; one that is not cached is loaded alone."""
    from service.app.matches import MatchService
    w = wiring
    race = w.games["dice-race"]
    ids = [create_started(w, f"p{i}", race, [f"p{i}", f"q{i}"]) for i in range(4)]
    before = {m.id: m.version for m in w.matches.load_many(ids)}  # now cached in this process
    other_process = MatchService(w.store, w.games)
    for i, mid in enumerate(ids):
        other_process.submit(f"p{i}", mid, "note", {"text": f"x{i}"})
    w.matches.cache.evict(ids[0])
    calls = []
    real_read, real_many = w.store.read, w.store.read_many
    monkeypatch.setattr(w.store, "read", lambda *a, **k: calls.append("read") or real_read(*a, **k))
    monkeypatch.setattr(w.store, "read_many", lambda *a, **k: calls.append("read_many") or real_many(*a, **k))
    loaded = w.matches.load_many(ids)
    assert sorted(calls) == ["read", "read_many"]
    assert all(match.version == before[match.id] + 1 for match in loaded)
    fresh = MatchService(w.store, w.games)
    for match in loaded:
        again = fresh.load(match.id)
        assert (match.version, match.head, match.game_state) == (again.version, again.head, again.game_state)


def test_a_batch_costs_the_same_round_trips_for_one_match_as_for_many(settings, redis_client, games, monkeypatch):
    """Projecting a batch that touches six matches costs as many round trips as one that touches one: the
    reads, the rows, indexes, inboxes and change feed are pipelined (one MULTI on a single Redis)."""
    import dataclasses

    from service.app.matches import MatchService
    from service.bootstrap import build
    from workers import context
    w = build(dataclasses.replace(settings, partitions=1), games=games)
    context.use(w)
    try:
        race = w.games["dice-race"]
        ids = [create_started(w, f"p{i}", race, [f"p{i}", f"q{i}"]) for i in range(6)]
        assert catch_up(w.projector, 0) > 0  # rows exist, the matches are cached in this process
        elsewhere = MatchService(w.store, w.games)

        def round_trips_to_project(match_ids) -> int:
            for mid in match_ids:
                elsewhere.submit(f"p{ids.index(mid)}", mid, "note", {"text": "x"})
            trips, here = [], threading.get_ident()  # this thread's: the live hub's reads run on their own
            real_command = type(w.redis).execute_command
            real_pipe = type(w.redis.pipeline()).execute
            monkeypatch.setattr(type(w.redis), "execute_command", lambda self, *a, **k: (
                threading.get_ident() == here and trips.append(a[0])) or real_command(self, *a, **k))
            monkeypatch.setattr(type(w.redis.pipeline()), "execute", lambda self, *a, **k: (
                threading.get_ident() == here and trips.append("pipeline")) or real_pipe(self, *a, **k))
            try:
                assert catch_up(w.projector, 0) == len(match_ids)
            finally:
                monkeypatch.undo()
            assert all(row_version(w, mid) == w.store.version(mid) for mid in match_ids)
            return len(trips)

        one, six = round_trips_to_project(ids[:1]), round_trips_to_project(ids)
        assert one == six, (one, six)
    finally:
        context.use(None)
        w.live.stop()


def test_a_batch_that_fails_pauses_its_own_partition_only(wiring, monkeypatch):
    """A batch that raises (a bug, bad data) is logged and read again later; the other partitions' matches
    are projected meanwhile, and once the fault is gone the paused partition catches up."""
    w = wiring
    monkeypatch.setattr(follower_mod, "FAILED_PAUSE_SECONDS", 0.3)
    race = w.games["dice-race"]
    ids = [create_started(w, f"p{i}", race, [f"p{i}", f"q{i}"]) for i in range(8)]
    by_partition = {}
    for mid in ids:
        by_partition.setdefault(w.store.keys.partition(mid), mid)
    assert len(by_partition) >= 2
    bad_p, bad = next(iter(by_partition.items()))
    real = follower_mod.project_entries
    broken = {"on": True}

    def faulty(w_, p, entries, *rest):
        if p == bad_p and broken["on"]:
            raise ValueError("a bad batch")
        return real(w_, p, entries, *rest)

    monkeypatch.setattr(follower_mod, "project_entries", faulty)
    thread, stop = run_follower(w, "follower-f")
    try:
        others = [mid for p, mid in by_partition.items() if p != bad_p]
        wait_for(lambda: all(row_version(w, mid) == w.store.version(mid) for mid in others), 10,
                 "the healthy partitions projected while one fails")
        assert row_version(w, bad) == 0
        broken["on"] = False
        wait_for(lambda: row_version(w, bad) == w.store.version(bad), 10, "the paused partition caught up")
    finally:
        stop.set()
        thread.join(5)


def test_a_match_that_cannot_be_folded_here_holds_up_no_other_match(settings, redis_client, games, caplog):
    """A match whose game this worker does not host (or whose data is bad) is logged and left out of its
    batch: the other matches of its partition are projected and the checkpoint moves on, instead of the
    whole partition retrying the same failing batch for ever."""
    import dataclasses

    from service.bootstrap import build
    from workers import context
    one_partition = dataclasses.replace(settings, partitions=1)
    w = build(one_partition, games=games)
    race = create_started(w, "p0", games["dice-race"], ["p0", "q0"])
    odd = create_started(w, "u0", games["uchronia"], ["u0", "u1"])
    later = create_started(w, "p1", games["dice-race"], ["p1", "q1"])
    hosting_less = build(one_partition, games={"dice-race": games["dice-race"]})
    context.use(hosting_less)
    try:
        assert catch_up(hosting_less.projector, 0) == 2
        assert row_version(hosting_less, race) == w.store.version(race)
        assert row_version(hosting_less, later) == w.store.version(later)
        assert row_version(hosting_less, odd) == 0
        assert lagging_partitions(hosting_less.redis, hosting_less.store.keys) == []
        assert f"match {odd} cannot be folded here" in caplog.text
    finally:
        context.use(None)
        w.live.stop()
        hosting_less.live.stop()
