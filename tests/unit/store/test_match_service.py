"""The command use case on the in-memory event store: no Redis, the application's own errors, nothing HTTP."""
from __future__ import annotations

import threading

import pytest

from domain.engine.hashing import verify_chain
from domain.games.dice_race import GAME as RACE
from service.app import invitations
from service.app.errors import Invalid, NotFound, NotSeated, RuleRefused, VersionConflict
from service.app.matches import CHECKPOINT_EVERY, MatchService
from service.store.memory import InMemoryEventStore


@pytest.fixture
def service():
    """A MatchService over an in-memory store with the dice race."""
    return MatchService(InMemoryEventStore(partitions=4), {RACE.id: RACE})


def started(service) -> str:
    """A started two-player dice race between ann and bob; its id."""
    match = service.create("ann", RACE.id, RACE.options_schema.load({}), players=["ann", "bob"])
    return invitations.accept_for_all(service, match).id


def test_a_command_appends_its_events_and_the_chain_holds(service):
    """ann rolls: the answer names the new version, the store holds the events, the chain verifies."""
    mid = started(service)
    before = service.store.version(mid)
    answer = service.submit("ann", mid, "roll", {})
    assert answer["version"] == service.store.version(mid) > before
    assert answer["events"][0]["type"] == "die_rolled"
    assert verify_chain(service.store.read(mid).envelopes, bytes.fromhex(service.store.secret(mid))) is None


def test_refusals_are_application_errors_that_change_nothing(service):
    """Someone not seated, a rules breach, an unknown command, a stale version: each its own error, no event."""
    mid = started(service)
    version = service.store.version(mid)
    with pytest.raises(NotSeated):
        service.submit("eve", mid, "roll", {})
    with pytest.raises(RuleRefused) as refused:
        service.submit("bob", mid, "roll", {})
    assert refused.value.extra["rule"] == "dice-race:race.turn"
    with pytest.raises(Invalid):
        service.submit("ann", mid, "fly", {})
    with pytest.raises(VersionConflict):
        service.submit("ann", mid, "roll", {}, expected_version=version - 1)
    with pytest.raises(NotFound):
        service.submit("ann", "m_missing", "roll", {})
    assert service.store.version(mid) == version


def test_a_retried_command_id_lands_once(service):
    """The same command id sent twice answers the first answer; one event is stored."""
    mid = started(service)
    first = service.submit("ann", mid, "note", {"text": "hi"}, command_id="c-1")
    again = service.submit("ann", mid, "note", {"text": "hi"}, command_id="c-1")
    assert again == first and service.store.version(mid) == first["version"]


def test_two_racing_services_land_one_command_per_version(service):
    """Two processes (each its own cache) on one store, expecting the same version: one wins, one conflicts."""
    mid = started(service)
    other = MatchService(service.store, service.games)
    version = service.store.version(mid)
    service.load(mid), other.load(mid)
    outcomes, barrier = [], threading.Barrier(2)

    def race(svc, text):
        barrier.wait()
        try:
            outcomes.append(svc.submit("ann", mid, "note", {"text": text}, expected_version=version)["version"])
        except VersionConflict as exc:
            outcomes.append(("conflict", exc.extra["current_version"]))

    threads = [threading.Thread(target=race, args=(svc, t)) for svc, t in ((service, "a"), (other, "b"))]
    [t.start() for t in threads], [t.join() for t in threads]
    assert sorted(outcomes, key=str) == sorted([version + 1, ("conflict", version + 1)], key=str)
    assert service.store.version(mid) == version + 1


def _fold_fields(match) -> tuple:
    """What a fold of a match is: its version, head, draws, players, effective versions, state and event count."""
    return (match.version, match.head, match.draws, list(match.players), list(match.effective), match.game_state,
            len(match.envelopes))


@pytest.mark.parametrize("ahead", [3, CHECKPOINT_EVERY + 5])
def test_a_stale_cache_undoes_its_optimistic_append_from_its_checkpoint(service, ahead):
    """ann's process sends `ahead` notes (its checkpoint stays behind them, or is taken again past
    CHECKPOINT_EVERY), another process rolls for ann and bob, ann's next roll is sealed on her stale fold (its die
    drawn at a stale index) and refused: the same fold is put back, caught up and the roll decided again, and is
    then what a fresh fold of the store is."""
    mid = started(service)
    other = MatchService(service.store, service.games)
    for i in range(ahead):
        service.submit("ann", mid, "note", {"text": f"a{i}"})
    cached = service.cache.get(mid)[0]
    other.submit("ann", mid, "roll", {})
    other.submit("bob", mid, "roll", {})
    answer = service.submit("ann", mid, "roll", {})
    assert answer["version"] == service.store.version(mid)
    assert service.cache.get(mid)[0] is cached  # undone and caught up, not loaded again
    fresh = MatchService(service.store, service.games).load(mid)
    assert _fold_fields(cached) == _fold_fields(fresh)
    assert verify_chain(service.store.read(mid).envelopes, bytes.fromhex(service.store.secret(mid))) is None


def test_an_optimistic_append_refused_by_a_stale_version_is_undone(service):
    """ann's process caches the match; another process writes a note; ann's note sealed on the stale fold is
    refused, her fold put back at the version it had, caught up and her note appended after the other one."""
    mid = started(service)
    other = MatchService(service.store, service.games)
    service.submit("ann", mid, "note", {"text": "first"})
    cached = service.cache.get(mid)[0]
    other.submit("ann", mid, "note", {"text": "theirs"})
    service.submit("ann", mid, "note", {"text": "mine"})
    assert service.cache.get(mid)[0] is cached
    assert cached.game_state["notes"] == ["first", "theirs", "mine"]
    assert _fold_fields(cached) == _fold_fields(MatchService(service.store, service.games).load(mid))
