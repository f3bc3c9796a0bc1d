"""The audit, pure: the first broken version of the chain, the commitment, revealed draws, forged seeds."""
from __future__ import annotations

import copy
import hashlib

from domain.engine.audit import audit
from domain.engine.hashing import GENESIS, chain_format, event_hash, salt_for
from domain.games.dice_race import GAME as RACE
from tests.unit.engine.race_sim import Sim

GAMES = {RACE.id: RACE}


def finished_match():
    """A dice race played to its end with an honest seed (the commitment is sha256(seed))."""
    sim = Sim(options={"target": 20}, seed=b"honest-seed-0123456789abcdef0123")
    players = ["ann", "bob"]
    while not sim.match.finished:
        sim.play(players[sim.match.game_state["turn"]], "roll")
    return sim


def rechain(envs):
    """Recompute every prev/hash link, salted with the seed the events reveal (a forger who rewrites the
    whole chain)."""
    seed = bytes.fromhex(next(e for e in envs if e["type"] == "seed_revealed")["data"]["seed"])
    prev = GENESIS
    for env in envs:
        env["prev"] = prev
        env["hash"] = event_hash(prev, env, salt_for(chain_format(envs), seed, env["version"]))
        prev = env["hash"]
    return envs


def test_an_honest_finished_match_verifies():
    """Chain intact, seed matches the commitment, every draw and the setup re-derive."""
    sim = finished_match()
    report = audit(sim.match.id, sim.match.envelopes, GAMES)
    assert report["ok"] and report["broken_at"] is None and report["problems"] == []
    assert report["randomness"] == {"commitment": hashlib.sha256(sim.seed).hexdigest(), "revealed": True,
                                    "verified": True}
    assert report["length"] == sim.match.version and report["head"] == sim.match.head


def test_a_running_match_has_no_verdict_on_randomness():
    """Before seed_revealed the draws cannot be checked: verified is None."""
    sim = Sim()
    sim.play("ann", "roll")
    report = audit(sim.match.id, sim.match.envelopes, GAMES, seed=sim.seed)
    assert report["ok"] and report["randomness"]["revealed"] is False and report["randomness"]["verified"] is None
    assert report["chain"] == {"format": 2, "hashes_verified": True}


def test_a_running_salted_chain_without_the_seed_is_not_called_verified():
    """Offline, before the seed is revealed, a salted chain has only its links checked, and fails to verify."""
    sim = Sim()
    sim.play("ann", "roll")
    report = audit(sim.match.id, sim.match.envelopes, GAMES)
    assert report["broken_at"] is None and report["chain"] == {"format": 2, "hashes_verified": False}
    assert not report["ok"] and "not revealed yet" in report["problems"][0]
    broken = copy.deepcopy(sim.match.envelopes)
    broken[3]["prev"] = GENESIS
    assert audit(sim.match.id, broken, GAMES)["broken_at"] == 4


def test_kept_heads_are_checked_against_the_chain():
    """A head a player kept is on the chain; a head from a forked history is named as a problem."""
    sim = finished_match()
    envs = sim.match.envelopes
    kept = [(5, envs[4]["hash"]), (len(envs), envs[-1]["hash"])]
    report = audit(sim.match.id, envs, GAMES, kept_heads=kept)
    assert report["ok"] and [k["on_chain"] for k in report["kept_heads"]] == [True, True]
    report = audit(sim.match.id, envs, GAMES, kept_heads=[(5, envs[5]["hash"]), (len(envs) + 1, "ab" * 32)])
    assert not report["ok"] and [k["on_chain"] for k in report["kept_heads"]] == [False, False]
    assert len([p for p in report["problems"] if "head kept at version" in p]) == 2


def test_a_legacy_unsalted_chain_still_verifies_as_format_1():
    """A stream whose match_created names no chain format (created before the salt) verifies unsalted."""
    sim = finished_match()
    envs = copy.deepcopy(sim.match.envelopes)
    del envs[0]["data"]["chain"]
    prev = GENESIS
    for env in envs:
        env["prev"], env["hash"] = prev, event_hash(prev, env)
        prev = env["hash"]
    report = audit(sim.match.id, envs, GAMES)
    assert report["ok"] and report["chain"] == {"format": 1, "hashes_verified": True}
    envs[0]["data"]["chain"] = 7
    assert audit(sim.match.id, envs, GAMES)["broken_at"] == 1


def test_rewritten_data_is_named_at_its_version():
    """Changing one event's data breaks its hash."""
    envs = copy.deepcopy(finished_match().match.envelopes)
    envs[5]["data"]["value"] = 6 if envs[5]["data"]["value"] != 6 else 5
    assert audit("m1", envs, GAMES)["broken_at"] == 6


def test_dropped_and_reordered_events_are_named():
    """A dropped event breaks the numbering at its version; two swapped events at the first of them."""
    envs = finished_match().match.envelopes
    assert audit("m1", envs[:4] + envs[5:], GAMES)["broken_at"] == 5
    assert audit("m1", envs[:6] + [envs[7], envs[6]] + envs[8:], GAMES)["broken_at"] == 7
    assert audit("m1", envs[:-1], GAMES, claimed_length=len(envs))["broken_at"] == len(envs)


def test_a_forged_seed_does_not_verify():
    """A different seed fails the commitment; a different seed with a matching forged commitment fails the draws."""
    sim = finished_match()
    envs = copy.deepcopy(sim.match.envelopes)
    envs[-1]["data"]["seed"] = (b"x" * 32).hex()
    report = audit(sim.match.id, rechain(envs), GAMES)
    assert report["broken_at"] is None and report["randomness"]["verified"] is False and not report["ok"]
    envs[0]["data"]["commitment"] = hashlib.sha256(b"x" * 32).hexdigest()
    report = audit(sim.match.id, rechain(envs), GAMES)
    assert report["randomness"]["verified"] is False
    assert any("the seed gives" in p for p in report["problems"])


def audit_forged(edit, games=GAMES) -> dict:
    """Audit a finished match after `edit(envelopes)` and a full re-chaining (the chain itself stays intact)."""
    sim = finished_match()
    envs = copy.deepcopy(sim.match.envelopes)
    edit(envs)
    report = audit(sim.match.id, rechain(envs), games)
    assert report["broken_at"] is None
    return report


def test_a_rewound_draw_counter_is_caught():
    """Re-recording a draw number already used (a re-roll) is a problem even when the value re-derives."""
    def reroll(envs):
        rolls = [e for e in envs if e["type"] == "die_rolled"]
        rolls[1]["rng"] = [list(rolls[0]["rng"][0])]

    report = audit_forged(reroll)
    assert report["randomness"]["verified"] is False
    assert any("was due" in p for p in report["problems"])


def test_a_setup_that_does_not_follow_from_its_draws_is_caught():
    """A deck order not derived from the recorded shuffle draws (checked when the game module is at hand)."""
    def sort_deck(envs):
        shuffled = next(e for e in envs if e["type"] == "deck_shuffled")
        shuffled["data"]["order"] = sorted(shuffled["data"]["order"])

    assert audit_forged(sort_deck)["randomness"]["verified"] is False
    assert audit_forged(sort_deck, games={})["randomness"]["verified"] is True
