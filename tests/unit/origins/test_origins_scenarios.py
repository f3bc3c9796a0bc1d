"""Acceptance scenarios S1-S10 of the Origins spec (§9), seed examples first, as given/when/then."""
from __future__ import annotations

from domain.engine import ScriptedRng
from domain.games.origins.city import is_adjacent
from tests.unit.origins.origins_kit import (P1, P2, die, given, legal_of, of, play, put, rejected, seed_city,
                                           set_market, types)


def test_s1_seed_adjacency_figure():
    """S1 (placement.adjacency): only shared sides make tiles adjacent, corners never do."""
    city = seed_city(given())["players"][P1]["city"]
    assert city["C3"]["tile"] == "palace" and city["D3"]["tile"] == "agora"
    assert is_adjacent("C3", "D3")          # 1 Palace-Agora
    assert is_adjacent("C3", "C4")          # 2 Palace-watchtower
    assert is_adjacent("C4", "B4")          # 3 watchtower-theatre
    assert is_adjacent("B4", "B5")          # 4 theatre-mill
    assert [c for c in city if c != "B5" and is_adjacent("B5", c)] == ["B4"]
    assert not is_adjacent("C4", "B5") and not is_adjacent("D3", "C4")


def _workshop_visit(state):
    """P1 opens a visit at the workshop with the Archon (no dial, no bonus)."""
    state, events = play(state, P1, "visit", worker="archon", site="workshop")
    assert of(events, "site_visited")["bonus_available"] is False
    return state


def test_s2_seed_placement_figure():
    """S2 (placement.adjacent, placement.empty-cell, placement.in-grid, effect.on-placement)."""
    state = seed_city(given(resources={P1: {"wisdom": 2, "stone": 2}}))
    set_market(state, ["shrine-1", "academy-1", "academy-2", "armory-1"])
    state = _workshop_visit(state)
    cells = sorted(p["cell"] for p in legal_of(state, P1, "build") if p["tile"] == "shrine-1" and not p["as_farm"])
    assert cells == ["A4", "A5", "B3", "C2", "C5", "D2", "D4", "E3"]
    after, events = play(state, P1, "build", tile="shrine-1", as_farm=False, cell="E3")
    assert types(events) == ["building_bought", "market_refilled", "effect_applied", "visit_ended", "turn_ended"]
    assert of(events, "effect_applied")["gains"]["temples"] == {"sea": 1}
    assert after["players"][P1]["temples"]["sea"] == 1
    assert rejected(state, P1, "build", tile="shrine-1", as_farm=False, cell="B2") == "placement.adjacent"
    assert rejected(state, P1, "build", tile="shrine-1", as_farm=False, cell="C4") == "placement.empty-cell"
    assert rejected(state, P1, "build", tile="shrine-1", as_farm=False, cell="F3") == "placement.in-grid"
    for corner_only in ("A3", "B2", "D5", "E2", "E4"):
        assert rejected(state, P1, "build", tile="shrine-1", as_farm=False, cell=corner_only) == "placement.adjacent"


def test_s3_seed_farm_example():
    """S3 (farm.instead, farm.free, farm.face-down, build.pay-cost)."""
    state = given(resources={P1: {"wisdom": 0, "stone": 0}})
    set_market(state, ["masonry-1", "academy-1", "academy-2", "armory-1"])
    state = _workshop_visit(state)
    after, events = play(state, P1, "build", tile="masonry-1", as_farm=True, cell="C2")
    bought = of(events, "building_bought")
    assert bought["as_farm"] is True and bought["paid"] == {"wisdom": 0, "stone": 0, "food": 0}
    assert "market_refilled" in types(events) and "effect_applied" not in types(events)
    entry = after["players"][P1]["city"]["C2"]
    assert entry["tile"] == "masonry-1" and entry["kind"] == "farm" and entry["face_up"] is False
    assert rejected(state, P1, "build", tile="masonry-1", as_farm=False, cell="C2") == "build.pay-cost"
    rich = given(resources={P1: {"wisdom": 2, "stone": 2}})
    set_market(rich, ["masonry-1", "academy-1", "academy-2", "armory-1"])
    rich = _workshop_visit(rich)
    after, events = play(rich, P1, "build", tile="masonry-1", as_farm=False, cell="C2")
    assert of(events, "building_bought")["paid"] == {"wisdom": 2, "stone": 2, "food": 0}
    assert of(events, "effect_applied")["gains"]["stone"] == 1 and of(events, "effect_applied")["gains"]["vp"] == 2
    p = after["players"][P1]
    assert p["resources"]["wisdom"] == 0 and p["resources"]["stone"] == 1 and p["vp"] == 2


def _s4_state():
    return given(resources={P1: {"food": 3}}, war={P1: 2}, dice={P1: [die("d9", "red", 3)]},
                 sites={"war_camp": {"dial": 3, "token": "bt_resource"}, "fields": {"token": "bt_orator"}})


def test_s4_spend_food():
    """S4 (food.amount, food.per-food-choice, dice.max-six, food.target-die, bonus.resource)."""
    state = _s4_state()
    state, events = play(state, P1, "visit", worker="d9", site="war_camp")
    visited = of(events, "site_visited")
    assert {k: visited[k] for k in ("wisdom_paid", "dial_from", "dial_to", "die_value_to", "bonus_available")} == \
        {"wisdom_paid": 0, "dial_from": 3, "dial_to": 4, "die_value_to": 4, "bonus_available": True}
    assert rejected(state, P1, "spend_food", to_die=3, to_war=0) == "dice.max-six"
    assert rejected(state, P1, "spend_food", to_die=2, to_war=2) == "food.amount"
    state, events = play(state, P1, "spend_food", to_die=2, to_war=1)
    assert types(events) == ["food_spent"]
    p = state["players"][P1]
    assert p["resources"]["food"] == 0 and p["dice"][0]["value"] == 6 and p["war"] == 3
    state, events = play(state, P1, "bonus_resource", resource="wisdom")
    assert types(events) == ["resources_gained", "visit_ended", "turn_ended"]
    assert state["current"] == P2
    archon, _ = play(_s4_state(), P1, "visit", worker="archon", site="war_camp")
    assert rejected(archon, P1, "spend_food", to_die=1, to_war=0) == "food.target-die"


def test_s5_bonus_token_colour_before_the_main():
    """S5 (bonus.colour-match, bonus.orator, orator.no-stand, bonus.before-or-after)."""
    state = given(resources={P1: {"stone": 1}, P2: {"stone": 1}}, dice={P1: [die("d8", "yellow", 2)]},
                  sites={"observatory": {"token": "bt_orator"}, "war_camp": {"token": "bt_temple"}})
    assert state["orator_row"][0]["id"] == "d6"
    state, events = play(state, P1, "visit", worker="d8", site="observatory")
    assert of(events, "site_visited")["bonus_available"] is False
    assert rejected(state, P1, "bonus_orator", slot=1) == "bonus.colour-match"
    state, _ = play(state, P1, "advance_temple", temple="sea")
    assert state["current"] == P2
    stands_before = state["players"][P2]["dice"]
    state, events = play(state, P2, "visit", worker="d10", site="observatory")
    assert of(events, "site_visited")["bonus_available"] is True
    state, events = play(state, P2, "bonus_orator", slot=1)
    assert types(events) == ["orator_die_taken"] and of(events, "orator_die_taken")["die"] == "d6"
    assert [d["id"] for d in state["players"][P2]["orator_dice"]] == ["d6"]
    assert [d["id"] for d in state["players"][P2]["dice"]] == [d["id"] for d in stands_before]
    assert rejected(state, P2, "bonus_orator", slot=2) == "bonus.before-or-after"
    state, events = play(state, P2, "advance_temple", temple="sea")
    assert types(events) == ["temple_advanced", "zodiac_card_taken", "visit_ended", "turn_ended"]


def test_s6_temple_top_and_rank():
    """S6 (temple.advance-two, temple.take-zodiac, temple.card-regardless-of-rank, temple.single-disc,
    temple.top, visit.main-possible)."""
    base = given(resources={P1: {"stone": 2}}, temples={P1: {"sea": 1, "forest": 7, "mountain": 8},
                                                          P2: {"sea": 6}})
    state, _ = play(base, P1, "visit", worker="archon", site="observatory")
    after, events = play(state, P1, "advance_temple", rng=ScriptedRng(ints=[2]), temple="sea")
    adv = of(events, "temple_advanced")
    assert (adv["from"], adv["to"], adv["stone_paid"]) == (1, 3, 1)
    assert of(events, "zodiac_card_taken") == {"player": P1, "temple": "sea", "card": "pisces"}
    assert after["players"][P1]["zodiac"] == [{"temple": "sea", "card": "pisces"}]
    assert after["players"][P2]["temples"]["sea"] == 6
    after, events = play(state, P1, "advance_temple", temple="forest")
    adv = of(events, "temple_advanced")
    assert (adv["from"], adv["to"]) == (7, 8)
    assert of(events, "zodiac_card_taken")["temple"] == "forest"
    assert after["players"][P1]["temples"] == {"sea": 1, "forest": 8, "mountain": 8}
    assert rejected(state, P1, "advance_temple", temple="mountain") == "temple.top"
    broke = given(resources={P1: {"stone": 0}})
    assert rejected(broke, P1, "visit", worker="archon", site="observatory") == "visit.main-possible"


def _s7_state(wisdom=1):
    state = given(resources={P1: {"wisdom": wisdom}},
                  dice={P1: [die("d8", "blue", 2), die("d9", "orange", 2), die("d30", "red", 2)]})
    state["citizen_row"] = [{"id": "d1", "colour": "red", "value": 4}, {"id": "d2", "colour": "blue", "value": 2},
                            {"id": "d3", "colour": "yellow", "value": 5},
                            {"id": "d4", "colour": "purple", "value": 1},
                            {"id": "d5", "colour": "orange", "value": 3}]
    state, _ = play(state, P1, "visit", worker="archon", site="forum")
    return state


def test_s7_get_a_citizen_die():
    """S7 (citizen.choose-slot, citizen.pay-wisdom, citizen.place-in-stand, citizen.slide-left,
    citizen.refill-same-colour, citizen.needs-free-stand)."""
    state = _s7_state()
    after, events = play(state, P1, "take_citizen_die", rng=ScriptedRng(ints=[6, 4]), slot=2)
    taken = of(events, "citizen_die_taken")
    new_id = taken["new_die"]["id"]
    assert taken["die"] == "d2" and taken["wisdom_paid"] == 1
    assert taken["row"] == ["d1", "d3", "d4", "d5", new_id]
    assert {k: taken["new_die"][k] for k in ("colour", "rolls", "value")} == \
        {"colour": "blue", "rolls": [6, 4], "value": 4}
    p = after["players"][P1]
    assert p["dice"][3] == {"id": "d2", "colour": "blue", "value": 2, "used": False}
    assert [d["id"] for d in after["citizen_row"]] == taken["row"]
    after, _ = play(after, P2, "pass")
    assert after["current"] == P1 and "d2" in [v["worker"] for v in legal_of(after, P1, "visit")]
    assert rejected(after, P1, "visit", worker="d8", site="forum") == "citizen.needs-free-stand"
    assert rejected(_s7_state(), P1, "take_citizen_die", slot=5) == "citizen.pay-wisdom"


def _s8_state(colour="yellow"):
    state = given(dice={P1: [die("d8", colour, 5, used=True)]},
                  district_cards=[{"id": "dc1", "gold": 2}, {"id": "dc3", "gold": 2}, {"id": "dc7", "gold": 2}])
    put(state, P1, "B2", "mill-2")
    put(state, P1, "B3", "aqueduct-1")
    put(state, P1, "C2", "quarry-1", farm=True)
    return state


def test_s8_district_colour_activation_aqueduct():
    """S8 (district.action, district.vp, district.gold-card, district.activation, effect.only-two-moments,
    effect.unless-stated, district.tiles-free, district.block-filled, district.citizen-die)."""
    state = _s8_state()
    after, events = play(state, P1, "close_district", anchor="B2", die="d8", card="dc3")
    closed = of(events, "district_closed")
    assert closed["cells"] == ["B2", "B3", "C2", "C3"]
    assert (closed["die_value"], closed["vp"], closed["card"], closed["gold"]) == (5, 3, "dc3", 1)
    effects = [e["data"] for e in events if e["type"] == "effect_applied"]
    assert [(e["tile"], e["trigger"]) for e in effects] == [("mill-2", "district"), ("aqueduct-1", "district")]
    assert effects[0]["gains"]["food"] == 2 and effects[1]["gains"]["vp"] == 1
    assert types(events)[-1] == "turn_ended"
    p = after["players"][P1]
    assert p["dice"] == [] and p["districts"][0]["die"]["id"] == "d8" and p["gold"] == 1
    assert [c["gold"] for c in after["district_cards"]] == [2, 1, 2]
    assert rejected(state, P1, "close_district", anchor="B2", die="d8", card=None) == "district.gold-card"
    assert rejected(state, P1, "close_district", anchor="B2", die="d8", card="dc1") == "district.gold-card"
    red = _s8_state("red")
    _, events = play(red, P1, "close_district", anchor="B2", die="d8", card="dc3")
    assert [e["data"]["tile"] for e in events if e["type"] == "effect_applied"] == ["aqueduct-1"]
    later = after
    later["current"] = P1
    put(later, P1, "B1", "theatre-1")
    put(later, P1, "C1", "theatre-2")
    later["players"][P1]["dice"] = [die("d9", "orange", 3)]
    assert rejected(later, P1, "close_district", anchor="B1", die="d9", card=None) == "district.tiles-free"
    assert rejected(later, P1, "close_district", anchor="A1", die="d9", card=None) == "district.block-filled"
    later["players"][P1]["orator_dice"] = [{"id": "d6", "colour": "blue", "value": 1}]
    for cell, tile in (("D1", "mill-1"), ("D2", "granary-1"), ("E1", "library-1"), ("E2", "library-2")):
        put(later, P1, cell, tile)
    assert rejected(later, P1, "close_district", anchor="D1", die="d6", card=None) == "district.citizen-die"
    assert rejected(later, P1, "close_district", anchor="D1", die="archon", card=None) == "district.citizen-die"


def test_s9_effect_beats_rule():
    """S9 (effect.overrides-rules): the outpost goes anywhere face up, but not as a farm."""
    state = seed_city(given(resources={P1: {"wisdom": 1, "stone": 1}}))
    set_market(state, ["outpost-1", "academy-1", "academy-2", "armory-1"])
    state = _workshop_visit(state)
    after, events = play(state, P1, "build", tile="outpost-1", as_farm=False, cell="A1")
    assert of(events, "effect_applied")["gains"]["war"] == 1 and after["players"][P1]["war"] == 1
    assert rejected(state, P1, "build", tile="outpost-1", as_farm=True, cell="A1") == "placement.adjacent"


def test_s10_dial():
    """S10 (visit.dial-cost, visit.dial-advance, dice.use-increase)."""
    poor = given(resources={P1: {"wisdom": 2}}, dice={P1: [die("d8", "blue", 2)]}, sites={"fields": {"dial": 5}})
    assert rejected(poor, P1, "visit", worker="d8", site="fields") == "visit.dial-cost"
    rich = given(resources={P1: {"wisdom": 3}}, dice={P1: [die("d8", "blue", 2)]}, sites={"fields": {"dial": 5}})
    state, events = play(rich, P1, "visit", worker="d8", site="fields")
    visited = of(events, "site_visited")
    assert (visited["wisdom_paid"], visited["dial_to"], visited["die_value_to"]) == (3, 6, 3)
    state, _ = play(state, P1, "gather", stone=2, food=0, wisdom=0)
    state, events = play(state, P2, "visit", worker="archon", site="fields")
    assert of(events, "site_visited")["dial_to"] == 1 and state["sites"]["fields"]["dial"] == 1
