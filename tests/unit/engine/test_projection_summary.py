"""Pure projection functions: who waits since when, and the inbox changes between two rows."""
from __future__ import annotations

from projections.summary import inbox_changes, last_actions, turns_started, waiting


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


def rules_vote_row(asked: list, to_move: list) -> dict:
    """A row whose open rules proposal asks `asked` to vote while `to_move` are to move."""
    reasons = {p: "turn" for p in to_move}
    reasons.update((p, "rules_vote") for p in asked)
    return {"active_players": to_move, "waiting_for": reasons}


def test_a_rules_vote_asked_of_the_player_to_move_keeps_their_turns_start():
    """Asked to vote (T2) and voting (T3) while to move: ann's wait still runs from her turn's start (T1)."""
    turn = {**rules_vote_row([], ["ann"]), "waiting": {"ann": "T1"}}
    asked = rules_vote_row(["ann", "bob"], ["ann"])
    asked["waiting"] = waiting(turn, asked, "T2", {"bob": "T0"})
    assert asked["waiting"] == {"ann": "T1", "bob": "T2"}, "bob, not to move, waits on the vote's own clock"
    voted = rules_vote_row(["bob"], ["ann"])
    voted["waiting"] = waiting(asked, voted, "T3", {"bob": "T0"})  # a rules vote is not an action
    assert voted["waiting"] == {"ann": "T1", "bob": "T2"}
    assert turns_started(turn, asked) == {} and turns_started(asked, voted) == {}, "no second deadline"
    assert inbox_changes(turn, asked) == ({"ann": "T1", "bob": "T2"}, []), "ann's lobby hears of the vote"
    assert inbox_changes(asked, voted) == ({"ann": "T1"}, [])


def test_a_voter_not_to_move_gains_no_wait_and_a_real_new_turn_restarts_the_clock():
    """bob votes (T3) and leaves the inbox; his turn begun later (T4), vote or not, is a new turn."""
    asked = {**rules_vote_row(["bob"], ["ann"]), "waiting": {"ann": "T1", "bob": "T2"}}
    voted = rules_vote_row([], ["ann"])
    voted["waiting"] = waiting(asked, voted, "T3", {"ann": "T0"})
    assert voted["waiting"] == {"ann": "T1"} and inbox_changes(asked, voted) == ({}, ["bob"])
    his_turn = rules_vote_row(["bob"], ["bob"])
    his_turn["waiting"] = waiting(asked, his_turn, "T4", {"ann": "T4"})
    assert his_turn["waiting"] == {"bob": "T4"} and turns_started(asked, his_turn) == {"bob": "T4"}
    moved = rules_vote_row([], ["bob"])
    moved["waiting"] = waiting({**rules_vote_row([], ["bob"]), "waiting": {"bob": "T4"}}, moved, "T6", {"bob": "T5"})
    assert moved["waiting"] == {"bob": "T6"}, "a move ends the turn: the next one starts afresh"
