"""The accept board: a worker waits only while it holds more than SLACK connections over its least busy live
sibling; free slots and a lone worker never make it wait; slots are handed out and freed again; forked
processes see each other's counts."""
from __future__ import annotations

import os

from service.server.accept_balance import FREE, SLACK, Board


def test_a_worker_waits_only_while_it_holds_more_than_its_share():
    board = Board()
    mine = board.take_slot()
    assert not board.should_wait(mine), "a lone worker always accepts"
    other = board.take_slot()
    assert other != mine
    board.counts[mine] = SLACK
    assert not board.should_wait(mine)
    board.counts[mine] = SLACK + 1
    assert board.should_wait(mine)
    board.counts[other] = 1
    assert not board.should_wait(mine)
    board.leave(other)
    assert board.counts[other] == FREE and not board.should_wait(mine), "an exited worker's slot is ignored"


def test_a_freed_slot_is_handed_out_again_and_a_full_board_hands_out_none():
    board = Board(slots=2)
    first, second = board.take_slot(), board.take_slot()
    assert (first, second) == (0, 1) and board.take_slot() is None
    board.counts[first] = 7
    board.leave(first)
    assert board.take_slot() == first and board.counts[first] == 0, "a new worker starts from no connection"


def test_forked_workers_share_the_board():
    board = Board()
    parent, child = board.take_slot(), board.take_slot()
    pid = os.fork()
    if pid == 0:  # the child counts in its slot, as a gevent worker does
        board.counts[child] = 5
        os._exit(0)
    os.waitpid(pid, 0)
    assert board.counts[child] == 5 and board.should_wait(child) and not board.should_wait(parent)
