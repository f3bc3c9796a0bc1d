"""One test (at least) per Origins rule id not already exercised by the acceptance scenarios."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from domain.engine import HmacRng, ScriptedRng
from domain.games.origins import GAME
from domain.games.origins.scoring import score_player
from tests.unit.origins.origins_kit import (P1, P2, die, fold, fresh, given, legal_of, of, play, put, rejected,
                                           set_market, types)


def test_setup_start_and_placement_starting_city():
    """setup.start, placement.starting-city: the opening layout of §3-4."""
    players = [P1, P2, "p3"]
    events = GAME.setup(players, GAME.options_schema.load({}), HmacRng(b"s", "m"))
    assert types(events) == ["match_set_up", "round_started"]
    d = events[0]["data"]
    assert [s["die"]["id"] for s in d["citizen_row"]] == ["d1", "d2", "d3", "d4", "d5"]
    assert [s["die"]["id"] for s in d["orator_row"]] == ["d6", "d7"]
    assert all(s["die"]["value"] <= 5 and s["die"]["rolls"][-1] == s["die"]["value"] for s in d["citizen_row"])
    assert sorted(v["token"] for v in d["sites"].values()) == ["bt_build", "bt_orator", "bt_resource",
                                                                "bt_temple", "bt_war"]
    assert all(v["dial"] == 1 for v in d["sites"].values())
    assert [c["gold"] for c in d["district_cards"]] == [3, 3, 3] and len(d["market"]) == 4
    assert [x["id"] for pid in players for x in d["players"][pid]["dice"]] == [f"d{n}" for n in range(8, 14)]
    for seat in d["players"].values():
        assert seat["city"] == {"C3": "palace", "D3": "agora"}
        assert seat["resources"] == {"stone": 1, "food": 1, "wisdom": 1}
        assert len({x["colour"] for x in seat["dice"]}) == 2 and {x["value"] for x in seat["dice"]} == {2}
    start = events[1]["data"]
    assert start["round"] == 1 and start["orator_refills"] == [] and start["order"][0] == d["first_player"]
    state = fold(GAME.initial_state(players, {"max_rounds": 6}), events)
    assert state["current"] == d["first_player"] and state["next_die"] == 14


def test_round_turn_order():
    """round.turn-order: only the current player acts; turn commands wait for the open visit to end."""
    state = given()
    assert rejected(state, P2, "pass") == "round.turn-order"
    assert GAME.legal_commands(state, P2) == [] and GAME.active_players(state) == [P1]
    state, _ = play(state, P1, "visit", worker="archon", site="fields")
    assert rejected(state, P1, "pass") == "round.turn-order"
    assert rejected(state, P1, "visit", worker="d8", site="forum") == "round.turn-order"
    assert rejected(state, P1, "close_district", anchor="C3", die="d8", card=None) == "round.turn-order"
    assert rejected(state, P2, "gather", stone=2, food=0, wisdom=0) == "round.turn-order"
    state, events = play(state, P1, "gather", stone=1, food=1, wisdom=0)
    assert of(events, "turn_ended")["next"] == P2


def test_round_pass_skips_and_the_last_player_keeps_playing():
    """round.pass: a passed player is skipped; the one left keeps taking turns."""
    state, events = play(given(), P1, "pass")
    assert types(events) == ["player_passed", "turn_ended"] and state["current"] == P2
    state, events = play(state, P2, "visit", worker="archon", site="fields")
    state, events = play(state, P2, "gather", stone=2, food=0, wisdom=0)
    assert of(events, "turn_ended")["next"] == P2
    assert {"type": "pass", "payload": {}} in GAME.legal_commands(state, P2)


def test_round_end_returns_dice_and_archons():
    """round.end: the last pass ends the round; used dice and Archons are ready again, attacks cleared."""
    state = given(dice={P1: [die("d8", "blue", 3, used=True)]})
    state["players"][P1]["archon_used"] = True
    state["players"][P1]["attacked"] = True
    state, _ = play(state, P1, "pass")
    state, events = play(state, P2, "pass")
    assert types(events) == ["player_passed", "round_ended", "round_started"]
    p = state["players"][P1]
    assert p["dice"][0]["used"] is False and p["archon_used"] is False and p["attacked"] is False
    assert state["round"] == 2 and state["passed"] == []


def test_round_first_player_by_war_with_ties_in_previous_order():
    """round.first-player: highest war leads; a tie keeps the previous round's order."""
    state = given(players=(P1, P2, "p3"), war={P2: 4, "p3": 4})
    state["order"] = [P1, "p3", P2]
    state["current"] = P1
    state, _ = play(state, P1, "pass")
    state, _ = play(state, "p3", "pass")
    state, events = play(state, P2, "pass")
    assert of(events, "round_started")["order"] == ["p3", P1, P2]


def test_round_orator_refill_rolls_with_reroll_six():
    """round.orator-refill: an empty orator slot gets a die of random colour, a 6 is rerolled."""
    state = given()
    state["orator_row"][1] = None
    state, _ = play(state, P1, "pass")
    state, events = play(state, P2, "pass", rng=ScriptedRng(ints=[3, 6, 2]))
    refill = of(events, "round_started")["orator_refills"]
    assert refill == [{"slot": 2, "die": {"id": "d12", "colour": "red", "rolls": [6, 2], "value": 2}}]
    assert state["orator_row"][1] == {"id": "d12", "colour": "red", "value": 2}


def test_visit_worker_must_be_ready_and_yours():
    """visit.worker: a used die, someone else's die, an unknown id or a used Archon cannot visit."""
    state = given(dice={P1: [die("d8", "blue", 3, used=True), die("d9", "red", 3)]})
    assert rejected(state, P1, "visit", worker="d8", site="fields") == "visit.worker"
    assert rejected(state, P1, "visit", worker="d10", site="fields") == "visit.worker"
    assert rejected(state, P1, "visit", worker="zz", site="fields") == "visit.worker"
    state["players"][P1]["archon_used"] = True
    assert rejected(state, P1, "visit", worker="archon", site="fields") == "visit.worker"
    assert sorted(v["worker"] for v in legal_of(state, P1, "visit")) == ["d9"] * 5


def test_visit_no_blocking():
    """visit.no-blocking: several workers visit the same site in one round."""
    state, _ = play(given(), P1, "visit", worker="archon", site="fields")
    state, _ = play(state, P1, "gather", stone=2, food=0, wisdom=0)
    state, events = play(state, P2, "visit", worker="archon", site="fields")
    assert of(events, "site_visited")["dial_from"] == 2


def test_visit_end_only_after_the_main_or_when_it_became_impossible():
    """visit.end: end_visit is refused while the main action is still possible."""
    state = given(sites={"fields": {"token": "bt_resource"}}, dice={P1: [die("d8", "yellow", 2)]})
    state, _ = play(state, P1, "visit", worker="d8", site="fields")
    assert rejected(state, P1, "end_visit") == "visit.end"
    state, events = play(state, P1, "gather", stone=2, food=0, wisdom=0)
    assert types(events) == ["resources_gained"]
    state, events = play(state, P1, "end_visit")
    assert of(events, "visit_ended")["forfeited"] == ["bonus"]
    assert rejected(given(), P1, "end_visit") == "visit.end"


def test_orator_single_use_no_stand_and_dial():
    """orator.single-use, orator.no-stand: an orator die pays the dial at its value, gets no +1, then leaves."""
    state = given(resources={P1: {"wisdom": 2}}, sites={"fields": {"dial": 3}})
    state["players"][P1]["orator_dice"] = [{"id": "d6", "colour": "blue", "value": 1}]
    state, events = play(state, P1, "visit", worker="d6", site="fields")
    visited = of(events, "site_visited")
    assert visited["wisdom_paid"] == 2 and visited["die_value_to"] is None
    assert state["players"][P1]["orator_dice"] == [] and len(state["players"][P1]["dice"]) == 2
    kept = given()
    kept["players"][P1]["orator_dice"] = [{"id": "d6", "colour": "blue", "value": 1}]
    kept, _ = play(kept, P1, "pass")
    kept, _ = play(kept, P2, "pass")
    assert [v["worker"] for v in legal_of(kept, P1, "visit")].count("d6") == 5


def test_archon_no_colour():
    """archon.no-colour: the Archon ignores the dial, never matches a token and cannot close a district."""
    state = given(resources={P1: {"wisdom": 0}}, sites={"fields": {"dial": 6, "token": "bt_resource"}})
    state, events = play(state, P1, "visit", worker="archon", site="fields")
    assert of(events, "site_visited")["wisdom_paid"] == 0 and of(events, "site_visited")["bonus_available"] is False
    assert rejected(state, P1, "bonus_resource", resource="food") == "bonus.colour-match"


def test_bonus_temple():
    """bonus.temple: 1 stone for +1 on a temple below the top, no zodiac card."""
    base = given(resources={P1: {"stone": 1}}, temples={P1: {"forest": 8}},
                 dice={P1: [die("d8", "blue", 2)]}, sites={"observatory": {"token": "bt_temple"}})
    state, _ = play(base, P1, "visit", worker="d8", site="observatory")
    assert rejected(state, P1, "bonus_temple", temple="forest") == "bonus.temple"
    after, events = play(state, P1, "bonus_temple", temple="mountain")
    assert types(events) == ["temple_advanced"] and of(events, "temple_advanced")["source"] == "bonus"
    assert after["players"][P1]["temples"]["mountain"] == 1 and after["players"][P1]["zodiac"] == []
    broke = dict(state, players=dict(state["players"]))
    broke["players"][P1] = dict(state["players"][P1], resources={"stone": 0, "food": 1, "wisdom": 1})
    assert rejected(broke, P1, "bonus_temple", temple="sea") == "bonus.temple"
    assert legal_of(broke, P1, "bonus_temple") == []


def test_bonus_build_pays_food_and_may_be_a_farm():
    """bonus.build: pay 1 food, then the tile's cost (or only the food for a farm)."""
    base = given(resources={P1: {"food": 1, "wisdom": 2, "stone": 1}}, dice={P1: [die("d8", "yellow", 2)]},
                 sites={"fields": {"token": "bt_build"}})
    set_market(base, ["library-1", "academy-1", "academy-2", "armory-1"])
    state, _ = play(base, P1, "visit", worker="d8", site="fields")
    after, events = play(state, P1, "bonus_build", tile="library-1", as_farm=False, cell="C2")
    assert of(events, "building_bought")["paid"] == {"wisdom": 2, "stone": 1, "food": 1}
    assert of(events, "building_bought")["source"] == "bonus"
    assert after["players"][P1]["resources"] == {"food": 0, "wisdom": 2, "stone": 0}
    _, events = play(state, P1, "bonus_build", tile="academy-1", as_farm=True, cell="C2")
    assert of(events, "building_bought")["paid"] == {"wisdom": 0, "stone": 0, "food": 1}
    hungry = given(resources={P1: {"food": 0}}, dice={P1: [die("d8", "yellow", 2)]},
                   sites={"fields": {"token": "bt_build"}})
    hungry, _ = play(hungry, P1, "visit", worker="d8", site="fields")
    assert rejected(hungry, P1, "bonus_build", tile="academy-1", as_farm=True, cell="C2") == "bonus.build"


def _war_bonus_state(**kw):
    state = given(dice={P1: [die("d8", "yellow", 2)]}, sites={"fields": {"token": "bt_war"}}, **kw)
    state, _ = play(state, P1, "visit", worker="d8", site="fields")
    return state


def test_bonus_war_advance_or_attack():
    """bonus.war: pay 1 wisdom to advance (below the top) or to attack."""
    state = _war_bonus_state()
    after, events = play(state, P1, "bonus_war", choice="advance")
    assert of(events, "war_advanced") == {"player": P1, "from": 0, "to": 1, "wisdom_paid": 1}
    assert after["players"][P1]["resources"]["wisdom"] == 0
    _, events = play(state, P1, "bonus_war", choice="attack")
    assert of(events, "attack_made")["wisdom_paid"] == 1 and of(events, "attack_made")["source"] == "bonus"
    assert rejected(_war_bonus_state(war={P1: 10}), P1, "bonus_war", choice="advance") == "bonus.war"
    assert rejected(_war_bonus_state(resources={P1: {"wisdom": 0}}), P1, "bonus_war", choice="attack") == "bonus.war"


def test_attack_once_per_round():
    """attack.once-per-round: a second attack in the same round is refused (main or bonus)."""
    state = _war_bonus_state()
    state["players"][P1]["attacked"] = True
    assert rejected(state, P1, "bonus_war", choice="attack") == "attack.once-per-round"
    camp = given(resources={P1: {"food": 1}})
    camp["players"][P1]["attacked"] = True
    camp, _ = play(camp, P1, "visit", worker="archon", site="war_camp")
    assert rejected(camp, P1, "attack") == "attack.once-per-round"
    assert legal_of(camp, P1, "attack") == []


def test_attack_reward():
    """attack.reward: band reward, +1 VP per weaker player and per threshold; the disc does not move."""
    state = given(players=(P1, P2, "p3"), war={P1: 6, P2: 2, "p3": 7})
    state, _ = play(state, P1, "visit", worker="archon", site="war_camp")
    after, events = play(state, P1, "attack")
    made = of(events, "attack_made")
    assert made["reward"] == {"food": 0, "stone": 1, "wisdom": 1, "gold": 0} and made["vp"] == 1 + 2
    p = after["players"][P1]
    assert p["war"] == 6 and p["vp"] == 3 and p["resources"]["stone"] == 2 and p["attacked"] is True
    top = given(war={P1: 9})
    top, _ = play(top, P1, "visit", worker="archon", site="war_camp")
    after, events = play(top, P1, "attack")
    assert of(events, "attack_made")["reward"]["gold"] == 1 and after["players"][P1]["gold"] == 1


def test_food_no_waste_and_per_food_choice():
    """food.no-waste, food.per-food-choice: war may not pass 10; each food goes to the die or war."""
    state = given(resources={P1: {"food": 3}}, war={P1: 9})
    state, _ = play(state, P1, "visit", worker="archon", site="war_camp")
    assert rejected(state, P1, "spend_food", to_die=0, to_war=2) == "food.no-waste"
    assert rejected(state, P1, "spend_food", to_die=0, to_war=0) == "food.amount"
    assert legal_of(state, P1, "spend_food") == [{"to_die": 0, "to_war": 1}]


def test_gather_two():
    """gather.two: exactly two basic resources in any mix (6 choices)."""
    state, _ = play(given(), P1, "visit", worker="archon", site="fields")
    assert rejected(state, P1, "gather", stone=2, food=1, wisdom=0) == "gather.two"
    assert rejected(state, P1, "gather", stone=3, food=-1, wisdom=0) == "gather.two"
    assert len(legal_of(state, P1, "gather")) == 6
    after, _ = play(state, P1, "gather", stone=1, food=0, wisdom=1)
    assert after["players"][P1]["resources"] == {"stone": 2, "food": 1, "wisdom": 2}


def test_build_from_market_and_refill():
    """build.from-market: only face-up tiles; the slot is refilled from the stack, or stays empty."""
    state = given()
    set_market(state, ["quarry-1", "academy-1", "academy-2", "armory-1"])
    state, _ = play(state, P1, "visit", worker="archon", site="workshop")
    assert rejected(state, P1, "build", tile="monument-1", as_farm=True, cell="C2") == "build.from-market"
    assert state["stack"][1] == "armory-2"
    after, events = play(state, P1, "build", rng=ScriptedRng(ints=[1]), tile="quarry-1", as_farm=True, cell="C2")
    assert of(events, "market_refilled") == {"player": P1, "slot": 1, "tile": "armory-2"}
    assert after["market"][0] == "armory-2" and "armory-2" not in after["stack"]
    state["stack"] = []
    after, events = play(state, P1, "build", tile="quarry-1", as_farm=True, cell="C2")
    assert of(events, "market_refilled")["tile"] is None and after["market"][0] is None


def test_farm_interactions_granary_harvest_hall_taurus_cards():
    """farm.interactions: granary, harvest_hall, taurus and farm district cards count farms."""
    state = given(resources={P1: {"wisdom": 3, "stone": 3}})
    put(state, P1, "B2", "quarry-1", farm=True)
    put(state, P1, "B4", "quarry-2", farm=True)
    put(state, P1, "A2", "mill-1", farm=True)
    set_market(state, ["granary-1", "harvest_hall-1", "academy-2", "armory-1"])
    state, _ = play(state, P1, "visit", worker="archon", site="workshop")
    _, events = play(state, P1, "build", tile="granary-1", as_farm=False, cell="B3")
    assert of(events, "effect_applied")["gains"]["food"] == 2
    _, events = play(state, P1, "build", tile="harvest_hall-1", as_farm=False, cell="B3")
    assert of(events, "effect_applied")["gains"]["vp"] == 3
    player = state["players"][P1]
    player["zodiac"] = [{"temple": "forest", "card": "taurus"}]
    assert score_player(player)["zodiac"] == 3


def test_placement_must_place_and_no_rotation():
    """placement.must-place, placement.no-rotation: a build names its cell and never a rotation."""
    state, _ = play(given(), P1, "visit", worker="archon", site="workshop")
    tile = state["market"][0]
    assert rejected(state, P1, "build", tile=tile, as_farm=True, cell=None) == "placement.must-place"
    assert rejected(state, P1, "build", tile=tile, as_farm=True, cell="C2", rotation=90) == "placement.no-rotation"
    with pytest.raises(ValidationError):
        GAME.command_schemas["build"].load({"tile": tile, "as_farm": True, "cell": "C2", "rotation": 90})


def test_effect_auto_and_track_top():
    """effect.auto, effect.track-top: effects apply at once; gains stop at war 10 / temple 8, no zodiac card."""
    state = given(resources={P1: {"wisdom": 3, "stone": 3}}, war={P1: 9},
                  temples={P1: {"sea": 8, "forest": 8, "mountain": 8}})
    set_market(state, ["armory-1", "shrine-1", "academy-2", "quarry-1"])
    state, _ = play(state, P1, "visit", worker="archon", site="workshop")
    after, events = play(state, P1, "build", tile="armory-1", as_farm=False, cell="C2")
    assert of(events, "effect_applied")["gains"]["war"] == 1 and after["players"][P1]["war"] == 10
    after, events = play(state, P1, "build", tile="shrine-1", as_farm=False, cell="C2")
    assert of(events, "effect_applied")["gains"] == {"vp": 0, "stone": 0, "food": 0, "wisdom": 0, "war": 0,
                                                     "temples": {}}
    assert "zodiac_card_taken" not in types(events)


def test_district_die_value_and_score_final():
    """district.die-value, score.final: VP + 2/gold + two lowest temples + power-centre dice + zodiac."""
    player = fresh()["players"][P1]
    player.update(vp=7, gold=2, temples={"sea": 3, "forest": 1, "mountain": 8})
    player["districts"] = [{"anchor": "B2", "cells": [], "die": {"id": "d8", "colour": "red", "value": 5},
                            "card": None}]
    player["zodiac"] = [{"temple": "mountain", "card": "aries"}, {"temple": "mountain", "card": "libra"}]
    assert score_player(player) == {"vp": 7, "gold": 4, "temples": 4 + 1, "districts": 5, "zodiac": 2 + 2,
                                    "total": 7 + 4 + 5 + 5 + 4}


def _end_round(state):
    state, _ = play(state, P1, "pass")
    return play(state, P2, "pass")


def test_end_trigger_gold_or_last_round():
    """end.trigger: the round end finishes the game when all card gold is gone or at max_rounds."""
    state = given()
    for card in state["district_cards"]:
        card["gold"] = 0
    state, events = _end_round(state)
    assert types(events)[-2:] == ["round_ended", "game_ended"] and GAME.active_players(state) == []
    last = given()
    last["round"] = last["max_rounds"]
    last, events = _end_round(last)
    assert types(events)[-1] == "game_ended" and GAME.result(last)["winners"]
    going = given()
    going, events = _end_round(going)
    assert types(events)[-1] == "round_started" and GAME.result(going) is None


def test_score_tie_war_then_shared():
    """score.tie: equal totals go to the higher war position; still tied, both win."""
    state = given(war={P2: 3})
    state["round"] = state["max_rounds"]
    state, _ = _end_round(state)
    assert GAME.result(state)["winners"] == [P2]
    level = given()
    level["round"] = level["max_rounds"]
    level, _ = _end_round(level)
    assert GAME.result(level)["winners"] == [P1, P2]
    assert GAME.result(level)["scores"] == {P1: 0, P2: 0}


def test_on_timeout_forfeits_the_visit_then_passes():
    """Timeout: an open visit ends with its remainder forfeited, then the player passes."""
    state, _ = play(given(), P1, "visit", worker="archon", site="fields")
    events = GAME.on_timeout(state, P1, ScriptedRng())
    assert types(events) == ["visit_ended", "player_passed", "turn_ended"]
    assert of(events, "visit_ended")["forfeited"] == ["main"]
    assert fold(state, events)["current"] == P2
    assert GAME.on_timeout(state, P2, ScriptedRng()) == []


def test_visit_main_possible_cites_for_foreign_or_second_main_and_bonus_without_visit():
    """visit.main-possible for another site's main or a second main; bonus.colour-match with no visit open."""
    state = given()
    assert rejected(state, P1, "gather", stone=2, food=0, wisdom=0) == "visit.main-possible"
    assert rejected(state, P1, "bonus_resource", resource="food") == "bonus.colour-match"
    assert rejected(state, P1, "visit", worker="archon", site="moon") == "visit.main-possible"
    state, _ = play(state, P1, "visit", worker="archon", site="fields")
    assert rejected(state, P1, "advance_temple", temple="sea") == "visit.main-possible"
    bonus = given(dice={P1: [die("d8", "yellow", 2)]}, sites={"fields": {"token": "bt_resource"}})
    bonus, _ = play(bonus, P1, "visit", worker="d8", site="fields")
    bonus, _ = play(bonus, P1, "gather", stone=2, food=0, wisdom=0)
    assert rejected(bonus, P1, "gather", stone=2, food=0, wisdom=0) == "visit.main-possible"
