"""recheck: a stored match folded under its pinned rules, every derivable event derived again. Edits of the
events (or of the rules) are found at the first version that differs; events that do not fold are broken."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from domain.engine import aggregate as agg
from domain.engine import platform_events as pe
from domain.engine.recheck import recheck
from domain.games import load_games
from service.app import invitations
from service.app.history import History
from service.app.matches import MatchService
from service.cli.golden import GoldenStore, play_one, stepping_clock
from service.cli.rules import bump
from tests.rules_copies import BUMP_DAY, BUMPED, CURRENT, copy_game, edit_json, import_fresh

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "golden"
GAMES = load_games()


def golden(game_id: str, n: int = 1, version: str = "2026.11") -> dict:
    """A golden match's export document (of the game's first rules version unless told)."""
    return json.loads((GOLDEN / game_id / version / f"golden-{n}.json").read_text(encoding="utf-8"))


def checked(doc: dict, games: dict = GAMES) -> dict:
    """recheck of an export document's events."""
    return recheck(doc["match"], doc["events"], games)


def first(doc: dict, test, after: int = 0) -> dict:
    """The first envelope after version `after` for which test(envelope) holds."""
    return next(e for e in doc["events"] if e["version"] > after and test(e))


def test_a_forged_command_event_is_changed_at_its_version():
    """No legal command of its actor gives an event with a forged field."""
    doc = golden("uchronia")
    started = first(doc, lambda e: e["type"] == pe.MATCH_STARTED)
    forged = first(doc, lambda e: e["scope"] == pe.GAME and e["actor"] is not None, after=started["version"])
    forged["data"] = dict(forged["data"], forged=1)
    outcome = checked(doc)
    assert (outcome["status"], outcome["version"], outcome["rules"]) == ("changed", forged["version"], "2026.11")
    assert outcome["reason"].startswith(f"no legal command of {forged['actor']} gives the recorded events")
    assert "forged" in outcome["reason"]


def test_a_forged_timeout_is_changed():
    """The events after turn_timed_out are what on_timeout gives, nothing else."""
    doc = golden("merchant-of-venus")
    timeout = first(doc, lambda e: e["type"] == pe.TURN_TIMED_OUT)
    after = first(doc, lambda e: e["scope"] == pe.GAME, after=timeout["version"])
    after["data"] = dict(after["data"], forged=1)
    outcome = checked(doc)
    assert (outcome["status"], outcome["version"]) == ("changed", after["version"])
    assert outcome["reason"].startswith(f"the turn timeout of {timeout['data']['player']}")


def test_a_forged_result_is_changed_and_a_missing_end_too():
    """match_finished records what result() gives; a game the rules ended has its match_finished."""
    doc = golden("origins")
    finished = first(doc, lambda e: e["type"] == pe.MATCH_FINISHED)
    forged = copy.deepcopy(doc)
    forged["events"][finished["version"] - 1]["data"]["result"]["winners"] = ["nobody"]
    outcome = checked(forged)
    assert (outcome["status"], outcome["version"]) == ("changed", finished["version"])
    assert outcome["reason"].startswith("the result differs")
    cut = dict(doc, events=doc["events"][:finished["version"] - 1])
    outcome = checked(cut)
    assert (outcome["status"], outcome["version"]) == ("changed", finished["version"] - 1)
    assert "no match_finished follows" in outcome["reason"]


def test_events_that_do_not_fold_are_broken():
    """A rules version that is not installed, a game that is not hosted: broken at version 1, in one line."""
    doc = golden("ti4-exploration")
    doc["events"][0]["data"]["rules_version"] = "2031.01"
    outcome = checked(doc)
    assert (outcome["status"], outcome["version"]) == ("broken", 1)
    assert "2031.01" in outcome["reason"] and "\n" not in outcome["reason"]
    assert checked(golden("ti4-exploration"), {})["status"] == "broken"


def test_an_edited_rule_changes_the_commands_it_touches(tmp_path):
    """Uchronia's current version (used by matches) edited in place (a Plot refills to 4 cards, not 5): the setup still
    re-derives, the first Plot of each golden match does not."""
    folder = copy_game(tmp_path)
    edit_json(folder / "uchronia.json", plot_refill_to=4)
    games = dict(GAMES, uchronia=import_fresh(tmp_path))
    for n in (1, 2):
        doc = golden("uchronia", n, CURRENT)
        outcome = checked(doc, games)
        assert outcome["status"] == "changed" and outcome["rules"] == CURRENT
        event = doc["events"][outcome["version"] - 1]
        assert event["type"] == "cards_drawn" and "cards_drawn differs" in outcome["reason"]


def test_a_match_with_an_accepted_dispute_replays_identically():
    """Commands after a revert are decided again on the state they saw (the reverted events dropped)."""
    game = GAMES["uchronia"]
    store = GoldenStore(partitions=4)
    service = MatchService(store, {game.id: game}, clock=stepping_clock())
    history = History(store, service, None, {game.id: game})
    match = service.create("ann", game.id, game.options_schema.load({"max_rounds": 5}), players=["ann", "bob"])
    mid = invitations.accept_for_all(service, match).id
    rnd = random.Random(7)
    for _ in range(12):
        play_one(service, history, mid, rnd)
    m = service.load(mid)
    disputed = max(v for v in m.effective)
    opener = next(p for p in m.players if p != m.envelopes[disputed - 1]["actor"])
    dispute = history.open_dispute(opener, mid, disputed, "misclick")
    history.vote(next(p for p in m.players if p != opener), mid, dispute["id"], True)
    assert any(e["type"] == pe.MOVES_REVERTED for e in store.read_range(mid, 1))
    while not service.load(mid).finished:
        play_one(service, history, mid, rnd)
    assert recheck(mid, store.read_range(mid, 1), {game.id: game})["status"] == "identical"


@pytest.mark.skipif(pe.__dict__.get("RULES_UPGRADED") not in getattr(agg, "_PLATFORM_APPLY", {}),
                    reason="the aggregate does not fold rules_upgraded yet")
def test_recheck_follows_a_rules_upgrade(tmp_path):
    """A match created under the current version and upgraded to the bumped one mid-game is re-derived under the
    first up to the upgrade and under the second after it: identical; an edit of the second after the fact is found
    under it."""
    folder = copy_game(tmp_path)
    bump("uchronia", folder, tmp_path / "rules.lock.json", BUMP_DAY)
    edit_json(folder / "uchronia.json", plot_refill_to=4)
    current = import_fresh(tmp_path)
    old = current.at(CURRENT)
    store = GoldenStore(partitions=4)
    service = MatchService(store, {old.id: old}, clock=stepping_clock())
    history = History(store, service, None, {old.id: old})
    match = service.create("ann", old.id, old.options_schema.load({"max_rounds": 10}), players=["ann", "bob"])
    mid = invitations.accept_for_all(service, match).id
    assert match.game.rules_version == CURRENT
    rnd = random.Random(3)
    for _ in range(20):
        play_one(service, history, mid, rnd)
    assert not service.load(mid).finished
    service.execute(mid, None, lambda m, rng: [agg.new_event(pe.RULES_UPGRADED, **{"from": CURRENT,
                                                                                   "to": BUMPED})])
    assert service.load(mid).game.rules_version == BUMPED
    while not service.load(mid).finished:
        play_one(service, history, mid, rnd)
    events = store.read_range(mid, 1)
    upgraded = next(e["version"] for e in events if e["type"] == pe.RULES_UPGRADED)
    assert recheck(mid, events, {current.id: current}) == {"status": "identical", "version": None,
                                                           "rules": BUMPED, "reason": None}
    edit_json(folder / "uchronia.json", plot_refill_to=5)
    later = import_fresh(tmp_path)
    outcome = recheck(mid, events, {later.id: later})
    assert outcome["status"] == "changed" and outcome["rules"] == BUMPED and outcome["version"] > upgraded
