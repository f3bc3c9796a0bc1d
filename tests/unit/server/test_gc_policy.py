"""The generational freeze: full collections skip what survived the last one; sweeps reclaim frozen cycles."""
import gc
import weakref

import pytest

from service.server.gc_policy import GenerationalFreeze


class Node:
    """A container object that can take part in a reference cycle."""


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def policy():
    clock = FakeClock()
    pauses = []
    p = GenerationalFreeze(sweep_seconds=60, clock=clock, on_pause=lambda gen, seconds: pauses.append((gen, seconds)))
    p.clock_hand, p.pauses = clock, pauses
    p.install()
    yield p
    p.uninstall()
    gc.collect()


def test_install_freezes_what_the_process_holds(policy):
    assert gc.get_freeze_count() > 1000  # the interpreter, pytest and the modules imported so far


def test_survivors_of_a_full_collection_are_frozen_and_skipped_by_the_next(policy):
    kept = [Node() for _ in range(5000)]
    before = gc.get_freeze_count()
    gc.collect()
    # more are frozen (not exactly 5,000 more: frozen objects of earlier tests in this process may be freed meanwhile)
    assert gc.get_freeze_count() > before
    assert policy.full_collections == 1
    young = {id(o) for o in gc.get_objects()}
    assert not any(id(node) in young for node in kept)  # the collector no longer walks them
    assert policy.pauses == []  # noted only: reporting happens outside the collector
    assert policy.report_pauses() >= 1
    assert policy.pauses[-1][0] == 2 and policy.pauses[-1][1] >= 0  # the full collection, timed
    assert policy.report_pauses() == 0


def test_frozen_objects_are_still_freed_when_their_last_reference_goes(policy):
    node = Node()
    gone = weakref.ref(node)
    gc.collect()  # frozen now
    del node
    assert gone() is None  # reference counting frees it at once, frozen or not


def test_a_cycle_made_after_the_last_freeze_is_collected(policy):
    node = Node()
    node.me = node
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is None


def test_a_frozen_cycle_waits_for_the_sweep(policy):
    node = Node()
    node.me = node
    gone = weakref.ref(node)
    gc.collect()  # alive: frozen with the other survivors
    del node
    gc.collect()
    assert gone() is not None  # garbage now, but the collector skips frozen objects
    assert policy.sweep_when_due() is False  # not due yet
    policy.clock_hand.now += 61
    assert policy.sweep_when_due() is True
    assert gone() is None
    assert policy.sweeps == 1 and gc.get_freeze_count() > 1000  # the survivors are frozen again
    assert policy.sweep_when_due() is False  # the next one is a full interval away


def test_uninstall_thaws_everything():
    p = GenerationalFreeze().install()
    assert gc.get_freeze_count() > 0
    p.uninstall()
    assert gc.get_freeze_count() == 0
    count = p.full_collections
    gc.collect()
    assert p.full_collections == count  # no longer called


def test_a_zero_interval_leaves_the_collector_alone():
    from service.server import gc_policy
    assert gc_policy.install(0) is None
    assert gc.get_freeze_count() == 0
