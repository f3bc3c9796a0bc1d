"""One test (at least) per rule id of the ti4-exploration spec, each naming its id in the docstring."""
from __future__ import annotations

import json

import pytest

from domain.engine import ScriptedRng
from domain.games.ti4_exploration import GAME, data
from domain.games.ti4_exploration.board import score
from tests.unit.ti4_exploration.ti4_kit import (P1, P2, P3, control, draw_index, first, fresh, legal_types, place,
                                                 reject, reveal, scripted, send, types)


def _invade(st, system, src, planet, ships=1, forces=1, rng=None):
    """P1 activates `system`, moves from `src` and commits everything to `planet`."""
    st, _ = send(st, P1, "activate_system", system=system)
    if st["step"] == "movement":
        st, _ = send(st, P1, "move_ships", **{"from": src}, ships=ships, ground_forces=forces)
    if st["step"] == "movement":
        st, _ = send(st, P1, "end_movement")
    return send(st, P1, "commit_ground_forces", rng, planet=planet, count=forces)


# --- seed rules --------------------------------------------------------------------------------------------

def test_73_2a_three_planet_decks_by_trait():
    """73.2a: three planet decks, one per trait (cultural, hazardous, industrial), 20 cards each."""
    st = fresh()
    assert {t for p in data.PLANETS.values() for t in p["traits"]} == {"cultural", "hazardous", "industrial"}
    assert {d: len(v["draw"]) for d, v in st["decks"].items()} == {"cultural": 20, "industrial": 20,
                                                                   "hazardous": 20, "frontier": 14}


def test_73_2_single_trait_draws_from_its_deck():
    """73.2 / explore.draw: a single-trait planet draws one card from its deck, chosen by the RNG index."""
    st = place(fresh(), P1, "sable", ships=1, forces=1)
    idx = draw_index(st, "hazardous", "core-mine#2")
    st, ev = _invade(st, "sable", "sable", "sable-prime", rng=scripted(idx))
    card = first(ev, "exploration_card_revealed")
    assert (card["deck"], card["card"], card["planet"]) == ("hazardous", "core-mine#2", "sable-prime")
    assert "core-mine#2" not in st["decks"]["hazardous"]["draw"] and len(st["decks"]["hazardous"]["draw"]) == 19


def test_73_2d_dark_energy_tap_blocked_while_exploring():
    """73.2d: a second exploration cannot start while a card is pending."""
    st = fresh()
    st["players"][P1]["technologies"] = ["dark-energy-tap"]
    st["step"] = "after_action"
    st["det_due"] = True
    st["active_system"] = "gloam"
    reveal(control(st, P1, "kaleth-veil"), P1, "paradise-world#1", planet="kaleth-veil", source="crown")
    reject(st, P1, "explore_frontier", "73.2d")


def test_73_3_crown_reexplores_an_explored_planet():
    """73.3 / relic.crown-explore / explore.trigger: the Crown explores a planet already controlled and explored."""
    st = fresh()
    st["players"][P1]["relics"] = [{"id": "the-crown-of-emphidia", "exhausted": False}]
    control(st, P1, "kaleth-veil")
    control(st, P2, "lysa-prime")
    place(st, P1, "kaleth", ships=1)
    st, _ = send(st, P1, "activate_system", system="kaleth")
    st, _ = send(st, P1, "end_movement")
    assert st["step"] == "after_action"
    reject(st, P1, "use_crown_of_emphidia", "relic.crown-explore", planet="lysa-prime")
    reject(st, P1, "use_crown_of_emphidia", "73.2b", planet="aurel-prime")
    st, ev = send(st, P1, "use_crown_of_emphidia", planet="kaleth-veil")
    assert first(ev, "exploration_started")["source"] == "crown"
    assert first(ev, "exploration_card_revealed")["planet"] == "kaleth-veil"
    assert st["players"][P1]["relics"][0]["exhausted"]


def test_73_4a_frontier_tokens_at_setup_and_by_lost_crew():
    """73.4a: setup puts a token in every planetless system; Lost Crew places one in an adjacent empty system."""
    setup_types = [e for e in GAME.setup([P1, P2], {"rounds": 4}, ScriptedRng()) if e["type"] ==
                   "frontier_token_placed"]
    assert sorted(e["data"]["system"] for e in setup_types) == ["gloam", "hollow", "rift-north", "rift-south"]
    st = fresh()
    st["systems"]["rift-north"]["frontier_token"] = False
    st = reveal(st, P1, "lost-crew#1", system="gloam", source="frontier")
    options = [c["payload"] for c in GAME.legal_commands(st, P1)]
    assert {"option": "gain", "system": "rift-north"} in options and {"option": "gain", "system": None} in options
    reject(st, P1, "resolve_exploration", "explore.options", option="gain", system="quorra")
    st, ev = send(st, P1, "resolve_exploration", option="gain", system="rift-north")
    assert first(ev, "frontier_token_placed") == {"system": "rift-north", "source": "lost-crew"}
    assert first(ev, "trade_goods_changed")["delta"] == 2


def test_73_5_and_73_6_frontier_card_then_token_removed():
    """73.5 / 73.6: a frontier token is explored with the frontier deck and removed after the card's fate."""
    st = fresh()
    st["players"][P1]["technologies"] = ["dark-energy-tap"]
    place(st, P1, "aurel", ships=1)
    st, _ = send(st, P1, "activate_system", system="gloam")
    rng = scripted(draw_index(st, "frontier", "merchant-station#1"))
    st, ev = send(st, P1, "move_ships", rng, **{"from": "aurel"}, ships=1, ground_forces=0)
    assert first(ev, "exploration_card_revealed")["deck"] == "frontier"
    assert st["systems"]["gloam"]["frontier_token"], "the token stays while the card is pending"
    st, ev = send(st, P1, "resolve_exploration", option="replenish_commodities")
    assert types(ev)[-4:-2] == ["card_discarded", "frontier_token_removed"]
    assert st["players"][P1]["commodities"] == 3


def test_73_7_discard_and_option_not_on_card():
    """73.7: an ordinary card goes to its deck's discard pile; an option the card does not offer is rejected."""
    st = reveal(control(fresh(), P1, "kaleth-veil", forces=1), P1, "freelancers#2", planet="kaleth-veil")
    reject(st, P1, "resolve_exploration", "73.7", option="take")
    st, ev = send(st, P1, "resolve_exploration", option="buy_ship")
    assert first(ev, "card_discarded") == {"card": "freelancers#2", "deck": "cultural"}
    assert st["systems"]["kaleth"]["ships"][P1] == 1 and st["players"][P1]["trade_goods"] == 2


def test_73_8_attachment_goes_under_the_planet():
    """73.8 / explore.fate: an attachment card is attached to the explored planet."""
    st = reveal(control(fresh(), P1, "corvin-prime"), P1, "biotic-research-facility#1", planet="corvin-prime")
    st, ev = send(st, P1, "resolve_exploration", option="attach")
    assert st["planets"]["corvin-prime"]["attachments"] == ["biotic-research-facility#1"]
    assert GAME.view(st, None)["planets"]["corvin-prime"]["influence"] == 3


def test_73_9_and_73_9b_fragment_in_front_and_tradeable():
    """73.9 / 73.9b: a relic fragment lies face up before the explorer and can be traded."""
    st = reveal(control(fresh(), P1, "lysa-prime"), P1, "cultural-relic-fragment#4", planet="lysa-prime")
    st, ev = send(st, P1, "resolve_exploration", option="take")
    assert GAME.view(st, P2)["players"][P1]["fragments"]["cultural"] == 1
    st["turn_player"], st["step"] = P1, "choose_action"
    st, _ = send(st, P1, "propose_transaction", to=P2, give={"item": "cultural", "count": 1}, receive=None)
    st, ev = send(st, P2, "accept_transaction")
    assert st["players"][P2]["fragments"]["cultural"] == ["cultural-relic-fragment#4"]


def test_73_comment_1_rule_ids_use_the_seed_numbering():
    """73.comment-1: rule 73 (LRR 2.0) is cited with the seed's numbers, never the English rule 35."""
    st = fresh()
    st["exploration"] = {"player": P1, "source": "control", "planet": "quorra-prime", "system": "quorra",
                         "decks": ["cultural", "industrial"], "stage": "choose_deck", "deck": None, "card": None}
    err = reject(st, P1, "choose_exploration_deck", "73.2c", deck="frontier")
    assert not err.rule_id.startswith("35")


def test_73_comment_2_purged_cards_never_reach_a_discard_pile():
    """73.comment-2: gamma-wormhole is purged, and purged fragments are listed as purged."""
    st = reveal(control(fresh(), P1, "tessen-prime"), P1, "gamma-wormhole#1", planet="tessen-prime")
    st, ev = send(st, P1, "resolve_exploration", option="place")
    assert "gamma-wormhole#1" in st["purged"] and st["decks"]["cultural"]["discard"] == []
    assert st["systems"]["tessen"]["wormhole"] == ["gamma"]


def test_73_comment_3_and_tech_enigmatic_device():
    """73.comment-3 / tech.enigmatic-device: the device stays in play until used; using it purges it."""
    st = fresh()
    reject(st, P1, "use_enigmatic_device", "tech.enigmatic-device", technology="sarween-tools")
    st["players"][P1]["devices"] = ["enigmatic-device#1"]
    st["players"][P1]["trade_goods"] = 5
    reject(st, P1, "use_enigmatic_device", "tech.enigmatic-device", technology="sarween-tools")
    st["players"][P1]["trade_goods"] = 6
    st, ev = send(st, P1, "use_enigmatic_device", technology="sarween-tools")
    assert first(ev, "technology_gained") == {"player": P1, "technology": "sarween-tools", "via": "enigmatic-device"}
    assert st["players"][P1]["devices"] == [] and "enigmatic-device#1" in st["purged"]


def test_73_comment_7_card_notes_table_matches_the_data():
    """73.comment-7: every card of the §3.3 card-notes table is in the data with its count and fate."""
    expected = {"demilitarized-zone": 1, "freelancers": 3, "mercenary-outfit": 3, "cultural-relic-fragment": 9,
                "abandoned-warehouses": 4, "functioning-base": 4, "local-fabricators": 4,
                "industrial-relic-fragment": 5, "core-mine": 3, "expedition": 3, "volatile-fuel-source": 3,
                "hazardous-relic-fragment": 7, "derelict-vessel": 2, "enigmatic-device": 2, "lost-crew": 2,
                "merchant-station": 2, "unknown-relic-fragment": 3, "mirage": 1, "ion-storm": 1}
    for card, count in expected.items():
        assert data.CARD_TYPES[card]["count"] == count
    assert sum(c["count"] for c in data.CARD_TYPES.values()) == 74


def test_data_file_is_validated(tmp_path):
    """A broken data file raises ValueError at load (asymmetric adjacency)."""
    raw = json.loads(data.DATA_FILE.read_text())
    raw["systems"][0]["adjacent"].append("dusk")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(ValueError):
        data.load(bad)


# --- flow ----------------------------------------------------------------------------------------------------

def test_flow_not_your_turn():
    """flow.not-your-turn: only the active player may send commands."""
    reject(fresh(), P2, "pass", "flow.not-your-turn")
    assert GAME.legal_commands(fresh(), P2) == []


def test_flow_wrong_step():
    """flow.wrong-step: a command outside its step is rejected."""
    st = fresh()
    reject(st, P1, "end_movement", "flow.wrong-step")
    reject(st, P1, "resolve_exploration", "flow.wrong-step", option="take")
    reject(st, P1, "accept_transaction", "flow.wrong-step")
    st = reveal(control(st, P1, "lysa-prime"), P1, "cultural-relic-fragment#4", planet="lysa-prime")
    reject(st, P1, "pass", "flow.wrong-step")


def test_flow_auto_advance_and_exploration_overlay():
    """flow.auto-advance / flow.exploration-overlay: the suspended control step continues after the card."""
    st = place(place(fresh(), P1, "aurel"), P1, "kaleth", ships=1, forces=2)
    st, _ = send(st, P1, "activate_system", system="kaleth")
    assert st["step"] == "invasion", "no ship can move, so movement ended by itself"
    st, _ = send(st, P1, "commit_ground_forces", planet="kaleth-prime", count=1)
    st, ev = send(st, P1, "commit_ground_forces", planet="kaleth-veil", count=1)
    assert st["step"] == "control" and st["exploration"] is None and len(st["to_gain"]) == 2
    st, ev = send(st, P1, "gain_control", planet="kaleth-prime")
    assert st["exploration"]["stage"] == "revealed" and st["step"] == "control"
    card = st["exploration"]["card"]
    option = GAME.legal_commands(st, P1)[0]
    st, ev = send(st, P1, option["type"], **option["payload"])
    assert first(ev, "planet_control_gained")["planet"] == "kaleth-veil", f"the step continued after {card}"


# --- tactical ------------------------------------------------------------------------------------------------

def test_tactical_command_token():
    """tactical.command-token: activation spends a token; none left is rejected."""
    st = fresh()
    st["players"][P1]["command_tokens"] = 0
    reject(st, P1, "activate_system", "tactical.command-token", system="kaleth")
    assert "activate_system" not in legal_types(st, P1)


def test_tactical_once_per_round():
    """tactical.once-per-round: a system is activated once per round; its ships cannot move later."""
    st = fresh()
    st["activated"][P1] = ["aurel"]
    reject(st, P1, "activate_system", "tactical.once-per-round", system="aurel")
    reject(st, P1, "activate_system", "tactical.eligible-system", system="kaleth")
    place(st, P1, "kaleth", ships=1)
    st, ev = send(st, P1, "activate_system", system="kaleth")
    assert "movement_ended" in types(ev) and "ships_moved" not in types(ev), "aurel's ships are frozen"
    st = fresh()
    st["activated"][P1] = ["aurel"]
    st.update(step="movement", active_system="kaleth")
    reject(st, P1, "move_ships", "tactical.once-per-round", **{"from": "aurel"}, ships=1, ground_forces=0)


def test_tactical_eligible_system():
    """tactical.eligible-system: a far system without your ships cannot be activated."""
    reject(fresh(), P1, "activate_system", "tactical.eligible-system", system="dusk")
    reject(fresh(), P1, "activate_system", "tactical.eligible-system", system="nowhere")
    assert {c["payload"]["system"] for c in GAME.legal_commands(fresh(), P1) if c["type"] == "activate_system"} == \
        {"aurel", "gloam", "kaleth", "ysolde"}


def test_movement_blockade():
    """movement.blockade: a system with another player's ships cannot be activated."""
    st = place(fresh(), P2, "kaleth", ships=1)
    reject(st, P1, "activate_system", "movement.blockade", system="kaleth")


def test_movement_adjacent_and_capacity():
    """movement.adjacent / movement.capacity: 1 hop only; at most 2 ground forces per ship, also for those left."""
    st = place(fresh(), P1, "sable", ships=1)
    st.update(step="movement", active_system="kaleth")
    st["activated"][P1] = ["kaleth"]
    reject(st, P1, "move_ships", "movement.adjacent", **{"from": "cinder"}, ships=1, ground_forces=0)
    reject(st, P1, "move_ships", "movement.capacity", **{"from": "aurel"}, ships=1, ground_forces=3)
    reject(st, P1, "move_ships", "movement.capacity", **{"from": "aurel"}, ships=3, ground_forces=5)
    reject(st, P1, "move_ships", "movement.capacity", **{"from": "aurel"}, ships=3, ground_forces=0)
    reject(st, P1, "move_ships", "movement.capacity", **{"from": "aurel"}, ships=2, ground_forces=1)
    st, ev = send(st, P1, "move_ships", **{"from": "aurel"}, ships=2, ground_forces=2)
    assert st["systems"]["aurel"]["space_ground_forces"][P1] == 2


def test_movement_wormholes():
    """movement.wormholes: two systems with gamma / ion storm tokens are adjacent."""
    st = place(fresh(), P1, "rift-south", ships=1)
    st.update(step="movement", active_system="rift-north")
    st["activated"][P1] = ["rift-north"]
    st["systems"]["rift-north"]["wormhole"] = ["gamma"]
    reject(st, P1, "move_ships", "movement.wormholes", **{"from": "rift-south"}, ships=1, ground_forces=0)
    st["systems"]["rift-south"]["wormhole"] = ["ion-storm"]
    st, ev = send(st, P1, "move_ships", **{"from": "rift-south"}, ships=1, ground_forces=0)
    assert first(ev, "ships_moved")["to"] == "rift-north"


def test_invasion_commit_and_dmz():
    """invasion.commit / invasion.dmz: only planets of the active system; never a demilitarized zone."""
    st = place(fresh(), P1, "kaleth", ships=1, forces=2)
    control(st, None, "kaleth-veil", attachments=["demilitarized-zone#1"])
    st.update(step="invasion", active_system="kaleth")
    reject(st, P1, "commit_ground_forces", "invasion.commit", planet="sable-prime", count=1)
    reject(st, P1, "commit_ground_forces", "invasion.commit", planet="kaleth-prime", count=3)
    reject(st, P1, "commit_ground_forces", "invasion.dmz", planet="kaleth-veil", count=1)
    assert {c["payload"]["planet"] for c in GAME.legal_commands(st, P1) if c["type"] == "commit_ground_forces"} \
        == {"kaleth-prime"}


def test_invasion_combat_defender_holds():
    """invasion.combat / control.persists: a weaker attack is wiped out and control stays with the defender."""
    st = place(fresh(), P2, "kaleth", ships=1, forces=1)
    control(st, P1, "kaleth-veil", forces=2)
    st["turn_player"] = P2
    st, _ = send(st, P2, "activate_system", system="kaleth")
    st, ev = send(st, P2, "commit_ground_forces", planet="kaleth-veil", count=1)
    assert first(ev, "ground_combat_resolved")["defender_lost"] == 1
    assert st["planets"]["kaleth-veil"]["controller"] == P1 and st["planets"]["kaleth-veil"]["ground_forces"] == {P1: 1}


def test_control_persists_without_ground_forces():
    """control.persists / demilitarized-zone: removing every ground force does not change control."""
    st = reveal(control(fresh(), P1, "tessen-prime", forces=2), P1, "demilitarized-zone#1", planet="tessen-prime")
    st, ev = send(st, P1, "resolve_exploration", option="attach")
    assert first(ev, "ground_forces_removed")["count"] == 2
    assert st["planets"]["tessen-prime"]["controller"] == P1 and st["planets"]["tessen-prime"]["ground_forces"] == {}


def test_control_gain_and_exhausted():
    """control.gain / control.exhausted: the invaded planet is gained exhausted."""
    st = place(fresh(), P1, "sable", ships=1, forces=1)
    st, ev = _invade(st, "sable", "sable", "sable-prime")
    assert first(ev, "planet_control_gained")["exhausted"] is True and st["planets"]["sable-prime"]["exhausted"]


def test_control_shard_moves_with_a_home_planet():
    """control.shard: taking a planet in the shard owner's home system takes the Shard of the Throne."""
    st = fresh()
    st["players"][P2]["relics"] = [{"id": "shard-of-the-throne", "exhausted": False}]
    control(st, P2, "bastion-ward", forces=0)
    place(st, P2, "bastion")
    place(st, P1, "bastion", ships=1, forces=1)
    st, ev = _invade(st, "bastion", "bastion", "bastion-ward")
    assert first(ev, "relic_transferred") == {"relic": "shard-of-the-throne", "from": P2, "to": P1}
    assert score(st, P1)["shard"] == 1 and score(st, P2)["shard"] == 0


def test_production_home_and_economy_trade_goods():
    """production.home / economy.trade-goods: produce at home, paid in TG; elsewhere no production step."""
    st = fresh()
    st, _ = send(st, P1, "activate_system", system="aurel")
    assert st["step"] == "invasion", "own home planets could receive ground forces"
    st, _ = send(st, P1, "end_invasion")
    assert st["step"] == "production"
    reject(st, P1, "produce", "production.home", ships=2, ground_forces=1)
    reject(st, P1, "produce", "production.home", ships=0, ground_forces=5)
    reject(st, P1, "produce", "movement.capacity", ships=0, ground_forces=3)
    st, ev = send(st, P1, "produce", ships=1, ground_forces=2)
    assert first(ev, "units_produced")["cost"] == 4 and st["players"][P1]["trade_goods"] == 0
    st = place(fresh(), P1, "kaleth", ships=1)
    st, ev = send(st, P1, "activate_system", system="kaleth")
    st, ev = send(st, P1, "end_movement")
    assert "step_changed" in types(ev) and first(ev, "step_changed")["step"] == "after_action"
    reject(fresh(), P1, "produce", "flow.wrong-step", ships=1, ground_forces=0)


def test_production_with_sarween_tools():
    """production.home: sarween-tools makes a production 1 TG cheaper."""
    st = fresh()
    st["players"][P1]["technologies"] = ["sarween-tools"]
    st, _ = send(st, P1, "activate_system", system="aurel")
    st, _ = send(st, P1, "end_invasion")
    st, ev = send(st, P1, "produce", ships=2, ground_forces=1)
    assert first(ev, "units_produced")["cost"] == 4


# --- exploring -----------------------------------------------------------------------------------------------

def test_explore_empty_fizzles_and_removes_the_token():
    """explore.empty: both piles empty -> exploration_fizzled; DET is no longer due, the token is removed."""
    st = fresh()
    st["players"][P1]["technologies"] = ["dark-energy-tap"]
    st["decks"]["frontier"] = {"draw": [], "discard": []}
    place(st, P1, "aurel", ships=1)
    st, _ = send(st, P1, "activate_system", system="gloam")
    st, ev = send(st, P1, "move_ships", **{"from": "aurel"}, ships=1, ground_forces=0)
    assert types(ev)[-4:] == ["exploration_fizzled", "frontier_token_removed", "turn_ended", "turn_started"]


def test_explore_options_preconditions():
    """explore.options: an option whose precondition fails now is rejected; `system` only for lost-crew."""
    st = reveal(control(fresh(), P1, "kaleth-prime", forces=1), P1, "expedition#1", planet="kaleth-prime")
    reject(st, P1, "resolve_exploration", "explore.options", option="remove_ground_force")
    reject(st, P1, "resolve_exploration", "explore.options", option="decline", system="gloam")
    st["planets"]["kaleth-prime"]["exhausted"] = True
    st, ev = send(st, P1, "resolve_exploration", option="remove_ground_force")
    assert types(ev)[1:3] == ["ground_forces_removed", "planet_readied"]


@pytest.mark.parametrize("card,option,effect", [
    ("core-mine#1", "remove_ground_force", ("trade_goods", 5)),
    ("volatile-fuel-source#1", "remove_ground_force", ("command_tokens", 4)),
    ("abandoned-warehouses#1", "gain_commodities", ("commodities", 2)),
    ("local-fabricators#1", "place_pay_trade_good", ("trade_goods", 3)),
    ("mercenary-outfit#2", "decline", ("trade_goods", 4)),
])
def test_explore_fate_and_effects(card, option, effect):
    """explore.fate: each resolved card has its effect, then exactly one fate event."""
    st = reveal(control(fresh(), P1, "halcyon-prime", forces=1), P1, card, planet="halcyon-prime")
    st, ev = send(st, P1, "resolve_exploration", option=option)
    fates = [t for t in types(ev) if t in ("card_discarded", "card_attached", "relic_fragment_gained", "card_purged",
                                            "card_kept_in_play")]
    assert fates == ["card_discarded"]
    assert st["players"][P1][effect[0]] == effect[1]


def test_economy_commodity_cap_and_relics_dynamis():
    """economy.commodity-cap / relics.dynamis: commodities stop at the commodity value, which dynamis raises to 5."""
    st = reveal(control(fresh(), P1, "kaleth-prime"), P1, "abandoned-warehouses#2", planet="kaleth-prime")
    st["players"][P1]["commodities"] = 2
    st, ev = send(st, P1, "resolve_exploration", option="gain_commodities")
    assert st["players"][P1]["commodities"] == 3
    st = reveal(control(fresh(), P1, "kaleth-prime"), P1, "abandoned-warehouses#2", planet="kaleth-prime")
    st["players"][P1]["commodities"] = 2
    st["players"][P1]["relics"] = [{"id": "dynamis-core", "exhausted": False}]
    assert GAME.view(st, None)["players"][P1]["commodity_value"] == 5
    st, ev = send(st, P1, "resolve_exploration", option="gain_commodities")
    assert st["players"][P1]["commodities"] == 4


def test_economy_command_tokens_and_status_steps():
    """economy.command-tokens / status.steps: income from ready planets, readying, +2 tokens, round 2."""
    st = fresh()
    control(st, P1, "kaleth-prime", exhausted=True, attachments=["mining-world#1"])
    control(st, P1, "lysa-prime", exhausted=False, attachments=["mining-world#1"])
    st["players"][P1]["command_tokens"] = 9
    st, _ = send(st, P1, "pass")
    st, ev = send(st, P2, "pass")
    status = first(ev, "status_phase_resolved")
    assert status["income"][P1] == 3 + 2 + 4 and status["income"][P2] == 5
    assert st["players"][P1]["command_tokens"] == 11
    assert not st["planets"]["kaleth-prime"]["exhausted"]
    assert first(ev, "round_started") == {"round": 2, "order": [P2, P1], "start_player": P2}


def test_tech_dark_energy_tap_not_due():
    """tech.dark-energy-tap: explore_frontier when no exploration is due is rejected."""
    st = fresh()
    st["players"][P1]["technologies"] = ["dark-energy-tap"]
    st["players"][P1]["relics"] = [{"id": "the-crown-of-emphidia", "exhausted": False}]
    control(st, P1, "kaleth-veil")
    place(st, P1, "kaleth", ships=1)
    st, _ = send(st, P1, "activate_system", system="kaleth")
    st, _ = send(st, P1, "end_movement")
    reject(st, P1, "explore_frontier", "tech.dark-energy-tap")


def test_after_action_end():
    """after-action.end: with only the optional Crown left, end_turn ends the turn."""
    st = fresh()
    st["players"][P1]["relics"] = [{"id": "the-crown-of-emphidia", "exhausted": False}]
    control(st, P1, "kaleth-veil")
    place(st, P1, "kaleth", ships=1)
    st, _ = send(st, P1, "activate_system", system="kaleth")
    st, _ = send(st, P1, "end_movement")
    assert legal_types(st, P1) == {"use_crown_of_emphidia", "end_turn"}
    st, ev = send(st, P1, "end_turn")
    assert st["turn_player"] == P2


# --- technologies and relics ---------------------------------------------------------------------------------

def test_tech_research():
    """tech.research: 1 command token + 5 TG for a technology you lack."""
    st = fresh()
    reject(st, P1, "research", "tech.research", technology="dark-energy-tap")
    st["players"][P1]["trade_goods"] = 5
    st, ev = send(st, P1, "research", technology="dark-energy-tap")
    assert st["players"][P1]["technologies"] == ["dark-energy-tap"] and st["players"][P1]["command_tokens"] == 2
    st["turn_player"], st["step"] = P1, "choose_action"
    st["players"][P1]["trade_goods"] = 9
    reject(st, P1, "research", "tech.research", technology="dark-energy-tap")


def test_relics_purge_three_needs_enough_fragments():
    """relics.purge-three / 73.9a: you need 3 fragments of the type in front of you."""
    st = fresh()
    st["players"][P1]["fragments"]["industrial"] = ["industrial-relic-fragment#1", "industrial-relic-fragment#2"]
    reject(st, P1, "purge_fragments", "relics.purge-three", fragment_type="industrial", unknown=0)
    reject(st, P1, "purge_fragments", "relics.purge-three", fragment_type="industrial", unknown=1)
    assert "purge_fragments" not in legal_types(st, P1)


def test_relics_unknown_count_as_any_type():
    """relics.unknown: unknown fragments fill in for the chosen type, up to 2."""
    st = fresh()
    st["players"][P1]["fragments"]["hazardous"] = ["hazardous-relic-fragment#1"]
    st["players"][P1]["fragments"]["unknown"] = ["unknown-relic-fragment#1", "unknown-relic-fragment#2"]
    payloads = [c["payload"] for c in GAME.legal_commands(st, P1) if c["type"] == "purge_fragments"]
    assert payloads == [{"fragment_type": "hazardous", "unknown": 2}]


def test_relics_no_trade():
    """relics.no-trade: a relic cannot be a lot."""
    st = fresh()
    st["players"][P1]["relics"] = [{"id": "nano-forge", "exhausted": False}]
    reject(st, P1, "propose_transaction", "relics.no-trade", to=P2, give={"item": "nano-forge", "count": 1},
           receive=None)


def test_relics_crown_vp_in_status_phase():
    """relics.crown-vp: owning the Crown and the tomb planet purges the Crown for 1 VP in the status phase."""
    st = fresh()
    st["players"][P1]["relics"] = [{"id": "the-crown-of-emphidia", "exhausted": True}]
    control(st, P1, "tessen-prime", attachments=["tomb-of-emphidia#1"])
    st, _ = send(st, P1, "pass")
    st, ev = send(st, P2, "pass")
    assert first(ev, "status_phase_resolved")["crown_vp"] == [P1]
    assert st["players"][P1]["vp_tokens"] == 1 and st["players"][P1]["relics"] == []
    assert "the-crown-of-emphidia" in st["purged"]


def test_relics_nano_forge_and_maw():
    """relics.nano-forge / relics.maw: the forge goes on a non-home planet; the Maw trades planets for a tech."""
    st = fresh()
    reject(st, P1, "use_nano_forge", "relics.nano-forge", planet="kaleth-veil")
    st["players"][P1]["relics"] = [{"id": "nano-forge", "exhausted": False}, {"id": "maw-of-worlds",
                                                                               "exhausted": False}]
    control(st, P1, "kaleth-veil")
    reject(st, P1, "use_nano_forge", "relics.nano-forge", planet="aurel-prime")
    st, ev = send(st, P1, "use_nano_forge", planet="kaleth-veil")
    assert GAME.view(st, None)["planets"]["kaleth-veil"]["resources"] == 3
    st["turn_player"], st["step"] = P1, "choose_action"
    reject(st, P1, "use_maw_of_worlds", "relics.maw", technology="warp-drive")
    st, ev = send(st, P1, "use_maw_of_worlds", technology="sarween-tools")
    assert set(first(ev, "planets_exhausted")["planets"]) == {"aurel-prime", "aurel-ward", "kaleth-veil"}
    assert st["players"][P1]["relics"] == [] and "maw-of-worlds" in st["purged"]


# --- scoring -------------------------------------------------------------------------------------------------

def test_scoring_final():
    """scoring.final: planets (Mecatol 2, own home 0, others 1) + influence / 4 + relics drawn + shard + tokens."""
    st = fresh()
    control(st, P1, "mecatol-rex")
    control(st, P1, "tessen-prime")
    control(st, P1, "bastion-ward")
    st["players"][P1]["relics_drawn"] = 2
    st["players"][P1]["vp_tokens"] = 1
    breakdown = score(st, P1)
    assert breakdown == {"planets": 4, "influence": (1 + 2 + 6 + 3 + 2) // 4, "relics": 2, "shard": 0, "tokens": 1,
                         "total": 4 + 3 + 2 + 1}


def test_scoring_tiebreak_and_result():
    """scoring.tiebreak: equal VP -> more relics drawn, then more TG; the result names the winner."""
    st = fresh(rounds=1)
    st["players"][P2]["trade_goods"] = 9
    st, _ = send(st, P1, "pass")
    st, ev = send(st, P2, "pass")
    result = GAME.result(st)
    assert result["winners"] == [P2] and result["ranking"] == [P2, P1]
    assert types(ev)[-1] == "match_finished" and GAME.active_players(st) == []
    st = fresh(rounds=1)
    st, _ = send(st, P1, "pass")
    st, _ = send(st, P2, "pass")
    assert GAME.result(st)["winners"] == [P1, P2]


# --- transactions --------------------------------------------------------------------------------------------

def test_transaction_parties_and_lots():
    """transaction.parties / transaction.lots: another player; 1-3 of an owned item; not both sides empty."""
    st = fresh(3)
    reject(st, P1, "propose_transaction", "transaction.parties", to=P1, give=None,
           receive={"item": "trade_goods", "count": 1})
    reject(st, P1, "propose_transaction", "transaction.lots", to=P2, give=None, receive=None)
    reject(st, P1, "propose_transaction", "transaction.lots", to=P2, give={"item": "trade_goods", "count": 4},
           receive=None)
    reject(st, P1, "propose_transaction", "transaction.lots", to=P2, give={"item": "commodities", "count": 1},
           receive=None)
    reject(st, P1, "propose_transaction", "transaction.lots", to=P3, give={"item": "ships", "count": 1},
           receive=None)


def test_transaction_windows():
    """transaction.windows: no proposals during movement."""
    st, _ = send(fresh(), P1, "activate_system", system="kaleth")
    assert st["step"] == "movement"
    reject(st, P1, "propose_transaction", "transaction.windows", to=P2, give=None,
           receive={"item": "trade_goods", "count": 1})


def test_transaction_commodities_become_trade_goods():
    """transaction.commodities: received commodities arrive as trade goods."""
    st = fresh()
    st["players"][P1]["commodities"] = 2
    st, _ = send(st, P1, "propose_transaction", to=P2, give={"item": "commodities", "count": 2}, receive=None)
    st, ev = send(st, P2, "accept_transaction")
    assert first(ev, "transaction_accepted")["to_gets"] == {"item": "trade_goods", "count": 2}
    assert st["players"][P2]["trade_goods"] == 6 and st["players"][P2]["commodities"] == 0


def test_transaction_reset_and_decline_counts():
    """transaction.reset / transaction.once-per-player: a declined proposal counts; the record clears next turn."""
    st = fresh()
    st, _ = send(st, P1, "propose_transaction", to=P2, give={"item": "trade_goods", "count": 1}, receive=None)
    st, ev = send(st, P2, "decline_transaction")
    assert types(ev) == ["transaction_declined"] and st["players"][P2]["trade_goods"] == 4
    reject(st, P1, "propose_transaction", "transaction.once-per-player", to=P2, give=None,
           receive={"item": "trade_goods", "count": 1})
    st, _ = send(st, P1, "pass")
    assert st["proposals_made"] == []
    st, _ = send(st, P2, "propose_transaction", to=P1, give=None, receive={"item": "trade_goods", "count": 1})
    assert GAME.active_players(st) == [P1], "a passed player can still be the target"


def test_transaction_response():
    """transaction.response: while a proposal is pending only its target answers."""
    st = fresh()
    st, _ = send(st, P1, "propose_transaction", to=P2, give=None, receive={"item": "trade_goods", "count": 1})
    reject(st, P1, "pass", "transaction.response")
    reject(st, P2, "pass", "transaction.response")
    assert legal_types(st, P2) == {"accept_transaction", "decline_transaction"} and GAME.legal_commands(st, P1) == []


def test_on_timeout_defaults():
    """on_timeout: decline a proposal, pass at choose_action, end movement, first option otherwise."""
    st = fresh()
    assert types(GAME.on_timeout(st, P1, ScriptedRng()))[0] == "player_passed"
    assert GAME.on_timeout(st, P2, ScriptedRng()) == []
    st2, _ = send(st, P1, "propose_transaction", to=P2, give=None, receive={"item": "trade_goods", "count": 1})
    assert types(GAME.on_timeout(st2, P2, ScriptedRng())) == ["transaction_declined"]
    st3, _ = send(st, P1, "activate_system", system="kaleth")
    assert types(GAME.on_timeout(st3, P1, ScriptedRng()))[0] == "movement_ended"
    st4 = reveal(control(fresh(), P1, "kaleth-veil", forces=1), P1, "mercenary-outfit#1", planet="kaleth-veil")
    assert first(GAME.on_timeout(st4, P1, ScriptedRng()), "exploration_card_resolved")["option"] == "decline"


def test_describe_sentences():
    """describe: readable sentences that use the display names, also for odd events."""
    names = {P1: "Ann", P2: "Bob"}.get
    ev = {"type": "planet_control_gained", "data": {"player": P1, "planet": "kaleth-veil",
                                                     "previous_controller": P2, "exhausted": True}}
    assert GAME.describe(ev, names) == "Ann gained control of Kaleth Veil from Bob."
    assert isinstance(GAME.describe({"type": "exploration_card_revealed", "data": {}}, names), str)
    assert isinstance(GAME.describe({"type": "mystery"}, names), str)
    assert isinstance(GAME.describe({"type": "status_phase_resolved", "data": {"income": 5}}, names), str)
