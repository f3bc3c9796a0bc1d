"""The take-back policy, pure: the caller's own last command, one refusal per platform:undo rule."""
from __future__ import annotations

import dataclasses

import pytest

from domain.engine import RuleViolation
from domain.engine import disputes, undo
from domain.games.dice_race import GAME as RACE
from tests.unit.engine.race_sim import Sim


def refused(sim, actor) -> str:
    with pytest.raises(RuleViolation) as exc:
        undo.decide_takeback(sim.match, actor)
    return exc.value.rule_id


def test_takeback_reverts_own_last_command_and_the_stream_grows():
    """A free move (a note) is taken back: moves_reverted from its version, the state as before it."""
    sim = Sim()
    before = sim.match.view("ann")
    [noted] = sim.play("ann", "note", text="oops")
    assert sim.match.game_state["notes"] == ["oops"]
    length = sim.match.version
    [reverted] = sim.takeback("ann")
    assert reverted["type"] == "moves_reverted" and reverted["scope"] == "platform"
    assert reverted["data"]["from_version"] == reverted["data"]["to_version"] == noted["version"]
    assert sim.match.version == length + 1
    assert sim.match.view("ann") == before


def test_successive_takebacks_walk_back_own_commands():
    """Two notes, two take-backs; a third finds nothing left."""
    sim = Sim()
    sim.play("ann", "note", text="a")
    sim.play("ann", "note", text="b")
    assert sim.takeback("ann")[0]["data"]["reverted"] == [5]
    assert sim.match.game_state["notes"] == ["a"]
    sim.takeback("ann")
    assert sim.match.game_state["notes"] == []
    assert refused(sim, "ann") == "platform:undo.no-command"


def test_refused_when_match_finished():
    """platform:undo.match-finished."""
    sim = Sim(options={"target": 1})
    sim.play("ann", "note", text="x")
    sim.play("ann", "roll")
    assert sim.match.finished
    assert refused(sim, "ann") == "platform:undo.match-finished"


def test_refused_when_not_started():
    """platform:undo.not-started: an open lobby match has nothing to take back."""
    sim = Sim(seats=2)
    assert sim.match.status == "open"
    assert refused(sim, "ann") == "platform:undo.not-started"


def test_refused_while_a_dispute_is_open():
    """platform:undo.dispute-open."""
    sim = Sim()
    sim.play("ann", "note", text="x")
    sim.run("bob", lambda m, rng: disputes.decide_open(m, "bob", 4, "no", None))
    assert refused(sim, "ann") == "platform:undo.dispute-open"


def test_refused_without_a_command():
    """platform:undo.no-command: setup events are not the player's commands."""
    sim = Sim()
    assert refused(sim, "ann") == "platform:undo.no-command"
    assert refused(sim, "bob") == "platform:undo.no-command"


def test_refused_once_someone_else_acted():
    """platform:undo.others-acted: ann rolled, then bob noted (checked before the roll's randomness)."""
    sim = Sim()
    sim.play("ann", "roll")
    sim.play("bob", "note", text="his")
    assert refused(sim, "ann") == "platform:undo.others-acted"
    assert undo.decide_takeback(sim.match, "bob")


def test_a_settled_dispute_of_another_player_counts_as_acting():
    """bob disputed ann's note and the dispute was rejected: bob acted since, so no take-back."""
    sim = Sim()
    sim.play("ann", "note", text="mine")
    sim.run("bob", lambda m, rng: disputes.decide_open(m, "bob", 4, "no", None))
    sim.run("ann", lambda m, rng: disputes.decide_vote(m, "ann", "d5", False))
    assert sim.match.disputes["d5"]["status"] == "rejected"
    assert refused(sim, "ann") == "platform:undo.others-acted"


def test_refused_after_randomness():
    """platform:undo.randomness: a die roll cannot be taken back."""
    sim = Sim()
    sim.play("ann", "roll")
    assert refused(sim, "ann") == "platform:undo.randomness"


def test_refused_after_hidden_information():
    """platform:undo.hidden-information: drawing a secret card cannot be taken back."""
    sim = Sim()
    sim.play("ann", "draw")
    assert refused(sim, "ann") == "platform:undo.hidden-information"


def test_hidden_information_found_by_redaction_alone():
    """An event that is not in revealing_events but that redact changes still counts as revealing."""
    env = {"version": 9, "type": "card_drawn", "scope": "game", "data": {"player": "ann", "card": 3}}
    plain = dataclasses.replace(RACE, revealing_events=frozenset())
    assert undo.reveals_hidden(plain, ["ann", "bob"], env)
    assert not undo.reveals_hidden(plain, ["ann", "bob"], dict(env, type="noted", data={"player": "ann", "text": "x"}))


def test_takeback_with_a_snapshot_loaded_match_refolds_from_history():
    """A Match loaded from a snapshot (no old envelopes) still takes back and refolds correctly."""
    from projections.snapshots import from_json, to_json

    sim = Sim()
    for i in range(6):
        sim.play("ann", "note", text=str(i))
    stored = list(sim.match.envelopes)
    loaded = from_json(to_json(sim.match), sim.games, history=lambda a, b: stored[a - 1:b])
    assert loaded.base == sim.match.version and loaded.envelopes == []
    sim.match = loaded
    sim.takeback("ann")
    assert sim.match.game_state["notes"] == ["0", "1", "2", "3", "4"]
