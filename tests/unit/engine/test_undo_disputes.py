"""Disputes, pure: open, vote, unanimous accept reverts, any reject or the deadline rejects; draws never rewind."""
from __future__ import annotations

import pytest

from domain.engine import RuleViolation
from domain.engine import disputes
from domain.engine.rng import draw_value
from tests.unit.engine.race_sim import Sim

DEADLINE = "2030-01-01T00:00:00.000Z"


def open_on(sim, by, version, reason="wrong"):
    [opened] = sim.run(by, lambda m, rng: disputes.decide_open(m, by, version, reason, DEADLINE))
    return opened["data"]["dispute"]


def vote(sim, player, did, accept):
    return sim.run(player, lambda m, rng: disputes.decide_vote(m, player, did, accept))


def rule_of(fn) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn()
    return exc.value.rule_id


def test_unanimous_accept_reverts_to_just_before_the_disputed_version():
    """Three players: both others accept; moves_reverted from the disputed version, the match resumes."""
    sim = Sim(players=("ann", "bob", "cy"))
    sim.play("ann", "note", text="keep")
    [rolled] = sim.play("ann", "roll")
    did = open_on(sim, "bob", rolled["version"])
    assert sim.match.active_players() == []
    assert len(vote(sim, "ann", did, True)) == 1
    events = vote(sim, "cy", did, True)
    assert [e["type"] for e in events] == ["dispute_voted", "dispute_resolved", "moves_reverted"]
    assert events[1]["data"]["status"] == "accepted"
    assert events[2]["data"]["from_version"] == events[2]["data"]["to_version"] == rolled["version"]
    assert sim.match.game_state["scores"]["ann"] == 0 and sim.match.game_state["notes"] == ["keep"]
    assert sim.match.active_players() == ["ann"]
    assert rule_of(lambda: disputes.decide_open(sim.match, "cy", rolled["version"], "x", None)) == \
        "platform:dispute.not-a-move"


def test_any_reject_rejects_and_nothing_is_reverted():
    """One rejection settles it."""
    sim = Sim(players=("ann", "bob", "cy"))
    [rolled] = sim.play("ann", "roll")
    did = open_on(sim, "bob", rolled["version"])
    vote(sim, "ann", did, True)
    events = vote(sim, "cy", did, False)
    assert [e["type"] for e in events] == ["dispute_voted", "dispute_resolved"]
    assert sim.match.disputes[did]["status"] == "rejected"
    assert sim.match.game_state["scores"]["ann"] == rolled["data"]["value"]


def test_deadline_rejects_only_once_due():
    """Before the deadline: not due; after it: rejected with cause deadline; then closed."""
    sim = Sim()
    [rolled] = sim.play("ann", "roll")
    did = open_on(sim, "bob", rolled["version"])
    assert rule_of(lambda: disputes.decide_expire(sim.match, did, "2029-12-31T23:59:59.999Z")) == \
        "platform:dispute.not-due"
    [resolved] = sim.run(None, lambda m, rng: disputes.decide_expire(m, did, DEADLINE))
    assert resolved["data"] == {"dispute": did, "status": "rejected", "cause": "deadline"}
    assert rule_of(lambda: disputes.decide_expire(sim.match, did, DEADLINE)) == "platform:dispute.closed"


def test_open_and_vote_refusals():
    """Each refusal cites its platform:dispute rule."""
    sim = Sim()
    [rolled] = sim.play("ann", "roll")
    assert rule_of(lambda: disputes.decide_open(sim.match, "bob", 2, "x", None)) == "platform:dispute.not-a-move"
    setup = sim.match.envelopes[:3]
    assert rule_of(lambda: disputes.decide_open(sim.match, "bob", 3, "x", None, setup)) == \
        "platform:dispute.not-a-move"
    assert disputes.decide_open(sim.match, "bob", 4, "x", None, sim.match.envelopes[:4])
    assert rule_of(lambda: disputes.decide_open(sim.match, "bob", 99, "x", None)) == "platform:dispute.not-a-move"
    assert rule_of(lambda: disputes.decide_open(sim.match, "bob", 4, "  ", None)) == "platform:dispute.reason"
    for hidden in ("ok\u202egnp.exe", "nul\u0000", "bell\u0007", "iso\u2067late"):
        assert rule_of(lambda: disputes.decide_open(sim.match, "bob", 4, hidden, None)) == \
            "platform:dispute.invisible-character", repr(hidden)
    assert disputes.decide_open(sim.match, "bob", 4, "line one\nline two\tand Ünïcode ✓", None)
    assert disputes.decide_open(sim.match, "bob", 4, "crlf\r\nline", None)[0]["data"]["reason"] == "crlf\nline"
    did = open_on(sim, "bob", rolled["version"])
    assert rule_of(lambda: disputes.decide_open(sim.match, "ann", 3, "x", None)) == "platform:dispute.already-open"
    assert rule_of(lambda: disputes.decide_vote(sim.match, "bob", did, True)) == "platform:dispute.own-dispute"
    assert rule_of(lambda: disputes.decide_vote(sim.match, "ann", "d99", True)) == "platform:dispute.unknown"
    vote(sim, "ann", did, False)
    assert rule_of(lambda: disputes.decide_vote(sim.match, "ann", did, True)) == "platform:dispute.closed"
    assert disputes.decide_open(sim.match, "bob", 4, "again", None)[0]["data"]["version"] == 4


def test_already_voted_and_lobby_refusals():
    """A second vote by the same player, and a dispute in a match that has not started."""
    sim = Sim(players=("ann", "bob", "cy"))
    [rolled] = sim.play("ann", "roll")
    did = open_on(sim, "bob", rolled["version"])
    vote(sim, "ann", did, True)
    assert rule_of(lambda: disputes.decide_vote(sim.match, "ann", did, True)) == "platform:dispute.already-voted"
    lobby = Sim(seats=2)
    assert rule_of(lambda: disputes.decide_open(lobby.match, "ann", 1, "x", None)) == "platform:dispute.not-started"


def test_revert_past_a_roll_draws_fresh_dice():
    """The draw counter never rewinds: the replayed roll uses the next draw number, never the reverted one."""
    sim = Sim()
    [rolled] = sim.play("ann", "roll")
    first_draw = rolled["rng"][0]
    did = open_on(sim, "bob", rolled["version"])
    vote(sim, "ann", did, True)
    assert sim.match.game_state["scores"]["ann"] == 0
    assert sim.match.draws == first_draw[0] + 1
    [again] = sim.play("ann", "roll")
    n, lo, hi, value = again["rng"][0]
    assert n == first_draw[0] + 1
    assert value == draw_value(sim.seed, sim.match.id, n, lo, hi) == again["data"]["value"]
    assert sim.match.game_state["scores"]["ann"] == value
