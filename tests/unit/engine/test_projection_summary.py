"""Pure projection functions: who waits since when, and the inbox changes between two rows."""
from __future__ import annotations

from projections.summary import inbox_changes, last_actions, waiting


def test_waiting_keeps_the_start_of_an_unbroken_turn():
    """A player still to move keeps the time their turn began."""
    prev = {"waiting": {"ann": "T1"}}
    assert waiting(prev, {"active_players": ["ann"]}, "T3", {"bob": "T2"}) == {"ann": "T1"}


def test_waiting_restarts_when_the_player_acted_in_between():
    """A player who moved and is to move again waits from the new time, so a deadline cannot fire early."""
    prev = {"waiting": {"ann": "T1"}}
    assert waiting(prev, {"active_players": ["ann"]}, "T3", {"ann": "T2"}) == {"ann": "T3"}
    assert waiting(None, {"active_players": ["ann", "bob"]}, "T3") == {"ann": "T3", "bob": "T3"}


def test_last_actions_finds_each_players_latest_event():
    """The newest event per actor; system events (actor None) are ignored."""
    envs = [{"actor": "ann", "at": "T1"}, {"actor": None, "at": "T2"}, {"actor": "bob", "at": "T3"},
            {"actor": "ann", "at": "T4"}]
    assert last_actions(envs, {"ann", "bob"}) == {"ann": "T4", "bob": "T3"}


def test_inbox_changes_add_and_remove():
    """New waiters are added with their time; players no longer waiting are removed."""
    prev = {"waiting": {"ann": "T1"}}
    row = {"waiting": {"bob": "T2"}}
    assert inbox_changes(prev, row) == ({"bob": "T2"}, ["ann"])
    assert inbox_changes(row, row) == ({}, [])


def test_a_timed_out_turn_counts_as_the_players_and_the_next_turn_starts_afresh():
    """turn_timed_out (actor None) ends the player's turn, so their next one gets its own deadline."""
    envs = [{"actor": "ann", "at": "T1"}, {"actor": None, "at": "T2", "type": "turn_timed_out", "data": {"player": "bob"}}]
    acted = last_actions(envs, {"ann", "bob"})
    assert acted == {"ann": "T1", "bob": "T2"}
    assert waiting({"waiting": {"bob": "T0"}}, {"active_players": ["bob"]}, "T2", acted) == {"bob": "T2"}
