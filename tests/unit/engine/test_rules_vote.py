"""A proposal to move a match to newer rules, as a vote the other players answer (pure): it carries its deadline,
closes with `rules_upgrade_expired` once that has passed (which frees the way for a new proposal), waits for
neither bots nor players who conceded, and is each voter's inbox reason, before their turn."""
from __future__ import annotations

import pytest

from domain.engine import RuleViolation
from domain.engine import platform_events as pe
from domain.engine import rules_upgrade as ru
from domain.engine.concede import decide_concede
from projections.summary import RULES_VOTE, TURN, match_row, waiting_for
from tests.unit.versions.race_versions import OLD, play, race

DEADLINE = "2030-01-03T00:00:00.000Z"
BEFORE, AFTER = "2030-01-02T23:59:59.000Z", "2030-01-03T00:00:00.000Z"


def propose(sim, player, to="2027.01", deadline=DEADLINE):
    return sim.run(player, lambda m, rng: ru.decide_propose(m, player, to, sim.games, deadline))


def vote(sim, player, accept):
    return sim.run(player, lambda m, rng: ru.decide_vote(m, player, accept, sim.games))


def expire(sim, proposal_id, now):
    return sim.run(None, lambda m, rng: ru.decide_expire(m, proposal_id, now))


def test_a_proposal_records_its_deadline_and_expires_once_it_has_passed():
    sim = race(players=("ann", "bob", "cy"))
    [proposed] = propose(sim, "ann")
    pid = proposed["data"]["proposal"]
    assert proposed["data"]["deadline"] == DEADLINE and sim.match.rules_proposal["deadline"] == DEADLINE
    vote(sim, "bob", True)
    assert not ru.expiry_due(sim.match, pid, BEFORE) and ru.expiry_due(sim.match, pid, AFTER)
    with pytest.raises(RuleViolation) as early:
        expire(sim, pid, BEFORE)
    assert early.value.rule_id == ru.NOT_DUE
    with pytest.raises(RuleViolation) as unknown:
        expire(sim, "r1", AFTER)
    assert unknown.value.rule_id == ru.NO_PROPOSAL
    [expired] = expire(sim, pid, AFTER)
    assert (expired["type"], expired["data"]) == (pe.RULES_UPGRADE_EXPIRED, {"proposal": pid})
    assert sim.match.rules_proposal["status"] == ru.EXPIRED and sim.match.game is OLD
    assert ru.open_proposal(sim.match) is None and not ru.expiry_due(sim.match, pid, AFTER)
    with pytest.raises(RuleViolation) as closed:
        vote(sim, "cy", True)
    assert closed.value.rule_id == ru.NO_PROPOSAL
    assert propose(sim, "bob")[0]["type"] == pe.RULES_UPGRADE_PROPOSED, "the way is free for a new proposal"


def test_a_proposal_without_a_deadline_never_expires_and_a_finished_match_expires_nothing():
    sim = race(target=3)
    [proposed] = propose(sim, "ann", deadline=None)
    assert "deadline" not in proposed["data"]
    assert not ru.expiry_due(sim.match, proposed["data"]["proposal"], AFTER)
    timed = race(target=3)
    [proposed] = propose(timed, "ann")
    while not timed.match.finished:
        play(timed, timed.match.active_players()[0], "roll")
    assert not ru.expiry_due(timed.match, proposed["data"]["proposal"], AFTER)


def test_players_who_conceded_neither_vote_nor_propose():
    sim = race(players=("ann", "bob", "cy"))
    sim.run("cy", lambda m, rng: decide_concede(m, "cy"))
    with pytest.raises(RuleViolation) as conceded:
        propose(sim, "cy")
    assert conceded.value.rule_id == "platform:concede.conceded"
    propose(sim, "ann")
    assert ru.voters(sim.match, sim.match.rules_proposal) == ["bob"]
    with pytest.raises(RuleViolation) as no_vote:
        vote(sim, "cy", True)
    assert no_vote.value.rule_id == "platform:concede.conceded"
    assert [e["type"] for e in vote(sim, "bob", True)] == [pe.RULES_UPGRADE_VOTED, pe.RULES_UPGRADED]


def test_each_voter_still_to_answer_waits_for_the_rules_vote_before_their_turn():
    sim = race(players=("ann", "bob", "cy"))
    assert waiting_for(sim.match) == {"ann": TURN}
    propose(sim, "bob")
    assert waiting_for(sim.match) == {"ann": RULES_VOTE, "cy": RULES_VOTE}
    vote(sim, "ann", True)
    assert waiting_for(sim.match) == {"ann": TURN, "cy": RULES_VOTE}
    assert match_row(sim.match, "t")["waiting_for"] == {"ann": TURN, "cy": RULES_VOTE}
    vote(sim, "cy", False)
    assert waiting_for(sim.match) == {"ann": TURN}
