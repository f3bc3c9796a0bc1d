"""The acceptance scenarios S1-S9 of the Uchronia spec (§9), given/when/then at the domain level."""
from __future__ import annotations

from domain.engine import command
from domain.games.uchronia import GAME
from domain.games.uchronia.state import operation_limit, vp
from tests.unit.uchronia.uchronia_kit import first, fold, given, nonzero, rejected, send, types


def test_s1_production_seed_example():
    """S1: production.effect, production.operations, production.forum-has-color, orders.optional-steps."""
    st = given(hands={"karl": {"yellow": 2, "red": 1}}, operations={"karl": {"yellow": 1}},
               forum={"blue": 2, "brown": 1})
    st, ev = send(st, "karl", "issue_order", order="production", colors=["yellow"])
    assert first(ev, "order_issued")["repetitions"] == 2
    assert st["residence"]["karl"] == {"colors": ["yellow"], "order": "production"}
    assert rejected(st, "karl", "end_order") == "orders.optional-steps"

    st, ev = send(st, "karl", "take_from_forum", color="blue")
    assert first(ev, "card_taken_from_forum") == {"player": "karl", "color": "blue"}
    assert nonzero(st["stock"]["karl"]) == {"blue": 1}
    assert GAME.legal_commands(st, "karl") == [command("take_from_forum", color="blue"),
                                               command("take_from_forum", color="brown"), command("end_order")]
    assert rejected(st, "karl", "take_from_forum", color="red") == "production.forum-has-color"

    st, ev = send(st, "karl", "take_from_forum", color="brown")
    assert types(ev) == ["card_taken_from_forum", "order_finished", "turn_ended", "turn_started"]
    assert first(ev, "order_finished")["unused"] == 0
    assert first(ev, "turn_ended") == {"player": "karl"}
    assert first(ev, "turn_started")["player"] == "cedric"
    assert nonzero(st["forum"]) == {"blue": 1}
    assert nonzero(st["stock"]["karl"]) == {"blue": 1, "brown": 1}


def _s2():
    st = given(hands={"karl": {"grey": 1, "red": 2}}, operations={"karl": {"grey": 1}})
    st, ev = send(st, "karl", "issue_order", order="expeditions", colors=["grey"])
    assert first(ev, "order_issued")["repetitions"] == 2
    st, ev = send(st, "karl", "stock_from_hand", color="red")
    assert types(ev) == ["card_stocked_from_hand"]
    assert nonzero(st["stock"]["karl"]) == {"red": 1} and nonzero(st["hands"]["karl"]) == {"red": 1}
    return st


def test_s2_expeditions_seed_example():
    """S2: expeditions.effect, expeditions.operations, expeditions.hand-has-color."""
    st = _s2()
    assert rejected(st, "karl", "stock_from_hand", color="yellow") == "expeditions.hand-has-color"
    st, ev = send(st, "karl", "stock_from_hand", color="red")
    assert nonzero(st["stock"]["karl"]) == {"red": 2}
    assert first(ev, "order_finished")["unused"] == 0


def test_s2_variant_end_order_gives_up_the_bonus():
    """S2 variant: end_order after the first step leaves 1 repetition unused (orders.optional-steps)."""
    st, ev = send(_s2(), "karl", "end_order")
    assert types(ev)[0] == "order_finished" and first(ev, "order_finished")["unused"] == 1


def _s3(cedric_hand=None, karl_hand=None):
    return given(("karl", "cedric", "alice"),
                 hands={"karl": karl_hand or {"yellow": 1, "red": 1, "blue": 2},
                        "cedric": cedric_hand or {"yellow": 1, "blue": 1, "brown": 1},
                        "alice": {"yellow": 2}},
                 operations={"karl": {"red": 2}}, monopolies={"red": "karl"},
                 residence={"cedric": (["grey"], "expeditions")}, forum={"grey": 1, "blue": 3})


def test_s3_draconias_seed_example():
    """S3: draconias.reveal, draconias.operations, draconias.targets, draconias.victim-choice,
    draconias.demand, draconias.forum, draconias.return."""
    st, ev = send(_s3(), "karl", "issue_order", order="draconias", colors=["red"])
    assert first(ev, "order_issued")["repetitions"] == 3
    assert nonzero(st["hands"]["karl"]) == {"yellow": 1, "blue": 2}
    assert rejected(st, "karl", "reveal", colors=["grey"]) == "draconias.reveal"

    st, ev = send(st, "karl", "reveal", colors=["yellow", "blue", "blue"])
    assert types(ev) == ["cards_revealed"]
    assert st["order"]["victims"] == ["cedric"], "alice's Residence is empty"
    assert GAME.active_players(st) == ["cedric"]
    assert rejected(st, "cedric", "give_card", color="brown") == "draconias.victim-choice"
    assert rejected(st, "alice", "give_card", color="yellow") == "turn.not-active"

    after, ev = send(st, "cedric", "give_card", color="yellow")
    assert types(ev)[:3] == ["card_given", "forum_cards_seized", "order_finished"]
    assert first(ev, "card_given") == {"from": "cedric", "to": "karl", "color": "yellow"}
    assert first(ev, "forum_cards_seized")["colors"] == ["blue", "blue"]
    assert types(ev)[3:] == ["turn_ended", "turn_started", "residence_cleared"]
    assert first(ev, "turn_started")["player"] == "cedric"
    assert nonzero(after["stock"]["karl"]) == {"yellow": 1, "blue": 2}
    assert nonzero(after["hands"]["karl"]) == {"yellow": 1, "blue": 2}
    assert nonzero(after["hands"]["cedric"]) == {"blue": 1, "brown": 1}
    # The spec's Forum {grey 1, blue 1} is the Forum when the order finishes; cedric's turn then starts
    # and his Residence (grey) joins it (turn.clear-residence).
    at_order_end = send(st, "cedric", "give_card", color="yellow")[1][:3]
    assert nonzero(fold(st, at_order_end)["forum"]) == {"grey": 1, "blue": 1}
    assert nonzero(after["forum"]) == {"grey": 2, "blue": 1}


def test_s3_step3_reveal_more_than_r_is_rejected():
    """S3 step 3: with a larger hand, revealing 4 cards exceeds R = 3 (draconias.operations)."""
    st, _ = send(_s3(karl_hand={"yellow": 2, "red": 1, "blue": 2}), "karl", "issue_order",
                 order="draconias", colors=["red"])
    assert rejected(st, "karl", "reveal", colors=["yellow", "yellow", "blue", "blue"]) == "draconias.operations"


def test_s3_variant_single_eligible_colour_is_given_automatically():
    """S3 variant: cedric holds only blue among the revealed colours, so it is given with no command."""
    st, _ = send(_s3(cedric_hand={"blue": 1, "brown": 1}), "karl", "issue_order", order="draconias", colors=["red"])
    st, ev = send(st, "karl", "reveal", colors=["yellow", "blue", "blue"])
    assert types(ev)[:3] == ["cards_revealed", "card_given", "forum_cards_seized"]
    assert first(ev, "card_given") == {"from": "cedric", "to": "karl", "color": "blue"}


def test_s4_trade_operation_limit_and_monopoly_tie():
    """S4: trade.effect, trade.operations, operations.colour, operations.limit, monopoly.tie."""
    st = given(operations={"karl": {"blue": 1}, "cedric": {"yellow": 1}},
               monopolies={"blue": "karl", "yellow": "cedric"},
               stock={"karl": {"yellow": 1, "red": 1}}, hands={"karl": {"blue": 1}})
    st, ev = send(st, "karl", "issue_order", order="trade", colors=["blue"])
    assert first(ev, "order_issued")["repetitions"] == 2
    st, ev = send(st, "karl", "trade", color="yellow")
    assert types(ev) == ["operation_added"], "a 1-1 tie moves no Monopoly"
    assert st["operations"]["karl"]["yellow"] == 1
    assert rejected(st, "karl", "trade", color="red") == "operations.limit"
    assert GAME.legal_commands(st, "karl") == [command("end_order")]
    st, ev = send(st, "karl", "end_order")
    assert first(ev, "order_finished")["unused"] == 1
    assert vp(st, "karl") == 1 and vp(st, "cedric") == 1


def test_s5_construction_completion_bonus_and_unique_name():
    """S5: construction.supply, buildings.complete, monopoly.build-bonus, buildings.unique-name,
    construction.start, setup.great-works (refill), zones.discard, orders.repetitions (fixed R)."""
    st = given(hands={"karl": {"brown": 1}}, operations={"karl": {"brown": 1}, "cedric": {"brown": 2}},
               stock={"karl": {"brown": 1}}, under_construction={"karl": {"sawmill_1": 1}},
               monopolies={"brown": "cedric"}, completed={"cedric": ["guild_hall_1"]},
               great_works=["sawmill_2", "harbour_1", "market_1", "granary_1", "barracks_1"],
               building_deck=["clay_pits_1", "market_2"], forum={"grey": 1, "brown": 2})
    st, ev = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    assert first(ev, "order_issued")["repetitions"] == 2
    st, ev = send(st, "karl", "supply_building", building_id="sawmill_1")
    assert types(ev) == ["resource_placed", "building_completed"]
    assert first(ev, "resource_placed")["placed"] == 2
    assert first(ev, "building_completed") == {"player": "karl", "building_id": "sawmill_1", "vp": 2}
    assert GAME.active_players(st) == ["cedric"]

    st, ev = send(st, "cedric", "monopoly_bonus", take=True)
    assert ev == [{"type": "monopoly_bonus_resolved", "data": {"player": "cedric", "color": "brown", "taken": True}}]
    assert nonzero(st["forum"]) == {"grey": 1, "brown": 1} and st["hands"]["cedric"]["brown"] == 1
    assert GAME.active_players(st) == ["karl"]
    assert st["order"]["repetitions"] - st["order"]["used"] == 1, "the Sawmill does not boost this order"

    assert rejected(st, "karl", "start_building", building_id="sawmill_2", discard="brown") == "buildings.unique-name"
    assert rejected(st, "karl", "start_building", building_id="market_1", discard="grey") == "construction.start"
    st, ev = send(st, "karl", "start_building", building_id="harbour_1", discard="grey")
    assert types(ev)[:3] == ["building_started", "great_works_refilled", "order_finished"]
    assert first(ev, "great_works_refilled") == {"building_id": "clay_pits_1"}
    assert nonzero(st["discard"]) == {"grey": 1}
    assert vp(st, "karl") == 2 and operation_limit(st, "karl") == 3


def _s6(operations=None, hand=None):
    return given(hands={"karl": hand or {"red": 1, "blue": 1, "brown": 1}}, operations={"karl": operations or {}},
                 residence={"cedric": (["yellow"], "production")}, forum={"blue": 1},
                 draw_pile=["grey", "red", "yellow", "blue", "brown", "grey"])


def test_s6_plot_copy_and_draw():
    """S6: plot.copy-needs-operation, plot.copy (not boosted), plot.draw, residence.contents."""
    assert rejected(_s6(), "karl", "plot", copy_from="cedric") == "plot.copy-needs-operation"
    st, ev = send(_s6(operations={"yellow": 2}), "karl", "plot", copy_from="cedric")
    assert first(ev, "plotted") == {"player": "karl", "copied_from": "cedric", "order": "production",
                                    "repetitions": 1}
    st, ev = send(st, "karl", "take_from_forum", color="blue")
    assert types(ev)[:4] == ["card_taken_from_forum", "order_finished", "cards_drawn", "turn_ended"]
    assert first(ev, "cards_drawn") == {"player": "karl", "count": 2, "colors": ["grey", "red"]}
    assert st["residence"]["karl"] == {"colors": [], "order": None}


def test_s6_variant_full_hand_draws_one():
    """S6 variant: with 6 cards in hand, plot {copy_from: null} draws exactly 1 (plot.draw)."""
    st, ev = send(_s6(hand={"red": 2, "blue": 2, "brown": 2}), "karl", "plot", copy_from=None)
    assert types(ev)[:3] == ["plotted", "cards_drawn", "turn_ended"]
    assert first(ev, "cards_drawn")["colors"] == ["grey"]


def test_s7_monopoly_changes_hands():
    """S7: monopoly.take from another holder; monopoly.vp moves with it."""
    st = given(completed={"karl": ["barracks_1"]}, operations={"karl": {"red": 1}, "cedric": {"red": 1}},
               stock={"karl": {"red": 1}}, hands={"karl": {"blue": 1}}, monopolies={"red": "cedric"})
    assert operation_limit(st, "karl") == 3 and vp(st, "cedric") == 1
    st, ev = send(st, "karl", "issue_order", order="trade", colors=["blue"])
    assert first(ev, "order_issued")["repetitions"] == 1
    st, ev = send(st, "karl", "trade", color="red")
    assert types(ev)[:3] == ["operation_added", "monopoly_taken", "order_finished"]
    assert first(ev, "monopoly_taken") == {"player": "karl", "color": "red", "from_player": "cedric"}
    assert vp(st, "karl") == 4 and vp(st, "cedric") == 0


def test_s8_command_validation():
    """S8: command.single, command.joker, command.cards-in-hand, turn.not-active, turn.wrong-step,
    residence.shows-order."""
    st = given(hands={"karl": {"red": 2, "blue": 1}})
    assert rejected(st, "karl", "issue_order", order="trade", colors=["red"]) == "command.single"
    assert rejected(st, "karl", "issue_order", order="production", colors=["red", "blue"]) == "command.joker"
    assert rejected(st, "karl", "issue_order", order="production", colors=["blue", "blue"]) == "command.cards-in-hand"
    assert rejected(st, "cedric", "plot", copy_from=None) == "turn.not-active"
    assert rejected(st, "karl", "take_from_forum", color="blue") == "turn.wrong-step"
    st, ev = send(st, "karl", "issue_order", order="production", colors=["red", "red"])
    assert first(ev, "order_issued") == {"player": "karl", "order": "production", "colors": ["red", "red"],
                                         "repetitions": 1}
    assert st["residence"]["karl"]["order"] == "production"


def test_s9_end_trigger_and_equal_turns():
    """S9: end.vp-target, end.equal-turns, end.winner."""
    st = given(completed={"karl": ["granary_1", "lighthouse_1", "barracks_1", "sawmill_1"]},
               under_construction={"karl": {"market_1": 1}}, stock={"karl": {"blue": 1}},
               hands={"karl": {"brown": 1}}, round_no=14, vp_target=12)
    assert vp(st, "karl") == 10
    st, ev = send(st, "karl", "issue_order", order="construction", colors=["brown"])
    assert first(ev, "order_issued")["repetitions"] == 2
    st, ev = send(st, "karl", "supply_building", building_id="market_1")
    assert types(ev) == ["resource_placed", "building_completed", "end_triggered"]
    assert first(ev, "end_triggered") == {"reason": "vp_target", "player": "karl"}
    st, ev = send(st, "karl", "end_order")
    assert "turn_ended" in types(ev) and first(ev, "turn_started") == {"player": "cedric", "round": 14}
    assert GAME.result(st) is None
    st, ev = send(st, "cedric", "plot", copy_from=None)
    assert types(ev)[-1] == "match_finished" and "turn_started" not in types(ev)
    done = first(ev, "match_finished")
    assert done["reason"] == "vp_target" and done["winners"] == ["karl"]
    assert GAME.result(st)["winners"] == ["karl"] and GAME.result(st)["scores"]["karl"] == 12
    assert GAME.active_players(st) == []
