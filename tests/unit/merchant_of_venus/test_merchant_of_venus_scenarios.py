"""The acceptance scenarios S1-S12 of the Merchant of Venus spec (§9), given/when/then at the domain level."""
from __future__ import annotations

from domain.games.merchant_of_venus import GAME
from domain.games.merchant_of_venus.state import net_worth
from tests.unit.merchant_of_venus.mov_kit import all_of, first, given, moving, rejected, roll, send, types


def _s1_start():
    return given(races=["qossuth", "humans"], revealed=["cw"], pl={"p1": {"square": "cw.port"}})


def test_s1_movement_example_seed_000():
    """S1: movement.declare, nav.assign-before-leaving, nav.die-still-counts, contact.observe, movement.green-line."""
    st = _s1_start()
    st, ev = send(st, "p1", "declare_direction", to="cw.nav", destination="jw.city", use_drive=False)
    assert types(ev) == ["direction_declared"]
    st, ev = send(st, "p1", "roll_speed", rng=roll(6, 3, 2), dice=3)
    assert first(ev, "speed_rolled") == {"player": "p1", "dice": [6, 3, 2], "movement_value": 11}
    st, ev = send(st, "p1", "move", to="cw.nav")
    assert types(ev) == ["ship_moved"] and first(ev, "ship_moved")["mp_left"] == 10
    assert rejected(st, "p1", "move", to="x1") == "nav.assign-before-leaving"
    st, ev = send(st, "p1", "assign_navigation", die=2)
    assert first(ev, "navigation_assigned")["value"] == 2 and st["turn"]["mp"] == 10
    st, ev = send(st, "p1", "move", to="x1")
    moves = all_of(ev, "ship_moved")
    assert [m["to"] for m in moves] == ["x1", "x2", "x3", "x4", "x5", "x6", "x7", "jw.o1"]
    assert [m["auto"] for m in moves] == [False] + [True] * 7
    assert moves[-1]["mp_left"] == 2 and st["phase"] == "move"
    st, ev = send(st, "p1", "observe")
    assert ev[0]["data"]["culture"] == "nillis"
    assert "culture" not in GAME.redact(ev[0], "p2")["data"]
    assert GAME.redact(ev[0], "p1")["data"]["culture"] == "nillis"
    assert GAME.view(st, "p1")["observed"] == {"jw": "nillis"} and GAME.view(st, "p2")["observed"] == {}
    st, ev = send(st, "p1", "move", to="jw.city")
    assert first(ev, "ship_moved")["cost"] == 2 and first(ev, "ship_moved")["mp_left"] == 0
    assert first(ev, "movement_ended")["reason"] == "destination" and first(ev, "movement_ended")["landed"]
    fc = first(ev, "first_contact_made")
    assert fc == {"player": "p1", "system": "jw", "culture": "nillis", "iou": 80, "passengers": ["p1"],
                  "demands": [], "spaceport_deeds": ["jw.o1"]}


def _s2(use_drive):
    st = given(races=["qossuth", "humans"], revealed=["cw", "jw"],
               pl={"p1": {"square": "cw.port", "drives": ["drive:red"]}})
    st, _ = send(st, "p1", "declare_direction", to="cw.nav", destination="jw.city", use_drive=use_drive)
    st, _ = send(st, "p1", "roll_speed", rng=roll(4, 3, 1), dice=3)
    st, ev = send(st, "p1", "move", to="cw.nav")
    assert first(ev, "ship_moved")["mp_left"] == 7
    st, ev = send(st, "p1", "assign_navigation", die=2)
    assert first(ev, "navigation_assigned")["value"] == 1
    return send(st, "p1", "move", to="x1")


def test_s2_drive_example_seed_004():
    """S2: drive.red, drive.skip — red squares cost 0 and the path costs 8 instead of 11."""
    st, ev = _s2(True)
    moves = all_of(ev, "ship_moved")
    assert [(m["to"], m["cost"], m["skipped"]) for m in moves[:4]] == [
        ("x1", 0, True), ("x2", 0, True), ("x3", 1, False), ("x4", 0, True)]
    assert moves[-1]["to"] == "jw.o1" and moves[-1]["mp_left"] == 2 and st["phase"] == "move"
    st, ev = send(st, "p1", "move", to="jw.city")
    assert first(ev, "ship_moved")["mp_left"] == 0 and first(ev, "movement_ended")["reason"] == "destination"


def test_s2_variant_without_drive_stops_on_x7():
    """S2 variant: drive.decline — with use_drive false the ship runs out of MP on x7."""
    st, ev = _s2(False)
    assert all_of(ev, "ship_moved")[-1]["to"] == "x7"
    assert first(ev, "movement_ended") == {"player": "p1", "square": "x7", "reason": "mp_exhausted", "landed": False}


def test_s3_first_contact_example_seed_000():
    """S3: contact.trigger, contact.reveal, contact.open."""
    st = given(active="p2", races=["humans", "whynom"], pl={"p2": {"square": "tr.o2"}})
    st, _ = send(st, "p2", "declare_direction", to="tr.city", destination="tr.city", use_drive=False)
    st, _ = send(st, "p2", "roll_speed", rng=roll(1, 1, 1), dice=3)
    st, ev = send(st, "p2", "move", to="tr.city")
    assert first(ev, "first_contact_made") == {
        "player": "p2", "system": "tr", "culture": "volois", "iou": 120, "passengers": ["p2"], "demands": ["d2"],
        "spaceport_deeds": ["tr.o1", "tr.o2", "tr.o3"]}
    market = GAME.view(st, None)["markets"]["volois"]
    assert (market["goods"], market["factory_goods"], market["factory_deed"]) == (3, 3, True)
    assert market["goods_info"]["cost"] == 140 and market["factory_info"]["cost"] == 120
    assert market["deed_price"] == 200
    assert st["pl"]["p2"]["ious"] == ["volois"]
    later = given(revealed=["tr"], phase="trade", pl={"p1": {"square": "tr.city", "cash": 500}})
    later, ev = send(later, "p1", "buy", item="good", target=None, count=1, use_iou=False)
    assert first(ev, "item_bought")["name"] == "Voil Silk"


def test_s4_trading_after_landing_seed_000():
    """S4: transaction.funds, sell.action, transaction.landing-limit, transaction.stay."""
    st = given(races=["eeepeeep", "humans"], placement={"im": "nillis", "jw": "eeepeeep"}, revealed=["im"],
               pl={"p1": {"square": "im.o1", "cash": 70, "cargo": ["good:cholos", "good:cholos"]}})
    st, _ = send(st, "p1", "declare_direction", to="im.city", destination="im.city", use_drive=False)
    st, _ = send(st, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    st, ev = send(st, "p1", "move", to="im.city")
    assert first(ev, "movement_ended")["landed"] and st["phase"] == "trade"
    assert rejected(st, "p1", "buy", item="good") == "transaction.funds"
    st, ev = send(st, "p1", "sell", item="good:cholos")
    assert first(ev, "item_sold")["price"] == 120 and st["pl"]["p1"]["cash"] == 190
    st, ev = send(st, "p1", "buy", item="good", target=None, count=1, use_iou=False)
    bought = first(ev, "item_bought")
    assert bought["buy_action"] and bought["name"] == "Bionic Perfume" and st["pl"]["p1"]["cash"] == 110
    assert GAME.describe(ev[0], str) == "p1 bought Bionic Perfume for c80"
    assert rejected(st, "p1", "buy", item="good") == "transaction.landing-limit"
    assert rejected(st, "p1", "sell", item="good:cholos") == "transaction.landing-limit"
    st, _ = send(st, "p1", "end_turn")
    st, _ = send(st, "p2", "skip_movement")
    st, _ = send(st, "p2", "end_turn")
    st, _ = send(st, "p1", "skip_movement")
    st, _ = send(st, "p1", "sell", item="good:cholos")
    assert st["pl"]["p1"]["cash"] == 230
    st, _ = send(st, "p1", "buy", item="good")
    st, _ = send(st, "p1", "buy", item="good")
    assert st["pl"]["p1"]["cash"] == 70 and st["market"]["nillis"]["good"] == 0


def test_s5_building_a_factory_seed_004():
    """S5: factory.deed, factory.net-worth, factory.commission, factory.goods-locked."""
    locked = given(revealed=["im"], phase="trade", pl={"p2": {"square": "im.city"}}, active="p2")
    assert rejected(locked, "p2", "buy", item="factory_good") == "factory.goods-locked"
    st = given(races=["humans", "whynom"], revealed=["im"], pl={"p1": {"square": "im.o1"}})
    st, _ = send(st, "p1", "declare_direction", to="im.city", destination="im.city", use_drive=False)
    st, _ = send(st, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    st, _ = send(st, "p1", "move", to="im.city")
    worth = net_worth(st, "p1")
    st, ev = send(st, "p1", "buy", item="factory_deed")
    assert first(ev, "item_bought")["credits_paid"] == 100 and st["factories"] == {"eeepeeep": "p1"}
    assert net_worth(st, "p1") == worth
    assert rejected(st, "p1", "buy", item="factory_good") == "transaction.landing-limit"
    st["active"], st["pl"]["p2"]["square"] = "p2", "im.city"
    st["turn"].update(limited=False, buy_used=False)
    cash1, cash2 = st["pl"]["p1"]["cash"], st["pl"]["p2"]["cash"]
    st, ev = send(st, "p2", "buy", item="factory_good")
    assert first(ev, "item_bought")["name"] == "Pedigree Bolts" and st["pl"]["p2"]["cash"] == cash2 - 100
    assert first(ev, "commission_paid") == {"owner": "p1", "amount": 50, "source": "factory", "culture": "eeepeeep"}
    assert st["pl"]["p1"]["cash"] == cash1 + 50


def test_s6_merchant_spaceport_seed_004():
    """S6: spaceport.buy, spaceport.net-worth, spaceport.merchant, spaceport.commission."""
    st = given(active="p2", races=["humans", "whynom"], revealed=["tr"], pl={"p2": {"square": "tr.o2"}})
    st, _ = send(st, "p2", "declare_direction", to="tr.city", destination="tr.city", use_drive=False)
    st, _ = send(st, "p2", "roll_speed", rng=roll(1, 1, 1), dice=3)
    st, _ = send(st, "p2", "move", to="tr.city")
    worth = net_worth(st, "p2")
    st, ev = send(st, "p2", "buy", item="spaceport_deed", target="tr.o3")
    assert first(ev, "item_bought")["credits_paid"] == 200 and first(ev, "item_bought")["buy_action"]
    assert st["spaceports"] == {"tr.o3": "p2"} and st["spaceport_deeds"] == ["tr.o1", "tr.o2"]
    assert net_worth(st, "p2") == worth
    other = given(revealed=["tr"], pl={"p1": {"square": "tr.o2", "cash": 500}})
    other["spaceports"], other["spaceport_deeds"] = {"tr.o3": "p2"}, ["tr.o1", "tr.o2"]
    other, _ = send(other, "p1", "declare_direction", to="tr.o3", destination="tr.o3", use_drive=False)
    other, _ = send(other, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    other, ev = send(other, "p1", "move", to="tr.o3")
    assert first(ev, "movement_ended")["landed"] and not other["turn"]["limited"]
    cash2 = other["pl"]["p2"]["cash"]
    for _ in range(2):
        other, ev = send(other, "p1", "buy", item="good")
        assert first(ev, "commission_paid") == {"owner": "p2", "amount": 14, "source": "spaceport",
                                                "culture": "volois"}
    assert other["pl"]["p2"]["cash"] == cash2 + 28


def test_s7_iou_example_seed_004():
    """S7: iou.use, iou.not-buy-action, iou.no-net-worth."""
    st = given(races=["eeepeeep", "humans"], pl={"p1": {"square": "gp.o1"}})
    st, _ = send(st, "p1", "declare_direction", to="gp.city", destination="gp.city", use_drive=False)
    st, _ = send(st, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    st, ev = send(st, "p1", "move", to="gp.city")
    assert first(ev, "first_contact_made")["iou"] == 90
    st, ev = send(st, "p1", "buy", item="good", target=None, count=3, use_iou=True)
    b = first(ev, "item_bought")
    assert (b["unit_price"], b["credits_paid"], b["iou_culture"], b["buy_action"]) == (30, 0, "graw", False)
    assert st["pl"]["p1"]["ious"] == [] and st["pl"]["p1"]["cargo"] == ["good:graw"] * 3
    st, ev = send(st, "p1", "buy", item="factory_deed")
    assert first(ev, "item_bought")["credits_paid"] == 200 and st["pl"]["p1"]["cash"] == 0
    assert rejected(st, "p1", "buy", item="factory_good") == "transaction.landing-limit"
    assert net_worth(st, "p1") == 200


def test_s8_rejected_movement_commands():
    """S8: movement.max-speed-dice, movement.speed-dice, nav.one-die, nav.exit-label, movement.no-backtrack."""
    st = given(pl={"p1": {"square": "gb"}})
    st, _ = send(st, "p1", "declare_direction", to="n1", destination="gp.city", use_drive=False)
    assert rejected(st, "p1", "roll_speed", dice=5) == "movement.max-speed-dice"
    assert rejected(st, "p1", "roll_speed", dice=4) == "movement.speed-dice"
    st, ev = send(st, "p1", "roll_speed", rng=roll(5, 4, 1), dice=3)
    assert first(ev, "speed_rolled")["movement_value"] == 10
    st, ev = send(st, "p1", "move", to="n1")
    assert [m["to"] for m in all_of(ev, "ship_moved")] == ["n1", "n2", "n.nav"] and st["turn"]["mp"] == 7
    variant = st
    st, ev = send(st, "p1", "assign_navigation", die=0)
    assert first(ev, "navigation_assigned")["value"] == 5
    assert rejected(st, "p1", "assign_navigation", die=1) == "nav.one-die"
    assert rejected(st, "p1", "move", to="n4") == "nav.exit-label"
    assert rejected(st, "p1", "move", to="n2") == "movement.no-backtrack"
    st, ev = send(st, "p1", "move", to="n6")
    assert all_of(ev, "ship_moved")[0]["to"] == "n6"
    variant, ev = send(variant, "p1", "assign_navigation", die=2)
    assert first(ev, "movement_ended") == {"player": "p1", "square": "n.nav", "reason": "blocked", "landed": False}


def test_s8_another_turn_toward_w1():
    """S8: movement.auto-continue stops on w2 (two exits); nav.assign-timing; movement.no-backtrack."""
    st = given(pl={"p1": {"square": "gb"}})
    st, _ = send(st, "p1", "declare_direction", to="w1", destination="cw.port", use_drive=False)
    st, _ = send(st, "p1", "roll_speed", rng=roll(3, 3, 3), dice=3)
    st, ev = send(st, "p1", "move", to="w1")
    assert [m["to"] for m in all_of(ev, "ship_moved")] == ["w1", "w2"]
    assert rejected(st, "p1", "assign_navigation", die=0) == "nav.assign-timing"
    assert rejected(st, "p1", "move", to="w1") == "movement.no-backtrack"


def _s9(**kw):
    pl = {"p1": {"shields": 2, **kw.pop("p1", {})}}
    return moving("e.nav", prev="e4", nav=2, mp=6, dice=(2, 4), destination="es.port", pl=pl, **kw)


def test_s9_hazard_and_shields():
    """S9: hazard.stop-or-pay, hazard.shields, hazard.fee."""
    st, ev = send(_s9(), "p1", "move", to="e5")
    assert [m["to"] for m in all_of(ev, "ship_moved")] == ["e5", "e6"] and st["turn"]["mp"] == 4
    assert {"end_move", "move"} <= {c["type"] for c in GAME.legal_commands(st, "p1")}
    paid, ev = send(st, "p1", "move", to="e7")
    assert first(ev, "hazard_fee_paid") == {"player": "p1", "square": "e6", "fee": 60, "shields": 2, "paid": 20}
    assert types(ev)[:2] == ["hazard_fee_paid", "ship_moved"] and paid["pl"]["p1"]["cash"] == 180
    stopped, ev = send(st, "p1", "end_move")
    assert first(ev, "movement_ended")["reason"] == "stopped"
    stopped, _ = send(stopped, "p1", "end_turn")
    stopped, _ = send(stopped, "p2", "skip_movement")
    stopped, _ = send(stopped, "p2", "end_turn")
    stopped, _ = send(stopped, "p1", "declare_direction", to="e7", destination="es.port", use_drive=False)
    stopped, _ = send(stopped, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    stopped, ev = send(stopped, "p1", "move", to="e7")
    assert "hazard_fee_paid" not in types(ev) and stopped["pl"]["p1"]["cash"] == 200


def test_s9_unpayable_fee_blocks_and_drive_skips():
    """S9: hazard.fee blocks with cash < 20; drive.red skips e5-e7 with no fee."""
    st, ev = send(_s9(p1={"cash": 10}), "p1", "move", to="e5")
    assert first(ev, "movement_ended") == {"player": "p1", "square": "e6", "reason": "blocked", "landed": False}
    assert rejected(st, "p1", "move", to="e7") == "turn.phase"
    st, ev = send(_s9(p1={"drives": ["drive:red"]}, use_drive=True), "p1", "move", to="e5")
    moves = all_of(ev, "ship_moved")
    assert [(m["to"], m["cost"]) for m in moves[:3]] == [("e5", 0), ("e6", 0), ("e7", 0)]
    assert "hazard_fee_paid" not in types(ev)


def test_s10_telegate():
    """S10: telegate.jump and movement.no-backtrack through telegates."""
    st = moving("tg.e", prev="t3", nav=3, mp=2, steps=4, dice=(3, 3, 3), destination="gb")
    assert rejected(st, "p1", "move", to="tg.w") == "telegate.jump"
    st, ev = send(st, "p1", "move", to="tg.n")
    assert first(ev, "ship_moved")["jump"] is True and first(ev, "ship_moved")["cost"] == 1
    assert rejected(st, "p1", "move", to="tg.e") == "movement.no-backtrack"


def test_s11_smaller_ship_and_free_space():
    """S11: ship.barter, ship.transfer, capacity.free-space."""
    cargo = ["good:graw", "good:graw", "good:graw", "good:nillis", "good:nillis"]
    st = given(revealed=["cw"], pl={"p1": {"square": "cw.city", "ship": "transport", "cargo": cargo}})
    st, _ = send(st, "p1", "skip_movement")
    st, ev = send(st, "p1", "buy", item="ship", target="scout")
    assert first(ev, "item_bought")["credits_paid"] == 0 and first(ev, "item_bought")["trade_in"] == 120
    assert st["free_space"] and st["pl"]["p1"]["ship"] == "scout"
    assert rejected(st, "p1", "end_turn") == "capacity.free-space"
    assert rejected(st, "p1", "sell", item="good:graw") == "capacity.free-space"
    assert {c["type"] for c in GAME.legal_commands(st, "p1")} == {"jettison"}
    st, _ = send(st, "p1", "jettison", item="good:graw")
    assert not st["free_space"]
    st, ev = send(st, "p1", "end_turn")
    assert types(ev)[0] == "turn_ended"


def test_s12_home_culture_discount():
    """S12: home.discount on a factory deed; the printed value counts in net worth."""
    st = given(races=["humans", "whynom"], revealed=["cw"], pl={"p1": {"square": "cw.city"}})
    st, _ = send(st, "p1", "skip_movement")
    worth = net_worth(st, "p1")
    st, ev = send(st, "p1", "buy", item="factory_deed")
    assert first(ev, "item_bought")["credits_paid"] == 80 and net_worth(st, "p1") == worth + 20
