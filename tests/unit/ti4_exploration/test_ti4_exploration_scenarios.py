"""The acceptance scenarios S1-S11 of the ti4-exploration spec (§9), as given/when/then at the domain level."""
from __future__ import annotations

from domain.games.ti4_exploration import GAME
from tests.unit.ti4_exploration.ti4_kit import (P1, P2, control, draw_index, first, fresh, legal_types, place,
                                                 reject, relic_index, reveal, scripted, send, types)


def test_s1_several_planets_at_once():
    """S1 (73.intro, 73.1, 73.2, 73.2d, 73.comment-4, 73.7, 73.9, control.gain): the explorer orders the gains and
    explores each planet completely before gaining the next."""
    st = fresh()
    st, ev = send(st, P1, "activate_system", system="kaleth")
    assert first(ev, "system_activated")["command_tokens_left"] == 2
    st, _ = send(st, P1, "move_ships", **{"from": "aurel"}, ships=2, ground_forces=3)
    st, _ = send(st, P1, "end_movement")
    st, _ = send(st, P1, "commit_ground_forces", planet="kaleth-prime", count=2)
    st, ev = send(st, P1, "commit_ground_forces", planet="kaleth-veil", count=1)
    assert "invasion_ended" in types(ev)
    assert st["step"] == "control" and st["to_gain"] == ["kaleth-prime", "kaleth-veil"]
    rng = scripted(draw_index(st, "cultural", "mercenary-outfit#1"))
    st, ev = send(st, P1, "gain_control", rng, planet="kaleth-veil")
    assert first(ev, "planet_control_gained") == {"player": P1, "planet": "kaleth-veil",
                                                   "previous_controller": None, "exhausted": True}
    revealed = first(ev, "exploration_card_revealed")
    assert (revealed["deck"], revealed["card"]) == ("cultural", "mercenary-outfit#1")
    reject(st, P1, "gain_control", "73.comment-4", planet="kaleth-prime")
    rng = scripted(draw_index(st, "industrial", "industrial-relic-fragment#2"))
    st, ev = send(st, P1, "resolve_exploration", rng, option="place_ground_force")
    assert types(ev)[:4] == ["exploration_card_resolved", "units_placed", "card_discarded", "planet_control_gained"]
    assert first(ev, "units_placed")["planet"] == "kaleth-veil"
    assert first(ev, "card_discarded")["deck"] == "cultural"
    assert first(ev, "planet_control_gained")["planet"] == "kaleth-prime"
    assert first(ev, "exploration_card_revealed")["card"] == "industrial-relic-fragment#2"
    st, ev = send(st, P1, "resolve_exploration", option="take")
    assert first(ev, "relic_fragment_gained")["fragment_type"] == "industrial"
    assert GAME.view(st, P1)["players"][P1]["fragments"]["industrial"] == 1
    assert types(ev)[-2:] == ["turn_ended", "turn_started"]
    assert st["planets"]["kaleth-veil"]["ground_forces"] == {P1: 2}


def _sable_force(st):
    place(st, P1, "sable", ships=1, forces=2)
    return st


def test_s2_no_trait_planet_is_not_explored():
    """S2 (73.2b): gaining a vacant home planet or Mecatol Rex emits exploration_skipped and draws no card."""
    for system, planet in (("cinder", "cinder-prime"), ("mecatol", "mecatol-rex")):
        st = _sable_force(fresh())
        counts = {d: len(v["draw"]) for d, v in st["decks"].items()}
        st, _ = send(st, P1, "activate_system", system=system)
        if st["step"] == "movement":
            st, _ = send(st, P1, "move_ships", **{"from": "sable"}, ships=1, ground_forces=2)
        if st["step"] == "movement":
            st, _ = send(st, P1, "end_movement")
        st, _ = send(st, P1, "commit_ground_forces", planet=planet, count=1)
        if st["step"] == "invasion":
            st, ev = send(st, P1, "end_invasion")
        else:
            ev = []
        assert first(ev, "planet_control_gained")["planet"] == planet
        assert first(ev, "exploration_skipped") == {"player": P1, "planet": planet, "reason": "no_trait"}
        assert "exploration_card_revealed" not in types(ev)
        assert {d: len(v["draw"]) for d, v in st["decks"].items()} == counts


def test_s3_choosing_a_deck():
    """S3 (73.2c): a Cul + Ind planet waits for a deck choice; a deck matching no trait is rejected."""
    st = place(fresh(), P1, "kaleth", ships=1, forces=1)
    st, _ = send(st, P1, "activate_system", system="quorra")
    st, _ = send(st, P1, "move_ships", **{"from": "kaleth"}, ships=1, ground_forces=1)
    st, ev = send(st, P1, "commit_ground_forces", planet="quorra-prime", count=1)
    assert st["exploration"]["stage"] == "choose_deck"
    reject(st, P1, "choose_exploration_deck", "73.2c", deck="hazardous")
    st, ev = send(st, P1, "choose_exploration_deck", deck="industrial")
    assert types(ev)[:2] == ["exploration_deck_chosen", "exploration_card_revealed"]
    assert first(ev, "exploration_card_revealed")["deck"] == "industrial"


def test_s4_taking_a_controlled_planet_does_not_explore():
    """S4 (73.1, invasion.combat, control.attachments-stay): no exploration; dyson-sphere stays and counts for P2."""
    st = fresh()
    control(st, P1, "kaleth-veil", forces=1, attachments=["dyson-sphere#1"])
    place(st, P2, "kaleth", ships=2, forces=2)
    st["turn_player"] = P2
    st, ev = send(st, P2, "activate_system", system="kaleth")
    assert "movement_ended" in types(ev)
    st, ev = send(st, P2, "commit_ground_forces", planet="kaleth-veil", count=2)
    assert first(ev, "ground_combat_resolved") == {"planet": "kaleth-veil", "attacker": P2, "defender": P1,
                                                    "attacker_lost": 1, "defender_lost": 1}
    assert first(ev, "planet_control_gained")["previous_controller"] == P1
    assert not [t for t in types(ev) if t.startswith("exploration")]
    view = GAME.view(st, None)["planets"]["kaleth-veil"]
    assert view["attachments"] == ["dyson-sphere#1"] and view["controller"] == P2
    assert (view["resources"], view["influence"]) == (3, 3)


def _s5_state():
    st = fresh()
    st["players"][P1].update(trade_goods=0, commodities=0)
    st["players"][P1]["fragments"]["cultural"] = ["cultural-relic-fragment#1"]
    st["decks"]["cultural"]["draw"].remove("cultural-relic-fragment#1")
    control(st, P1, "kaleth-prime", forces=1, exhausted=True)
    st.update(step="control", active_system="kaleth", to_gain=[])
    return reveal(st, P1, "functioning-base#3", planet="kaleth-prime")


def test_s5_transaction_between_reveal_and_resolution():
    """S5 (73.comment-5, 73.comment-6, 73.9b, transaction.response, transaction.once-per-player)."""
    st = _s5_state()
    assert GAME.view(st, P2)["exploration"]["card"] == "functioning-base#3"
    assert GAME.view(st, None)["exploration"]["card"] == "functioning-base#3"
    options = [c["payload"] for c in GAME.legal_commands(st, P1) if c["type"] == "resolve_exploration"]
    assert options == [{"option": "gain_commodity"}]
    st, ev = send(st, P1, "propose_transaction", to=P2, give={"item": "cultural", "count": 1},
                  receive={"item": "trade_goods", "count": 1})
    assert types(ev) == ["transaction_proposed"] and GAME.active_players(st) == [P2]
    reject(st, P1, "resolve_exploration", "transaction.response", option="gain_commodity")
    st, ev = send(st, P2, "accept_transaction")
    assert types(ev) == ["transaction_accepted"]
    assert st["players"][P2]["fragments"]["cultural"] == ["cultural-relic-fragment#1"]
    options = [c["payload"] for c in GAME.legal_commands(st, P1) if c["type"] == "resolve_exploration"]
    assert {"option": "ready_pay_trade_good"} in options
    reject(st, P1, "propose_transaction", "transaction.once-per-player", to=P2, give=None,
           receive={"item": "trade_goods", "count": 1})
    st, ev = send(st, P1, "resolve_exploration", option="ready_pay_trade_good")
    assert types(ev)[1:4] == ["trade_goods_changed", "planet_readied", "card_discarded"]
    assert first(ev, "trade_goods_changed")["delta"] == -1


def test_s6_empty_deck_reshuffles_its_discard():
    """S6 (73.7a): the discard pile becomes the new deck when a card must be drawn from an empty deck."""
    st = fresh()
    pile = ["abandoned-warehouses#1", "local-fabricators#2", "functioning-base#1"]
    st["decks"]["industrial"] = {"draw": [], "discard": list(pile)}
    st, _ = send(st, P1, "activate_system", system="ysolde")
    st, _ = send(st, P1, "move_ships", **{"from": "aurel"}, ships=1, ground_forces=1)
    st, _ = send(st, P1, "end_movement")
    st, ev = send(st, P1, "commit_ground_forces", scripted(1), planet="ysolde-ii", count=1)
    assert first(ev, "exploration_deck_reshuffled") == {"deck": "industrial", "count": 3}
    assert first(ev, "exploration_card_revealed")["card"] == pile[1]
    assert st["decks"]["industrial"]["discard"] == []
    assert sorted(st["decks"]["industrial"]["draw"]) == sorted([pile[0], pile[2]])


def _s7_state(crown=True, det=True):
    st = fresh()
    if det:
        st["players"][P1]["technologies"] = ["dark-energy-tap"]
    if crown:
        st["players"][P1]["relics"] = [{"id": "the-crown-of-emphidia", "exhausted": False}]
        st["relic_deck"].remove("the-crown-of-emphidia")
    control(st, P1, "kaleth-veil")
    place(st, P1, "aurel", ships=1, forces=0)
    return st


def test_s7_dark_energy_tap_and_crown_in_chosen_order():
    """S7 (73.4, 73.5, 73.6, 73.2d, 73.3, tech.dark-energy-tap, after-action.end, flow.auto-advance)."""
    st = _s7_state()
    st, _ = send(st, P1, "activate_system", system="gloam")
    st, ev = send(st, P1, "move_ships", **{"from": "aurel"}, ships=1, ground_forces=0)
    assert "movement_ended" in types(ev) and st["step"] == "after_action" and st["det_due"]
    reject(st, P1, "end_turn", "tech.dark-energy-tap")
    rng = scripted(draw_index(st, "cultural", "paradise-world#1"))
    st, ev = send(st, P1, "use_crown_of_emphidia", rng, planet="kaleth-veil")
    assert types(ev)[0] == "relic_used" and first(ev, "exploration_card_revealed")["deck"] == "cultural"
    reject(st, P1, "explore_frontier", "73.2d")
    reject(st, P1, "use_crown_of_emphidia", "73.2d", planet="kaleth-veil")
    rng = scripted(draw_index(st, "frontier", "derelict-vessel#1"))
    st, ev = send(st, P1, "resolve_exploration", rng, option="attach")
    assert first(ev, "card_attached") == {"card": "paradise-world#1", "planet": "kaleth-veil"}
    assert first(ev, "exploration_card_revealed")["deck"] == "frontier"
    st, ev = send(st, P1, "resolve_exploration", option="place_ship")
    assert types(ev)[-4:] == ["card_discarded", "frontier_token_removed", "turn_ended", "turn_started"]
    assert first(ev, "frontier_token_removed") == {"system": "gloam"}
    assert st["systems"]["gloam"]["ships"][P1] == 2


def test_s7_variant_frontier_first_then_end_turn():
    """S7 variant (73.2d): after the frontier card is resolved, the Crown stays usable and end_turn is allowed."""
    st = _s7_state()
    st, _ = send(st, P1, "activate_system", system="gloam")
    st, _ = send(st, P1, "move_ships", **{"from": "aurel"}, ships=1, ground_forces=0)
    rng = scripted(draw_index(st, "frontier", "lost-crew#1"))
    st, ev = send(st, P1, "explore_frontier", rng)
    st, ev = send(st, P1, "resolve_exploration", option="gain", system=None)
    assert types(ev)[-1] == "frontier_token_removed" and st["step"] == "after_action"
    assert {"use_crown_of_emphidia", "end_turn"} <= legal_types(st, P1)
    st, ev = send(st, P1, "end_turn")
    assert types(ev)[0] == "turn_ended"


def _frontier_reveal(card: str, system="gloam"):
    """P1 with Dark Energy Tap moves into a frontier system; the drawn frontier card is `card`."""
    st = _s7_state(crown=False)
    if system == "rift-north":
        place(st, P1, "aurel")
        place(st, P1, "quorra", ships=1)
        src = "quorra"
    else:
        src = "aurel"
    st, _ = send(st, P1, "activate_system", system=system)
    st, ev = send(st, P1, "move_ships", scripted(draw_index(st, "frontier", card)), **{"from": src}, ships=1,
                  ground_forces=0)
    assert first(ev, "exploration_card_revealed")["card"] == card
    return st


def test_s8_cards_that_are_not_discarded():
    """S8 (73.comment-2, 73.comment-3, 73.8): purged, kept in play, attached."""
    st = _frontier_reveal("gamma-relay#1")
    st, ev = send(st, P1, "resolve_exploration", option="place")
    assert first(ev, "wormhole_token_placed") == {"system": "gloam", "token": "gamma"}
    assert first(ev, "card_purged") == {"card": "gamma-relay#1"}
    assert "gamma-relay#1" not in st["decks"]["frontier"]["discard"] and "gamma-relay#1" in st["purged"]
    st = _frontier_reveal("ion-storm#1")
    st, ev = send(st, P1, "resolve_exploration", option="place")
    assert first(ev, "card_kept_in_play") == {"card": "ion-storm#1", "area": "common"}
    assert st["common_area"] == ["ion-storm#1"]
    st = _frontier_reveal("enigmatic-device#2")
    st, ev = send(st, P1, "resolve_exploration", option="keep")
    assert first(ev, "card_kept_in_play") == {"card": "enigmatic-device#2", "area": P1}
    assert st["players"][P1]["devices"] == ["enigmatic-device#2"]
    st = reveal(control(fresh(), P1, "sable-prime", forces=1), P1, "rich-world#1", planet="sable-prime")
    st, ev = send(st, P1, "resolve_exploration", option="attach")
    assert first(ev, "card_attached") == {"card": "rich-world#1", "planet": "sable-prime"}
    assert GAME.view(st, P2)["planets"]["sable-prime"]["resources"] == 4


def test_s9_mirage_chain():
    """S9 (73.1, 73.6, flow.exploration-overlay, control.exhausted): Mirage is placed, gained ready, purged, the
    token removed, and only then is the planet Mirage explored from the cultural deck."""
    st = _frontier_reveal("mirage#1", system="rift-north")
    st, ev = send(st, P1, "resolve_exploration", option="place")
    order = types(ev)
    assert order[:6] == ["exploration_card_resolved", "planet_added", "planet_control_gained", "card_purged",
                         "frontier_token_removed", "exploration_started"]
    assert first(ev, "planet_added") == {"planet": "mirage", "system": "rift-north"}
    assert first(ev, "planet_control_gained")["exhausted"] is False
    revealed = first(ev, "exploration_card_revealed")
    assert (revealed["deck"], revealed["planet"]) == ("cultural", "mirage")
    assert order.index("exploration_card_revealed") > order.index("frontier_token_removed")


def _fragments(st, player, **counts):
    for kind, n in counts.items():
        cards = [c for c in st["decks"]["frontier" if kind == "unknown" else kind]["draw"]
                 if c.startswith(f"{kind}-relic-fragment#")][:n]
        st["players"][player]["fragments"][kind] = cards
    return st


def test_s10_relic_fragments():
    """S10 (73.9a, relics.unknown, relics.purge-three)."""
    st = _fragments(fresh(), P1, cultural=2, unknown=1)
    st, ev = send(st, P1, "purge_fragments", scripted(relic_index(st, "nano-forge")), fragment_type="cultural",
                  unknown=1)
    assert types(ev)[:3] == ["relic_fragments_purged", "relic_drawn", "turn_ended"]
    assert first(ev, "relic_fragments_purged")["typed"] == 2 and first(ev, "relic_drawn")["relic"] == "nano-forge"
    assert st["players"][P1]["fragments"] == {"cultural": [], "industrial": [], "hazardous": [], "unknown": []}
    st = _fragments(fresh(), P1, unknown=3)
    reject(st, P1, "purge_fragments", "relics.unknown", fragment_type="hazardous", unknown=3)
    st = _fragments(fresh(), P1, hazardous=3)
    st["relic_deck"] = []
    st, ev = send(st, P1, "purge_fragments", fragment_type="hazardous", unknown=0)
    assert first(ev, "relic_deck_was_empty") == {"player": P1}
    assert st["players"][P1]["fragments"]["hazardous"] == [] and len(st["purged"]) == 3


def test_s11_no_dark_energy_tap():
    """S11 (73.4): without Dark Energy Tap the token cannot be explored; end_turn leaves it there."""
    st = _s7_state(crown=True, det=False)
    place(st, P1, "hollow", ships=2)
    st, ev = send(st, P1, "activate_system", system="hollow")
    assert st["step"] == "after_action"
    reject(st, P1, "explore_frontier", "73.4")
    st, ev = send(st, P1, "end_turn")
    assert types(ev)[0] == "turn_ended" and st["systems"]["hollow"]["frontier_token"]
    st = _s7_state(crown=False, det=False)
    place(st, P1, "hollow", ships=2)
    st, ev = send(st, P1, "activate_system", system="hollow")
    assert "turn_ended" in types(ev) and st["turn_player"] == P2
