"""The accept board: a worker waits only while it holds more than SLACK connections over its least busy live
sibling; free slots and a lone worker never make it wait; forked processes see each other's counts."""
from __future__ import annotations

import os

from service.accept_balance import FREE, SLACK, Board


def test_a_worker_waits_only_while_it_holds_more_than_its_share():
    board = Board()
    mine, other = board.slot_of(1), board.slot_of(2)
    board.join(mine)
    assert not board.should_wait(mine), "a lone worker always accepts"
    board.join(other)
    board.counts[mine] = SLACK
    assert not board.should_wait(mine)
    board.counts[mine] = SLACK + 1
    assert board.should_wait(mine)
    board.counts[other] = 1
    assert not board.should_wait(mine)
    board.leave(other)
    assert board.counts[other] == FREE and not board.should_wait(mine), "an exited worker's slot is ignored"


def test_slots_wrap_around_the_board():
    board = Board(slots=4)
    assert [board.slot_of(age) for age in (1, 4, 5)] == [1, 0, 1]


def test_forked_workers_share_the_board():
    board = Board()
    board.join(0)
    pid = os.fork()
    if pid == 0:  # the child counts in its slot, as a gevent worker does
        board.join(1)
        board.counts[1] = 5
        os._exit(0)
    os.waitpid(pid, 0)
    assert board.counts[1] == 5 and board.should_wait(1) and not board.should_wait(0)
