"""One test (or more) per Uchronia rule id of the spec §5/§6 that the scenarios do not already pin down."""
from __future__ import annotations

import pytest

from domain.engine import RuleViolation, ScriptedRng, command
from domain.games.uchronia import GAME
from domain.games.uchronia.data import BUILDING_IDS, RESOURCE_DECK
from domain.games.uchronia.state import operation_limit, scores, vp, winners
from tests.unit.uchronia.uchronia_kit import first, fold, given, nonzero, rejected, send, types

THREE = ["karl", "cedric", "alice"]


def _setup_three():
    """Setup for 3 players with cedric drawn first and scripted deck orders."""
    deck = sorted(RESOURCE_DECK)  # blue..., brown..., grey..., red..., yellow...
    buildings = list(reversed(BUILDING_IDS))
    rng = ScriptedRng(ints=[1], shuffles=[deck, buildings], strict=True)
    options = GAME.options_schema.load({})
    events = GAME.setup(THREE, options, rng)
    return fold(GAME.initial_state(THREE, options), events), events, deck, buildings


def test_setup_players_range():
    """setup.players: 2-5 players."""
    options = GAME.options_schema.load({})
    for players in (["solo"], [f"p{i}" for i in range(6)]):
        with pytest.raises(RuleViolation) as err:
            GAME.setup(players, options, ScriptedRng())
        assert err.value.rule_id == "setup.players"
    assert (GAME.min_players, GAME.max_players) == (2, 5)


def test_setup_decks_first_player_and_rotation():
    """setup.decks: both decks are shuffled and the first player drawn; results are stored in events."""
    st, events, deck, buildings = _setup_three()
    assert types(events)[:3] == ["match_started", "decks_shuffled", "great_works_revealed"]
    started = first(events, "match_started")
    assert started["first_player"] == "cedric" and started["turn_order"] == ["cedric", "alice", "karl"]
    assert started["vp_target"] == 11 and started["max_rounds"] == 30
    assert first(events, "decks_shuffled") == {"resource_order": deck, "building_order": buildings}


def test_setup_great_works():
    """setup.great-works: the top 5 buildings are revealed; the deck keeps the rest in order."""
    st, events, _, buildings = _setup_three()
    assert st["great_works"] == buildings[:5] and st["building_deck"] == buildings[5:]


def test_setup_monopolies_unowned():
    """setup.monopolies: all 5 Monopolies start in the supply."""
    st, *_ = _setup_three()
    assert set(st["monopolies"].values()) == {None} and len(st["monopolies"]) == 5


def test_setup_deal_six_each_in_turn_order():
    """setup.deal: 6 cards each from the top of the pile, in turn order."""
    st, events, deck, _ = _setup_three()
    dealt = [e["data"] for e in events if e["type"] == "cards_dealt"]
    assert [d["player"] for d in dealt] == ["cedric", "alice", "karl"]
    assert dealt[0]["colors"] == deck[:6] and dealt[2]["colors"] == deck[12:18]
    assert len(st["draw_pile"]) == 80 - 18 and st["draw_pile"] == deck[18:]


def test_setup_forum_discard_once_each_then_round_one():
    """setup.forum-discard: everyone discards exactly 1 card to the Forum, in any order, once."""
    st, *_ = _setup_three()
    assert GAME.active_players(st) == ["cedric", "alice", "karl"]
    hand = st["hands"]["karl"]
    missing = next(c for c in hand if hand[c] == 0)
    assert rejected(st, "karl", "discard_to_forum", color=missing) == "setup.forum-discard"
    held = next(c for c in hand if hand[c] > 0)
    st, ev = send(st, "karl", "discard_to_forum", color=held)
    assert types(ev) == ["card_discarded_to_forum"] and st["forum"][held] == 1
    assert rejected(st, "karl", "discard_to_forum", color=held) == "turn.not-active"
    for p in ("alice", "cedric"):
        st, ev = send(st, p, "discard_to_forum", color=GAME.legal_commands(st, p)[0]["payload"]["color"])
    assert types(ev)[-1] == "turn_started" and first(ev, "turn_started") == {"player": "cedric", "round": 1}
    assert GAME.active_players(st) == ["cedric"]


def test_cards_three_uses():
    """cards.three-uses: the same blue card is an order (hand), a resource (Stock), an operation."""
    st = given(hands={"karl": {"blue": 2, "grey": 1}})
    st, _ = send(st, "karl", "issue_order", order="expeditions", colors=["grey"])
    st, _ = send(st, "karl", "stock_from_hand", color="blue")
    assert st["stock"]["karl"]["blue"] == 1
    st = fold(st, [{"type": "turn_started", "data": {"player": "karl", "round": 2}}])
    st, _ = send(st, "karl", "issue_order", order="trade", colors=["blue"])
    st, _ = send(st, "karl", "trade", color="blue")
    assert st["operations"]["karl"]["blue"] == 1


def test_cards_by_colour_unknown_colour_rejected():
    """cards.by-colour: commands name colours; an unknown colour is rejected."""
    st = given(hands={"karl": {"blue": 1}})
    assert rejected(st, "karl", "issue_order", order="trade", colors=["purple"]) == "cards.by-colour"


def test_residence_contents_until_next_turn():
    """residence.contents: the played cards stay in the Residence through other players' turns."""
    st = given(hands={"karl": {"yellow": 1}})
    st, _ = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    assert st["current"] == "cedric" and st["residence"]["karl"]["colors"] == ["yellow"]


def test_stock_unlimited():
    """stock.unlimited: a Stock of 40 cards still takes more."""
    st = given(hands={"karl": {"yellow": 1}}, stock={"karl": {"red": 40}}, forum={"blue": 1})
    st, _ = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    st, _ = send(st, "karl", "take_from_forum", color="blue")
    assert st["stock"]["karl"] == {"yellow": 0, "grey": 0, "red": 40, "blue": 1, "brown": 0}


def test_zones_discard_is_public_and_kept():
    """zones.discard: the Forum card discarded to start a building goes to the public discard pile."""
    st = given(hands={"karl": {"brown": 1}}, forum={"red": 1}, great_works=["barracks_1"])
    st, _ = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    st, _ = send(st, "karl", "start_building", building_id="barracks_1", discard="red")
    assert nonzero(st["discard"]) == {"red": 1} and GAME.view(st, None)["discard"]["red"] == 1


def test_turn_order_and_rounds():
    """turn.order: turns follow the turn order; a new round starts with the first player."""
    st = given(hands={"karl": {"yellow": 1}, "cedric": {"yellow": 1}}, round_no=3)
    st, ev = send(st, "karl", "plot", copy_from=None)
    assert first(ev, "turn_started") == {"player": "cedric", "round": 3}
    st, ev = send(st, "cedric", "plot", copy_from=None)
    assert first(ev, "turn_started") == {"player": "karl", "round": 4}


def test_turn_clear_residence_at_start_of_own_turn():
    """turn.clear-residence: at the start of your turn your Residence cards move to the Forum."""
    st = given(hands={"karl": {"yellow": 1}}, residence={"cedric": (["red", "red"], "trade")})
    st, ev = send(st, "karl", "plot", copy_from=None)
    assert first(ev, "residence_cleared") == {"player": "cedric", "colors": ["red", "red"]}
    assert st["forum"]["red"] == 2 and st["residence"]["cedric"] == {"colors": [], "order": None}


def test_turn_command_or_plot_never_both():
    """turn.command-or-plot: after issuing an order the player cannot also plot (turn.wrong-step)."""
    st = given(hands={"karl": {"yellow": 1}}, forum={"blue": 2}, operations={"karl": {"yellow": 1}})
    st, _ = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    assert rejected(st, "karl", "plot", copy_from=None) == "turn.wrong-step"


def test_turn_wrong_step_malformed_payload_and_unknown_type():
    """turn.wrong-step: a malformed payload or an unknown command type is rejected."""
    st = given(hands={"karl": {"yellow": 1}})
    assert rejected(st, "karl", "plot", copy_from=None, extra=1) == "turn.wrong-step"
    assert rejected(st, "karl", "issue_order", order="production") == "turn.wrong-step"
    assert rejected(st, "karl", "fly_away") == "turn.wrong-step"


def test_turn_not_active_for_strangers():
    """turn.not-active: a non-player or waiting player cannot act."""
    st = given(hands={"karl": {"yellow": 1}})
    assert rejected(st, "mallory", "plot", copy_from=None) == "turn.not-active"
    assert GAME.legal_commands(st, "cedric") == []


def test_command_single_issues_its_colour_order():
    """command.single: one card issues the order of its colour."""
    st = given(hands={"karl": {"grey": 1}})
    assert command("issue_order", order="expeditions", colors=["grey"]) in GAME.legal_commands(st, "karl")
    assert rejected(st, "karl", "issue_order", order="expeditions", colors=[]) == "command.single"


def test_command_joker_any_order():
    """command.joker: 2 cards of one colour issue any order; 3 cards are no joker."""
    st = given(hands={"karl": {"grey": 3}})
    legal = GAME.legal_commands(st, "karl")
    for order in ("production", "expeditions", "draconias", "trade", "construction"):
        assert command("issue_order", order=order, colors=["grey", "grey"]) in legal
    assert rejected(st, "karl", "issue_order", order="trade", colors=["grey"] * 3) == "command.joker"


def test_command_cards_in_hand():
    """command.cards-in-hand: the played cards must be in hand."""
    st = given(hands={"karl": {"grey": 1}})
    assert rejected(st, "karl", "issue_order", order="trade", colors=["blue"]) == "command.cards-in-hand"


def test_command_to_residence():
    """command.to-residence: the played cards and the issued order go to the Residence."""
    st = given(hands={"karl": {"grey": 2}}, stock={"karl": {"red": 1}})
    st, _ = send(st, "karl", "issue_order", order="trade", colors=["grey", "grey"])
    assert st["residence"]["karl"] == {"colors": ["grey", "grey"], "order": "trade"}
    assert st["hands"]["karl"]["grey"] == 0


def test_orders_five_types():
    """orders.five-types: only the five orders exist."""
    st = given(hands={"karl": {"grey": 2}})
    assert rejected(st, "karl", "issue_order", order="banking", colors=["grey", "grey"]) == "orders.five-types"


@pytest.mark.parametrize("building,order,color", [
    ("clay_pits_1", "production", "yellow"), ("harbour_1", "expeditions", "grey"),
    ("barracks_1", "draconias", "red"), ("market_1", "trade", "blue"), ("sawmill_1", "construction", "brown")])
def test_orders_building_effects_add_repetitions(building, order, color):
    """orders.building-effects: a completed building of that order adds 1 repetition (also to copies)."""
    st = given(hands={"karl": {color: 1, "yellow": 1}}, completed={"karl": [building]},
               forum={"yellow": 3}, stock={"karl": {"yellow": 3}})
    _, ev = send(st, "karl", "issue_order", order=order, colors=[color])
    assert first(ev, "order_issued")["repetitions"] == 2


def test_operations_boost_commanded_but_not_copied():
    """operations.boost and orders.repetitions: operations boost a Command; a copy runs once."""
    st = given(hands={"karl": {"yellow": 1}}, operations={"karl": {"yellow": 2}},
               residence={"cedric": (["yellow"], "production")}, forum={"blue": 5})
    _, ev = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    assert first(ev, "order_issued")["repetitions"] == 3
    _, ev = send(st, "karl", "plot", copy_from="cedric")
    assert first(ev, "plotted")["repetitions"] == 1


def test_orders_optional_steps_order_without_first_step_ends_itself():
    """orders.optional-steps: with no legal first step the order ends at once, all R unused."""
    st = given(hands={"karl": {"yellow": 1}}, operations={"karl": {"yellow": 1}})
    _, ev = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    assert types(ev)[:3] == ["order_issued", "order_finished", "turn_ended"]
    assert first(ev, "order_finished")["unused"] == 2
    st = given(hands={"karl": {"red": 1}})
    _, ev = send(st, "karl", "issue_order", order="draconias", colors=["red"])
    assert first(ev, "order_finished") == {"player": "karl", "order": "draconias", "unused": 1}


def test_orders_optional_steps_draconias_reveal_is_mandatory():
    """orders.optional-steps: end_order before the Draconias reveal is rejected."""
    st = given(hands={"karl": {"red": 1, "blue": 1}})
    st, _ = send(st, "karl", "issue_order", order="draconias", colors=["red"])
    assert rejected(st, "karl", "end_order") == "orders.optional-steps"
    assert GAME.legal_commands(st, "karl") == [command("reveal", colors=["blue"])]


def test_draconias_targets_only_others_with_residence_in_turn_order():
    """draconias.targets / draconias.demand: affected players answer in turn order left of the player;
    those without a revealed colour give nothing (demand_unmet)."""
    st = given(THREE, current="cedric", hands={"cedric": {"red": 1, "blue": 1}, "karl": {"blue": 2},
                                               "alice": {"grey": 1}},
               residence={"karl": (["yellow"], "production"), "alice": (["grey"], "expeditions")})
    st, _ = send(st, "cedric", "issue_order", order="draconias", colors=["red"])
    _, ev = send(st, "cedric", "reveal", colors=["blue"])
    assert types(ev)[:4] == ["cards_revealed", "demand_unmet", "card_given", "forum_cards_seized"]
    assert first(ev, "demand_unmet") == {"player": "alice"}
    assert first(ev, "card_given") == {"from": "karl", "to": "cedric", "color": "blue"}


def test_draconias_return_revealed_cards_stay_in_hand():
    """draconias.return: revealed cards are back in (never left) the player's hand."""
    st = given(hands={"karl": {"red": 1, "blue": 2}})
    st, _ = send(st, "karl", "issue_order", order="draconias", colors=["red"])
    st, _ = send(st, "karl", "reveal", colors=["blue"])
    assert st["hands"]["karl"]["blue"] == 2


def test_draconias_forum_takes_one_per_revealed_card():
    """draconias.forum: 1 Forum card per revealed card, of its colour, as far as available."""
    st = given(hands={"karl": {"red": 1, "blue": 2, "grey": 1}}, operations={"karl": {"red": 2}},
               forum={"blue": 1, "grey": 3})
    st, _ = send(st, "karl", "issue_order", order="draconias", colors=["red"])
    st, ev = send(st, "karl", "reveal", colors=["grey", "blue", "blue"])
    assert first(ev, "forum_cards_seized")["colors"] == ["grey", "blue"]
    assert first(ev, "order_finished")["unused"] == 0


def _raid_state(cedric_sites):
    return given(hands={"karl": {"red": 1, "blue": 1}}, completed={"karl": ["raiders_camp_1"]},
                 under_construction={"cedric": cedric_sites})


def test_draconias_raid_after_seizure():
    """draconias.raid: Raiders' Camp offers a raid on an opponent's supplied building, even with an
    empty Residence; an unsupplied building cannot be raided."""
    st, _ = send(_raid_state({"market_1": 1, "sawmill_1": 0}), "karl", "issue_order", order="draconias",
                 colors=["red"])
    st, ev = send(st, "karl", "reveal", colors=["blue"])
    assert types(ev) == ["cards_revealed", "forum_cards_seized"]
    assert GAME.legal_commands(st, "karl") == [command("raid", building_id="market_1"), command("end_order")]
    assert rejected(st, "karl", "raid", building_id="sawmill_1") == "draconias.raid"
    st, ev = send(st, "karl", "raid", building_id="market_1")
    assert first(ev, "resource_raided") == {"player": "karl", "from_player": "cedric", "building_id": "market_1",
                                            "color": "blue"}
    assert types(ev)[1] == "order_finished"
    assert st["under_construction"]["cedric"]["market_1"] == 0 and st["stock"]["karl"]["blue"] == 1


def test_draconias_raid_not_offered_without_target():
    """draconias.raid: with no raidable building the order ends after the seizure."""
    st, _ = send(_raid_state({"market_1": 0}), "karl", "issue_order", order="draconias", colors=["red"])
    _, ev = send(st, "karl", "reveal", colors=["blue"])
    assert types(ev)[:3] == ["cards_revealed", "forum_cards_seized", "order_finished"]


def test_trade_stock_has_color():
    """trade.stock-has-color: the traded colour must be in your Stock."""
    st = given(hands={"karl": {"blue": 1}}, stock={"karl": {"red": 1}})
    st, _ = send(st, "karl", "issue_order", order="trade", colors=["blue"])
    assert rejected(st, "karl", "trade", color="grey") == "trade.stock-has-color"


def test_operations_limit_guild_hall():
    """operations.limit: 2 + completed buildings, +1 with the Guild Hall."""
    st = given(completed={"karl": ["guild_hall_1", "market_1"]})
    assert operation_limit(st, "karl") == 5


def test_monopoly_take_from_supply():
    """monopoly.take: strictly more operations of a colour than everyone takes it from the supply."""
    st = given(hands={"karl": {"blue": 1}}, stock={"karl": {"grey": 1}})
    _, ev = send(st, "karl", "issue_order", order="trade", colors=["blue"])
    _, ev = send(fold(st, ev[:1]), "karl", "trade", color="grey")
    assert first(ev, "monopoly_taken") == {"player": "karl", "color": "grey", "from_player": None}


def test_monopoly_build_bonus_declined_and_holder_may_be_builder():
    """monopoly.build-bonus: the holder (the builder too) may decline; no bonus when the Forum lacks it."""
    st = given(hands={"karl": {"brown": 1}}, stock={"karl": {"red": 1}}, forum={"red": 1},
               under_construction={"karl": {"barracks_1": 1}}, monopolies={"red": "karl"})
    st, _ = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    st, ev = send(st, "karl", "supply_building", building_id="barracks_1")
    assert GAME.active_players(st) == ["karl"] and st["bonus"] == {"player": "karl", "color": "red"}
    assert GAME.legal_commands(st, "karl") == [command("monopoly_bonus", take=True),
                                               command("monopoly_bonus", take=False)]
    st, ev = send(st, "karl", "monopoly_bonus", take=False)
    assert first(ev, "monopoly_bonus_resolved")["taken"] is False and st["forum"]["red"] == 1
    st = given(hands={"karl": {"brown": 1}}, stock={"karl": {"red": 1}},
               under_construction={"karl": {"barracks_1": 1}}, monopolies={"red": "cedric"})
    st, _ = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    st, ev = send(st, "karl", "supply_building", building_id="barracks_1")
    assert "monopoly_bonus_resolved" not in types(ev) and st["bonus"] is None


def test_construction_choose_and_operations():
    """construction.choose / construction.operations: each repetition starts or supplies; R = 1 + ops."""
    st = given(hands={"karl": {"brown": 1}}, operations={"karl": {"brown": 2}}, stock={"karl": {"red": 1}},
               under_construction={"karl": {"barracks_1": 0}}, forum={"grey": 1}, great_works=["harbour_1"])
    st, ev = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    assert first(ev, "order_issued")["repetitions"] == 3
    assert GAME.legal_commands(st, "karl") == [command("start_building", building_id="harbour_1", discard="grey"),
                                               command("supply_building", building_id="barracks_1")]


def test_construction_start_architects_lodge_any_colour():
    """construction.start: the Architects' Lodge lets the Forum discard be of any colour."""
    st = given(hands={"karl": {"brown": 1}}, completed={"karl": ["architects_lodge_1"]}, forum={"yellow": 1},
               great_works=["harbour_1"])
    st, ev = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    assert GAME.legal_commands(st, "karl") == [command("start_building", building_id="harbour_1", discard="yellow")]
    st, ev = send(st, "karl", "start_building", building_id="harbour_1", discard="yellow")
    assert first(ev, "building_started") == {"player": "karl", "building_id": "harbour_1", "discarded_color": "yellow"}


def test_construction_supply_needs_colour():
    """construction.supply: the resource must be of the building's colour and in your Stock."""
    st = given(hands={"karl": {"brown": 1}}, stock={"karl": {"red": 1}},
               under_construction={"karl": {"market_1": 0, "barracks_1": 0}})
    st, _ = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    assert rejected(st, "karl", "supply_building", building_id="market_1") == "construction.supply"
    assert rejected(st, "karl", "supply_building", building_id="sawmill_2") == "construction.supply"


def test_buildings_no_overfill():
    """buildings.no-overfill: a completed building takes no more resources."""
    st = given(hands={"karl": {"brown": 1}}, stock={"karl": {"red": 2}}, completed={"karl": ["barracks_1"]},
               under_construction={"karl": {"raiders_camp_1": 0}})
    st, _ = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    assert rejected(st, "karl", "supply_building", building_id="barracks_1") == "buildings.no-overfill"


def test_plot_copy_only_another_player():
    """plot.copy: the copied Residence must belong to another player of the match."""
    st = given(hands={"karl": {"yellow": 1}}, operations={"karl": {"yellow": 1}})
    assert rejected(st, "karl", "plot", copy_from="karl") == "plot.copy"
    assert rejected(st, "karl", "plot", copy_from="nobody") == "plot.copy"
    assert rejected(st, "karl", "plot", copy_from="cedric") == "plot.copy-needs-operation"


def test_plot_lighthouse_copies_without_operation_and_granary_draws_more():
    """plot.copy-needs-operation (Lighthouse waiver) and plot.draw (Granary +1)."""
    st = given(hands={"karl": {"yellow": 1}}, completed={"karl": ["lighthouse_1", "granary_1"]},
               residence={"cedric": (["grey"], "expeditions")}, draw_pile=["red"] * 10)
    assert command("plot", copy_from="cedric") in GAME.legal_commands(st, "karl")
    st, ev = send(st, "karl", "plot", copy_from="cedric")
    _, ev = send(st, "karl", "stock_from_hand", color="yellow")
    assert first(ev, "cards_drawn")["count"] == 6


def test_scoring_vp():
    """scoring.vp and monopoly.vp: building costs plus 1 per operation of each held Monopoly colour."""
    st = given(completed={"karl": ["granary_1", "market_1"]}, operations={"karl": {"blue": 2, "red": 1}},
               monopolies={"blue": "karl", "red": "cedric"})
    assert vp(st, "karl") == 5 + 2


def test_end_draw_pile_triggers_and_round_finishes():
    """end.draw-pile: a draw that empties the pile triggers the end; the round is finished."""
    st = given(hands={"karl": {"yellow": 1}}, draw_pile=["red", "blue"])
    st, ev = send(st, "karl", "plot", copy_from=None)
    assert first(ev, "cards_drawn")["count"] == 2
    assert first(ev, "end_triggered") == {"reason": "draw_pile_empty", "player": "karl"}
    st, ev = send(st, "cedric", "plot", copy_from=None)
    assert first(ev, "cards_drawn")["count"] == 0
    assert first(ev, "match_finished")["reason"] == "draw_pile_empty"


def test_end_max_rounds():
    """end.max-rounds: the match finishes after the last turn of round max_rounds."""
    st = given(current="cedric", round_no=5, max_rounds=5, hands={"cedric": {"grey": 1}})
    _, ev = send(st, "cedric", "plot", copy_from=None)
    assert first(ev, "match_finished")["reason"] == "max_rounds"


def test_end_vp_target_stays_triggered():
    """end.vp-target: the trigger is recorded once and survives a later VP drop."""
    st = given(hands={"karl": {"blue": 1}}, operations={"karl": {"red": 1}, "cedric": {"red": 1}},
               stock={"karl": {"red": 1}}, monopolies={"red": "cedric"}, vp_target=1)
    st = fold(st, [{"type": "end_triggered", "data": {"reason": "vp_target", "player": "cedric"}}])
    st, ev = send(st, "karl", "issue_order", order="trade", colors=["blue"])
    st, ev = send(st, "karl", "trade", color="red")
    assert "end_triggered" not in types(ev) and st["end_triggered"]["player"] == "cedric"


def test_end_winner_tiebreaks():
    """end.winner: most VP, then most completed buildings, then most operations; else a shared win."""
    table = {"a": {"vp": 5, "buildings": 2, "operations": 1}, "b": {"vp": 5, "buildings": 2, "operations": 3},
             "c": {"vp": 5, "buildings": 1, "operations": 9}, "d": {"vp": 4, "buildings": 5, "operations": 9}}
    assert winners(table, ["a", "b", "c", "d"]) == ["b"]
    table["a"]["operations"] = 3
    assert winners(table, ["a", "b", "c", "d"]) == ["a", "b"]
    st = given(completed={"karl": ["market_1"]})
    assert scores(st)["karl"] == {"vp": 2, "buildings": 1, "operations": 0}
