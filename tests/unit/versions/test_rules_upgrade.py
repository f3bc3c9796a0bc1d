"""Moving a running match to newer rules (pure): `rules_upgraded {from, to}` is decided after the match's history
has been folded under the new version; from that event on the game state is that fold and the new rules judge the
moves. Refusals cite `platform:rules.*`. The players' way is a unanimous vote. Stored events of an older payload
shape are upcast on read: the old match folds right and its audit verifies, its bytes untouched."""
from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import pytest

from domain.engine import ALL, RuleViolation, event
from domain.engine import aggregate as agg
from domain.engine import platform_events as pe
from domain.engine import rules_upgrade as ru
from domain.engine.audit import audit, rules_periods
from domain.games import dice_race
from domain.games.dice_race import GAME as RACE
from service.app.audit import audit_export
from service.app.move_log import describe
from service.cli.rules import bump
from tests.gamekit import MatchSim
from tests.rules_copies import BUMP_DAY, BUMPED, CURRENT, copy_game, edit_json, import_fresh
from tests.unit.versions.race_versions import BROKEN, NEW, OLD, play, race

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "upcasting"


def migrate(sim: MatchSim, to: str) -> list:
    """The operator's migration (no actor)."""
    sealed = sim.run(None, lambda m, rng: ru.decide_upgrade(m, to, sim.games))
    sim.game = sim.match.game
    return sealed


def fold_under(game, m) -> dict:
    """The match's effective game events folded from scratch under `game`."""
    state = game.initial_state(list(m.players), dict(m.options))
    for env in m.envelopes_since(1):
        if env["scope"] == pe.GAME and env["version"] in set(m.effective):
            state = game.evolve(state, copy.deepcopy({"type": env["type"], "data": env["data"]}))
    return state


def rolls_until_a_six(sim: MatchSim) -> None:
    """Roll (whoever is to move) until some roll was a 6, so the 2027.01 scoring shows."""
    for _ in range(60):
        [rolled] = [e for e in play(sim, sim.match.active_players()[0], "roll") if e["type"] == "die_rolled"]
        if rolled["data"]["value"] == 6:
            return
    raise AssertionError("no 6 in 60 rolls")


def refused(sim: MatchSim, to: str) -> RuleViolation:
    """The refusal of a migration to `to`; the match is left exactly as it was."""
    before = (sim.match.version, copy.deepcopy(sim.match.game_state), sim.match.game, len(sim.match.envelopes))
    with pytest.raises(RuleViolation) as caught:
        ru.decide_upgrade(sim.match, to, sim.games)
    assert (sim.match.version, sim.match.game_state, sim.match.game, len(sim.match.envelopes)) == before
    return caught.value


# -- the operator's migration ---------------------------------------------------------------------------------------
def test_an_upgrade_refolds_the_history_and_the_new_rules_judge_the_next_moves():
    sim = race()
    play(sim, "ann", "note", text="gl hf")  # allowed under 2026.11
    rolls_until_a_six(sim)
    old_scores = dict(sim.match.game_state["scores"])
    [upgraded] = migrate(sim, "2027.01")
    assert (upgraded["type"], upgraded["scope"], upgraded["actor"]) == (pe.RULES_UPGRADED, pe.PLATFORM, None)
    assert upgraded["data"] == {"from": "2026.11", "to": "2027.01"}
    m = sim.match
    assert m.game is NEW and m.status == "active"
    assert m.game_state == fold_under(NEW, m) != fold_under(OLD, m)
    assert sum(m.game_state["scores"].values()) > sum(old_scores.values()), "past sixes now score 12"
    player = m.active_players()[0]
    with pytest.raises(RuleViolation) as caught:
        play(sim, player, "note", text="hello")
    assert caught.value.rule_id == "race.no-notes"
    play(sim, player, "roll")
    again = agg.fold(m.id, m.envelopes, sim.games)  # a cold load folds to the same match
    assert (again.game, again.game_state, again.version) == (NEW, m.game_state, m.version)
    assert rules_periods(m.envelopes) == [{"from_version": 1, "rules_version": "2026.11"},
                                          {"from_version": upgraded["version"], "rules_version": "2027.01"}]


def test_the_upgrade_is_public_and_the_move_log_says_it():
    sim = race()
    play(sim, "ann", "roll")
    [upgraded] = migrate(sim, "2027.01")
    for viewer in ("ann", "bob", None):
        seen = sim.match.redact(upgraded, viewer)
        assert seen["data"] == {"from": "2026.11", "to": "2027.01"} and "redacted" not in seen
    assert describe(sim.match.game, sim.match.redact(upgraded, None), str) == \
        "the match moved to rules 2027.01 (from 2026.11): the moves after this are judged by them"


def test_a_match_without_upgrades_folds_each_event_once():
    """No extra work for the ordinary fold: one evolve per game event; an upgrade refolds once, at its event."""
    calls = [0]

    def counting(state, ev):
        calls[0] += 1
        return dice_race.evolve(state, ev)

    counted = dataclasses.replace(OLD, evolve=counting)
    sim = MatchSim(counted, options={"target": 50})
    for _ in range(6):
        play(sim, sim.match.active_players()[0], "roll")
    game_events = sum(1 for e in sim.match.envelopes if e["scope"] == pe.GAME)
    calls[0] = 0
    agg.fold("m1", sim.match.envelopes, sim.games)
    assert calls[0] == game_events


def test_a_dispute_upheld_after_an_upgrade_refolds_under_the_new_rules():
    sim = race()
    rolls_until_a_six(sim)
    last = sim.match.effective[-1]
    migrate(sim, "2027.01")
    did = sim.dispute("bob" if sim.match.envelopes[-1]["actor"] != "bob" else "ann", last)
    sim.settle(did, accept=True)
    m = sim.match
    assert last not in m.effective and m.game is NEW and m.game_state == fold_under(NEW, m)


def test_refusals_cite_platform_rules_and_change_nothing():
    sim = race()
    play(sim, "ann", "note", text="hi")
    play(sim, "ann", "roll")
    assert refused(sim, "2031.01").rule_id == ru.UNKNOWN
    assert refused(sim, "2026.11").rule_id == ru.NOT_NEWER
    broken = refused(sim, "2027.02")
    assert broken.rule_id == ru.DOES_NOT_FOLD
    noted = next(e["version"] for e in sim.match.envelopes if e["type"] == "noted")
    assert f"noted at version {noted}" in broken.message and "KeyError" in broken.message and "2027.02" in broken.message
    assert refused(sim, "2027.03").rule_id == ru.WOULD_FINISH
    migrate(sim, "2027.01")
    assert refused(sim, "2026.11").rule_id == ru.NOT_NEWER
    assert refused(sim, "2027.01").rule_id == ru.NOT_NEWER


def test_a_history_without_the_unreadable_events_folds():
    """The same 2027.02 accepts a match whose history it can read."""
    sim = race()
    play(sim, "ann", "roll")
    migrate(sim, "2027.02")
    assert sim.match.game is BROKEN


def test_only_a_running_unpaused_match_moves():
    waiting = MatchSim(OLD, players=("ann",), seats=2, options={"target": 50})
    assert waiting.match.status == "open"
    assert refused(waiting, "2027.01").rule_id == ru.NOT_ACTIVE
    sim = race(target=3)
    while not sim.match.finished:
        play(sim, sim.match.active_players()[0], "roll")
    assert refused(sim, "2027.01").rule_id == ru.NOT_ACTIVE
    paused = race()
    rolled = play(paused, "ann", "roll")[0]
    paused.dispute("bob", rolled["version"])
    assert refused(paused, "2027.01").rule_id == ru.PAUSED


# -- the players' vote ----------------------------------------------------------------------------------------------
def vote(sim, player, accept):
    return sim.run(player, lambda m, rng: ru.decide_vote(m, player, accept, sim.games))


def propose(sim, player, to):
    sealed = sim.run(player, lambda m, rng: ru.decide_propose(m, player, to, sim.games))
    sim.game = sim.match.game
    return sealed


def test_unanimous_acceptance_moves_the_match():
    sim = race(players=("ann", "bob", "cy"))
    play(sim, "ann", "roll")
    [proposed] = propose(sim, "bob", "2027.01")
    assert proposed["data"] == {"proposal": proposed["data"]["proposal"], "by": "bob", "from": "2026.11",
                                "to": "2027.01"}
    with pytest.raises(RuleViolation) as own:
        vote(sim, "bob", True)
    assert own.value.rule_id == ru.OWN_PROPOSAL
    with pytest.raises(RuleViolation) as again:
        propose(sim, "ann", "2027.01")
    assert again.value.rule_id == ru.PROPOSAL_OPEN
    assert [e["type"] for e in vote(sim, "ann", True)] == [pe.RULES_UPGRADE_VOTED]
    with pytest.raises(RuleViolation) as twice:
        vote(sim, "ann", True)
    assert twice.value.rule_id == ru.ALREADY_VOTED
    assert sim.match.game is OLD, "not yet: cy has not voted"
    last = vote(sim, "cy", True)
    assert [e["type"] for e in last] == [pe.RULES_UPGRADE_VOTED, pe.RULES_UPGRADED]
    assert last[1]["data"] == {"from": "2026.11", "to": "2027.01", "proposal": proposed["data"]["proposal"]}
    assert sim.match.game is NEW and sim.match.rules_proposal["status"] == ru.ACCEPTED
    with pytest.raises(RuleViolation) as none_open:
        vote(sim, "ann", True)
    assert none_open.value.rule_id == ru.NO_PROPOSAL


def test_any_rejection_rejects_and_the_match_keeps_its_rules():
    sim = race()
    propose(sim, "ann", "2027.01")
    events = vote(sim, "bob", False)
    assert [e["type"] for e in events] == [pe.RULES_UPGRADE_VOTED, pe.RULES_UPGRADE_REJECTED]
    assert sim.match.game is OLD and sim.match.rules_proposal["status"] == ru.REJECTED
    propose(sim, "bob", "2027.01")  # a new proposal may follow


def test_a_proposal_the_history_outgrew_is_rejected_with_the_reason():
    """Proposed while the history folded under 2027.02; a note since makes it unreadable: the last acceptance
    rejects it, saying why."""
    sim = race()
    propose(sim, "ann", "2027.02")
    play(sim, "ann", "note", text="oops")
    events = vote(sim, "bob", True)
    assert [e["type"] for e in events] == [pe.RULES_UPGRADE_VOTED, pe.RULES_UPGRADE_REJECTED]
    assert events[1]["data"]["cause"] == ru.DOES_NOT_FOLD and "noted at version" in events[1]["data"]["reason"]
    assert sim.match.game is OLD


def test_bots_do_not_vote_and_a_player_alone_with_bots_moves_at_once():
    sim = MatchSim(OLD, players=("ann", "bot:random:1"), options={"target": 50})
    events = propose(sim, "ann", "2027.01")
    assert [e["type"] for e in events] == [pe.RULES_UPGRADE_PROPOSED, pe.RULES_UPGRADED]
    assert sim.match.game is NEW


def test_an_operator_migration_supersedes_an_open_proposal():
    sim = race()
    propose(sim, "ann", "2027.02")
    migrate(sim, "2027.01")
    assert sim.match.rules_proposal["status"] == ru.REJECTED and sim.match.rules_proposal["cause"] == "superseded"
    with pytest.raises(RuleViolation) as closed:
        vote(sim, "bob", True)
    assert closed.value.rule_id == ru.NO_PROPOSAL


# -- a real game: Uchronia copied and bumped ------------------------------------------------------------------------
@pytest.fixture
def uchronia_two_versions(tmp_path):
    """A copy of Uchronia bumped from CURRENT to BUMPED, whose operation limit is one higher; (game, folder)."""
    folder = copy_game(tmp_path)
    bump("uchronia", folder, tmp_path / "rules.lock.json", BUMP_DAY)
    edit_json(folder / "uchronia.json", base_operation_limit=3)
    return import_fresh(tmp_path), folder


def uchronia_match(game, moves: int = 12) -> MatchSim:
    """A Uchronia match created under CURRENT with `moves` legal commands (the first listed) played."""
    old = game.at(CURRENT)
    sim = MatchSim(old, players=("ann", "bob"))
    sim.games = {game.id: game}
    for _ in range(moves):
        play_first_legal(sim)
    return sim


def play_first_legal(sim: MatchSim) -> None:
    """The first legal command of the first player to move, under the match's current rules."""
    player = sim.match.active_players()[0]
    command = sim.match.game.legal_commands(sim.match.game_state, player)[0]
    play(sim, player, command["type"], **command["payload"])


def test_a_uchronia_match_moves_to_its_bumped_rules(uchronia_two_versions):
    game, _ = uchronia_two_versions
    sim = uchronia_match(game)
    m = sim.match
    assert m.game.rules_version == CURRENT
    limits = {p: m.view(ALL)["players"][p]["operation_limit"] for p in m.players}
    before = copy.deepcopy(m.game_state)
    migrate(sim, BUMPED)
    assert m.game is game and m.game.rules_digest != game.at(CURRENT).rules_digest
    assert m.game_state == fold_under(game, m) == before, "this rule changes no recorded outcome"
    assert {p: m.view(ALL)["players"][p]["operation_limit"] for p in m.players} == \
        {p: n + 1 for p, n in limits.items()}, "the new data judges from here on"
    play_first_legal(sim)
    assert agg.fold(m.id, m.envelopes, sim.games).game_state == m.game_state


def test_a_uchronia_version_whose_code_cannot_read_the_history_is_refused(tmp_path):
    """BUMPED changes code the designer's way (bump: CURRENT frozen whole; then the package's evolve edited): its
    evolve reads dealt cards from a field the stored events do not have. Moving an CURRENT match
    there is refused, naming the event; the version itself and its data are fine for new matches' setup."""
    folder = copy_game(tmp_path)
    bump("uchronia", folder, tmp_path / "rules.lock.json", BUMP_DAY)
    shared = folder / "evolve.py"
    code = shared.read_text()
    assert 'for color in d.get("colors", []):' in code
    shared.write_text(code.replace('for color in d.get("colors", []):', 'for color in d["cards"]:'))
    game = import_fresh(tmp_path)
    sim = uchronia_match(game, moves=4)
    caught = refused(sim, BUMPED)
    assert caught.rule_id == ru.DOES_NOT_FOLD
    assert BUMPED in caught.message and "KeyError: 'cards'" in caught.message and "cards_dealt" in caught.message
    assert refused(sim, "2027.06").rule_id == ru.UNKNOWN
    assert sim.match.game.rules_version == CURRENT
    play_first_legal(sim)  # the match plays on under CURRENT


# -- upcasting: a stored match of an older payload shape ------------------------------------------------------------
def pips_to_value(ev):
    """die_rolled said `pips` before it said `value`."""
    if ev["type"] == "die_rolled" and "pips" in ev["data"]:
        data = {k: v for k, v in ev["data"].items() if k != "pips"}
        return {"type": ev["type"], "data": {**data, "value": ev["data"]["pips"]}}
    return ev


UPCASTING = dataclasses.replace(RACE, upcast=pips_to_value)


def test_an_old_shaped_match_folds_through_the_upcast_and_still_audits():
    path = FIXTURES / "dice-race-pips.json"
    raw = path.read_bytes()
    doc = json.loads(raw)
    rolls = [e for e in doc["events"] if e["type"] == "die_rolled"]
    assert rolls and all("pips" in e["data"] and "value" not in e["data"] for e in rolls)
    with pytest.raises(KeyError):
        agg.fold(doc["match"], copy.deepcopy(doc["events"]), {RACE.id: RACE})
    m = agg.fold(doc["match"], doc["events"], {RACE.id: UPCASTING})
    scores = {p: 0 for p in m.players}
    for e in rolls:
        scores[e["data"]["player"]] += e["data"]["pips"]
    assert m.game_state["scores"] == scores and m.finished and m.result["scores"] == scores
    assert m.game_state["winner"] == m.result["winners"][0]
    seen = m.redact(rolls[0], None)
    assert seen["data"]["value"] == rolls[0]["data"]["pips"] and "redacted" not in seen
    assert describe(m.game, seen, str).endswith(f"rolled {rolls[0]['data']['pips']}")
    report = audit(doc["match"], doc["events"], {RACE.id: UPCASTING}, claimed_length=doc["length"],
                   claimed_head=doc["head"])
    assert report["ok"] and report["randomness"]["verified"] and report["broken_at"] is None, report["problems"]
    assert audit_export(json.loads(raw), {RACE.id: UPCASTING})["ok"]
    assert path.read_bytes() == raw and json.loads(raw)["events"] == doc["events"], "stored events never change"
    assert rolls[0]["data"].keys() == {"player", "pips"}


def test_the_default_upcast_is_the_identity():
    ev = event("die_rolled", player="ann", value=3)
    assert RACE.upcast(ev) is ev and agg.game_event(RACE, {"type": ev["type"], "data": ev["data"]}) == ev
