"""One test per contact, transaction, buying, selling, capacity and victory rule id (spec §5.5-5.10)."""
from __future__ import annotations

from domain.games.merchant_of_venus import GAME
from domain.games.merchant_of_venus.state import net_worth
from tests.unit.merchant_of_venus.mov_kit import (first, given, legal_types, moving, rejected, send,
                                                  types)


def trading(square, revealed=("cw", "jw", "gp", "tr", "es", "im", "tm"), p1=None, **kw):
    """p1 in the Transaction phase on `square` after skipping movement (no landing limit)."""
    return given(revealed=list(revealed), phase="trade", pl={"p1": {"square": square, **(p1 or {})}}, **kw)


def landed(square, revealed=("cw", "jw", "gp", "tr", "es", "im", "tm"), p1=None, **kw):
    """p1 in the Transaction phase after landing on a city or port (one Buy, one Sell)."""
    return given(revealed=list(revealed), phase="trade", pl={"p1": {"square": square, **(p1 or {})}},
                 turn={"landed": True, "limited": True, "steps": 2}, **kw)


def buy(st, item, target=None, count=1, use_iou=False):
    """Send a buy and return (state, events)."""
    return send(st, "p1", "buy", item=item, target=target, count=count, use_iou=use_iou)


def test_contact_hidden_cultures():
    """contact.hidden-cultures: cards are face down; nobody but ALL sees the placement or set-aside card."""
    st = given()
    for viewer in ("p1", "p2", None):
        v = GAME.view(st, viewer)
        assert "placement" not in v and "set_aside" not in v
        assert all(s["culture"] is None for s in v["systems"].values())
    assert GAME.view(st, "*")["set_aside"] == "qossuth"


def test_contact_observe():
    """contact.observe: only on an orbital square of a face-down system."""
    st = moving("w3", prev="w2", mp=5)
    assert rejected(st, "p1", "observe") == "contact.observe"
    st = moving("jw.o1", prev="x7", mp=5, revealed=["jw"], pl={"p1": {}})
    st["turn"]["entered_orbitals"] = ["jw.o1"]
    assert rejected(st, "p1", "observe") == "contact.observe"


def test_contact_observe_window():
    """contact.observe-window: entered this turn, once per player per system, also in the trade phase."""
    st = given(phase="trade", pl={"p1": {"square": "gp.o2"}})
    assert rejected(st, "p1", "observe") == "contact.observe-window"
    st["turn"]["entered_orbitals"] = ["gp.o2"]
    st, ev = send(st, "p1", "observe")
    assert ev[0]["data"]["culture"] == "graw"
    assert rejected(st, "p1", "observe") == "contact.observe-window"


def test_contact_trigger():
    """contact.trigger: ending on a face-down system's port triggers First Contact; an orbital does not."""
    st = moving("es.o1", prev="e7", mp=4, destination="es.port")
    st, ev = send(st, "p1", "move", to="es.port")
    assert first(ev, "first_contact_made")["culture"] == "whynom"
    st = moving("gp.o2", prev="n8", mp=1, destination="gb")
    _, ev = send(st, "p1", "move", to="gp.o1")
    assert "first_contact_made" not in types(ev)


def test_contact_reveal():
    """contact.reveal: culture public, passengers and demands at the system, deeds on orbitals, IOU taken."""
    st = moving("im.o1", prev="s4", mp=4, destination="im.city")
    st, ev = send(st, "p1", "move", to="im.city")
    v = GAME.view(st, "p2")
    assert v["systems"]["im"]["culture"] == "eeepeeep" and v["markets"]["eeepeeep"]["system"] == "im"
    assert v["markets"]["eeepeeep"]["passengers"] == ["p5"] and v["markets"]["eeepeeep"]["demands"] == ["d6"]
    assert "im.o1" in st["spaceport_deeds"] and st["pl"]["p1"]["ious"] == ["eeepeeep"]


def test_contact_open():
    """contact.open: after discovery anyone landing there trades, the discoverer included."""
    st = trading("im.city", revealed=["im"])
    assert "buy" in legal_types(st, "p1")
    assert "buy" not in legal_types(trading("im.city", revealed=[]), "p1")


def test_transaction_where():
    """transaction.where: no trade in space; the Galactic Base sells ships only."""
    st = trading("w1")
    assert rejected(st, "p1", "buy", item="good") == "transaction.where"
    assert legal_types(st, "p1") == {"end_turn"}
    gb = trading("gb", p1={"cargo": ["good:graw"]})
    assert rejected(gb, "p1", "buy", item="good") == "transaction.where"
    assert rejected(gb, "p1", "sell", item="good:graw") == "transaction.where"
    buy(gb, "ship", "clipper")


def test_transaction_actions():
    """transaction.actions: unlimited actions in any order when not limited."""
    st = trading("cw.city", p1={"cash": 1000, "cargo": ["good:graw"]})
    st, _ = send(st, "p1", "sell", item="good:graw")
    for _ in range(3):
        st, _ = buy(st, "good")
    assert st["pl"]["p1"]["cargo"] == ["good:humans"] * 3


def test_transaction_landing_limit():
    """transaction.landing-limit: one Buy and one Sell after landing on a city; passengers unlimited."""
    st = landed("cw.city", p1={"cash": 1000, "cargo": ["good:graw", "good:graw"]})
    st, _ = buy(st, "good")
    assert rejected(st, "p1", "buy", item="good") == "transaction.landing-limit"
    st, _ = send(st, "p1", "sell", item="good:graw")
    assert rejected(st, "p1", "sell", item="good:graw") == "transaction.landing-limit"
    st, _ = send(st, "p1", "pick_up", passenger="p4")


def test_transaction_port_exception():
    """transaction.port-exception: no limit on the Galactic Base or a merchant spaceport."""
    st = landed("gb", p1={"cash": 1000})
    st["turn"]["limited"] = False
    st, _ = buy(st, "ship", "clipper")
    buy(st, "ship", "freighter")
    sp = landed("tr.o3", p1={"cash": 1000})
    sp["spaceports"] = {"tr.o3": "p2"}
    sp["turn"]["limited"] = False
    sp, _ = buy(sp, "good")
    buy(sp, "good")


def test_transaction_stay():
    """transaction.stay: after skipping movement there is no Buy/Sell limit."""
    st = given(revealed=["cw"], pl={"p1": {"square": "cw.city", "cash": 1000}})
    st, _ = send(st, "p1", "skip_movement")
    st, _ = buy(st, "good")
    buy(st, "good")


def test_transaction_funds():
    """transaction.funds: a payment above cash is rejected."""
    assert rejected(trading("cw.city", p1={"cash": 100}), "p1", "buy", item="good") == "transaction.funds"


def test_buy_one_item():
    """buy.one-item: count > 1 only with an IOU."""
    st = trading("cw.city", p1={"cash": 1000})
    assert rejected(st, "p1", "buy", item="good", count=2) == "buy.one-item"


def test_goods_market():
    """goods.market: the buyer pays the cost and takes the culture's goods token."""
    st, ev = buy(trading("cw.city"), "good")
    assert first(ev, "item_bought")["unit_price"] == 120 and st["pl"]["p1"]["cargo"] == ["good:humans"]


def test_goods_supply():
    """goods.supply: with no token left none can be bought; sold tokens return to their market."""
    st = trading("cw.city", p1={"cash": 1000})
    st["market"]["humans"]["good"] = 0
    assert rejected(st, "p1", "buy", item="good") == "goods.supply"
    st = trading("im.city", p1={"cargo": ["good:humans"]})
    st["market"]["humans"]["good"] = 2
    st, _ = send(st, "p1", "sell", item="good:humans")
    assert st["market"]["humans"]["good"] == 3


def test_goods_grades():
    """goods.grades: basic <= c60, premium c70-c110, luxury >= c120, shown in the view."""
    m = GAME.view(given(), None)["markets"]
    assert m["graw"]["goods_info"]["grade"] == "basic"
    assert m["nillis"]["goods_info"]["grade"] == "premium"
    assert m["volois"]["goods_info"]["grade"] == "luxury"


def test_capacity_no_space():
    """capacity.no-space: no purchase or pick-up that needs a hold without a free one."""
    full = ["good:graw"] * 4
    st = trading("cw.city", p1={"cash": 1000, "cargo": full})
    assert rejected(st, "p1", "buy", item="good") == "capacity.no-space"
    assert rejected(st, "p1", "pick_up", passenger="p4") == "capacity.no-space"
    st = trading("jw.city", p1={"cash": 1000, "cargo": full})
    buy(st, "shield")


def test_factory_deed():
    """factory.deed: one deed per culture at its printed price."""
    st, ev = buy(trading("tr.city", p1={"cash": 500}), "factory_deed")
    assert first(ev, "item_bought")["credits_paid"] == 200
    assert rejected(st, "p1", "buy", item="factory_deed") == "factory.deed"


def test_factory_net_worth():
    """factory.net-worth: the printed value counts in net worth."""
    st, _ = buy(trading("tr.city", p1={"cash": 500}), "factory_deed")
    assert net_worth(st, "p1") == 500


def test_factory_goods_locked():
    """factory.goods-locked: no factory goods while the deed is on the market."""
    assert rejected(trading("tr.city", p1={"cash": 500}), "p1", "buy", item="factory_good") == "factory.goods-locked"


def test_factory_goods():
    """factory.goods: printed price, a hold each, 3 tokens per culture."""
    st = trading("tr.city", p1={"cash": 1000})
    st["factories"]["volois"], st["market"]["volois"]["deed"] = "p2", False
    st, ev = buy(st, "factory_good")
    assert first(ev, "item_bought")["unit_price"] == 120 and st["pl"]["p1"]["cargo"] == ["factory:volois"]
    st["market"]["volois"]["factory"] = 0
    assert rejected(st, "p1", "buy", item="factory_good") == "factory.goods"


def test_factory_commission():
    """factory.commission: 50% to the factory owner, even on his own purchase."""
    st = trading("tr.city", p1={"cash": 1000})
    st["factories"]["volois"], st["market"]["volois"]["deed"] = "p1", False
    st, ev = buy(st, "factory_good")
    assert first(ev, "commission_paid")["amount"] == 60 and st["pl"]["p1"]["cash"] == 1000 - 120 + 60


def test_equipment_by_science():
    """equipment.by-science: biotech shields, industry yellow, technology red, metaphysics combined drives."""
    sells = {"jw.city": "shield", "es.port": "drive:yellow", "cw.city": "drive:red", "tr.city": "drive:combined"}
    for square, item in sells.items():
        st = trading(square, p1={"cash": 1000})
        buy(st, item)
        others = {"shield", "drive:yellow", "drive:red", "drive:combined"} - {item}
        assert all(rejected(st, "p1", "buy", item=o) == "equipment.by-science" for o in others)
    assert rejected(trading("gp.city", p1={"cash": 1000}), "p1", "buy", item="shield") == "equipment.by-science"


def test_equipment_price():
    """equipment.price: shield 60, yellow 80, red 120, combined 300."""
    for square, item, price in (("jw.city", "shield", 60), ("es.port", "drive:yellow", 80),
                                ("cw.city", "drive:red", 120), ("tr.city", "drive:combined", 300)):
        _, ev = buy(trading(square, p1={"cash": 1000}), item)
        assert first(ev, "item_bought")["credits_paid"] == price


def test_equipment_shields():
    """equipment.shields: the first shield uses no hold, each further one does."""
    st, _ = buy(trading("jw.city", p1={"cash": 1000}), "shield")
    assert GAME.view(st, None)["player_states"]["p1"]["holds_used"] == 0
    st, _ = buy(st, "shield")
    assert GAME.view(st, None)["player_states"]["p1"]["holds_used"] == 1


def test_equipment_drives():
    """equipment.drives: a drive uses a hold; no duplicate drive, no yellow/red with a combined drive."""
    st, _ = buy(trading("cw.city", p1={"cash": 1000}), "drive:red")
    assert GAME.view(st, None)["player_states"]["p1"]["holds_used"] == 1
    assert rejected(st, "p1", "buy", item="drive:red") == "equipment.drives"
    st = trading("es.port", p1={"cash": 1000, "drives": ["drive:combined"]})
    assert rejected(st, "p1", "buy", item="drive:yellow") == "equipment.drives"


def test_ship_start():
    """ship.start: every player starts with a scout on the Galactic Base."""
    st = given(players=("a", "b", "c"), active="a")
    assert all(p["ship"] == "scout" and p["square"] == "gb" for p in st["pl"].values())


def test_ship_sources():
    """ship.sources: technology sells scout/clipper, industry transport/freighter, biotech none."""
    assert rejected(trading("cw.city", p1={"cash": 1000}), "p1", "buy", item="ship",
                    target="freighter") == "ship.sources"
    buy(trading("es.port", p1={"cash": 1000}), "ship", "freighter")
    assert rejected(trading("jw.city", p1={"cash": 1000}), "p1", "buy", item="ship", target="clipper") == \
        "ship.sources"


def test_ship_one_ship():
    """ship.one-ship: buying a ship replaces the old one."""
    st, _ = buy(trading("gb", p1={"cash": 1000}), "ship", "transport")
    assert st["pl"]["p1"]["ship"] == "transport"


def test_ship_barter():
    """ship.barter: pay price minus half the old price, no change, never the own class."""
    st, ev = buy(trading("gb", p1={"cash": 1000}), "ship", "clipper")
    assert first(ev, "item_bought")["credits_paid"] == 90 and first(ev, "item_bought")["trade_in"] == 30
    assert rejected(st, "p1", "buy", item="ship", target="clipper") == "ship.barter"


def test_ship_transfer():
    """ship.transfer: cargo and equipment move to the new ship; over capacity means free space."""
    st, _ = buy(trading("gb", p1={"cargo": ["good:graw"] * 6, "ship": "transport", "shields": 1}), "ship", "scout")
    assert st["free_space"] and st["pl"]["p1"]["shields"] == 1 and len(st["pl"]["p1"]["cargo"]) == 6


def test_spaceport_deeds():
    """spaceport.deeds: one deed per orbital square of the discovered system."""
    st = moving("tr.o2", prev="tr.o1", mp=2, destination="tr.city")
    st, _ = send(st, "p1", "move", to="tr.city")
    assert st["spaceport_deeds"] == ["tr.o1", "tr.o2", "tr.o3"]


def test_spaceport_buy():
    """spaceport.buy: c200 for an orbital of the current system still holding a deed."""
    st = trading("tr.city", p1={"cash": 1000})
    assert rejected(st, "p1", "buy", item="spaceport_deed", target="cw.o1") == "spaceport.buy"
    st, _ = buy(st, "spaceport_deed", "tr.o1")
    assert rejected(st, "p1", "buy", item="spaceport_deed", target="tr.o1") == "spaceport.buy"


def test_spaceport_net_worth():
    """spaceport.net-worth: the printed c200 counts in net worth."""
    st, _ = buy(trading("tr.city", p1={"cash": 1000}), "spaceport_deed", "tr.o1")
    assert net_worth(st, "p1") == 1000


def test_spaceport_merchant():
    """spaceport.merchant: a merchant spaceport is a landing square and a trading place."""
    st = moving("tr.o1", prev="e3", mp=5, destination="gb", revealed=["tr"])
    st["spaceports"] = {"tr.o2": "p2"}
    st, _ = send(st, "p1", "move", to="tr.o2")
    assert "end_move" in legal_types(st, "p1")
    st, _ = send(st, "p1", "end_move")
    assert "buy" in legal_types(st, "p1")


def test_spaceport_commission():
    """spaceport.commission: 10% of goods bought or sold on the spaceport, also for the owner."""
    st = trading("tr.o3", p1={"cash": 1000, "cargo": ["good:cholos"]})
    st["spaceports"] = {"tr.o3": "p1"}
    st, ev = send(st, "p1", "sell", item="good:cholos")
    assert first(ev, "commission_paid") == {"owner": "p1", "amount": 12, "source": "spaceport", "culture": "volois"}


def test_home_discount():
    """home.discount: 20% off deeds from the home culture only."""
    st = trading("tr.city", p1={"cash": 1000}, races=["qossuth", "humans"], placement={"tr": "qossuth"})
    _, ev = buy(st, "spaceport_deed", "tr.o1")
    assert first(ev, "item_bought")["credits_paid"] == 160
    _, ev = buy(st, "good")
    assert first(ev, "item_bought")["credits_paid"] == 160
    _, ev = buy(trading("tr.city", p1={"cash": 1000}), "spaceport_deed", "tr.o1")
    assert first(ev, "item_bought")["credits_paid"] == 200


def test_iou_card():
    """iou.card: the discoverer keeps the card showing its IOU value."""
    st = moving("gp.o1", prev="n5", mp=2, destination="gp.city")
    st, ev = send(st, "p1", "move", to="gp.city")
    assert st["pl"]["p1"]["ious"] == ["graw"] and first(ev, "first_contact_made")["iou"] == 90


def test_iou_use():
    """iou.use: one card per purchase; count > 1 only for goods within the IOU; partial pay in credits."""
    st = trading("tr.city", p1={"cash": 1000, "ious": ["volois"]})
    assert rejected(st, "p1", "buy", item="good", count=2, use_iou=True) == "iou.use"
    assert rejected(st, "p1", "buy", item="factory_deed", count=2, use_iou=True) == "iou.use"
    assert rejected(trading("cw.city"), "p1", "buy", item="good", use_iou=True) == "iou.use"
    st, ev = buy(st, "factory_deed", use_iou=True)
    assert first(ev, "item_bought")["credits_paid"] == 80 and first(ev, "item_bought")["buy_action"]
    assert st["pl"]["p1"]["ious"] == []


def test_iou_not_buy_action():
    """iou.not-buy-action: a purchase fully paid by IOU does not use the landing Buy action."""
    st = landed("gp.city", p1={"cash": 1000, "ious": ["graw"]})
    st, _ = buy(st, "good")
    st, ev = buy(st, "good", use_iou=True)
    assert first(ev, "item_bought")["buy_action"] is False and first(ev, "item_bought")["credits_paid"] == 0
    partial = landed("tr.city", p1={"cash": 1000, "ious": ["volois"]})
    partial, _ = buy(partial, "factory_deed")
    assert rejected(partial, "p1", "buy", item="good", use_iou=True) == "transaction.landing-limit"


def test_iou_no_net_worth():
    """iou.no-net-worth: IOU cards add nothing to net worth."""
    st = given(pl={"p1": {"ious": ["volois", "graw"]}})
    assert net_worth(st, "p1") == 200


def test_sell_buyers():
    """sell.buyers: a culture buys only from the three groups below it."""
    st = trading("cw.city", p1={"cargo": ["good:eeepeeep", "good:graw"]})
    assert rejected(st, "p1", "sell", item="good:eeepeeep") == "sell.buyers"
    send(st, "p1", "sell", item="good:graw")


def test_sell_action():
    """sell.action: sells one carried token for its sale value."""
    st = trading("cw.city", p1={"cargo": ["factory:nillis"]})
    assert rejected(st, "p1", "sell", item="good:nillis") == "sell.action"
    st, ev = send(st, "p1", "sell", item="factory:nillis")
    assert first(ev, "item_sold")["price"] == 160 and st["pl"]["p1"]["cash"] == 360


def test_demand_bonus():
    """demand.bonus: a matching demand token adds its bonus once and leaves the game."""
    st = trading("cw.city", p1={"cargo": ["good:graw", "good:graw"]})
    st, ev = send(st, "p1", "sell", item="good:graw")
    assert first(ev, "item_sold")["demand"] == "d1" and first(ev, "item_sold")["bonus"] == 40
    st, ev = send(st, "p1", "sell", item="good:graw")
    assert first(ev, "item_sold")["demand"] is None and st["pl"]["p1"]["cash"] == 200 + 120 + 80


def test_passenger_pick_up():
    """passenger.pick-up: only passengers lying at this system."""
    st = trading("cw.city")
    assert rejected(st, "p1", "pick_up", passenger="p1") == "passenger.pick-up"
    st, _ = send(st, "p1", "pick_up", passenger="p4")
    assert st["pl"]["p1"]["cargo"] == ["p4"]


def test_passenger_drop_off():
    """passenger.drop-off: only at the destination culture; the fare is paid."""
    st = trading("tr.city", p1={"cargo": ["p4"]}, placement={"tr": "qossuth", "es": "volois"})
    st, ev = send(st, "p1", "drop_off", passenger="p4")
    assert first(ev, "passenger_dropped_off")["fare"] == 60 and st["pl"]["p1"]["cash"] == 260
    assert rejected(trading("cw.city", p1={"cargo": ["p4"]}), "p1", "drop_off", passenger="p4") == \
        "passenger.drop-off"


def test_capacity_holds():
    """capacity.holds: tokens, passengers, drives and extra shields each use a hold."""
    st = given(pl={"p1": {"cargo": ["good:graw", "p4"], "drives": ["drive:red"], "shields": 3}})
    assert GAME.view(st, None)["player_states"]["p1"]["holds_used"] == 5


def test_capacity_free_space():
    """capacity.free-space: jettison returns goods to market, removes passengers; only jettison in free space."""
    st = trading("w2", p1={"cargo": ["good:graw", "p4"]})
    st["market"]["graw"]["good"] = 2
    st, _ = send(st, "p1", "jettison", item="good:graw")
    st, _ = send(st, "p1", "jettison", item="p4")
    assert st["market"]["graw"]["good"] == 3 and st["pl"]["p1"]["cargo"] == []
    assert rejected(st, "p1", "jettison", item="shield") == "capacity.free-space"


def test_networth_value():
    """networth.value: cash plus printed deeds; cargo, ships and equipment do not count."""
    st = given(pl={"p1": {"cash": 50, "ship": "freighter", "cargo": ["good:volois"], "shields": 2}})
    st["factories"] = {"volois": "p1", "graw": "p2"}
    st["spaceports"] = {"tr.o1": "p1"}
    assert net_worth(st, "p1") == 50 + 200 + 200


def test_victory_target():
    """victory.target: net worth at or above the target at end_turn wins."""
    st = trading("w2", p1={"cash": 800})
    st, ev = send(st, "p1", "end_turn")
    fin = first(ev, "match_finished")
    assert fin["winners"] == ["p1"] and fin["reason"] == "target" and GAME.active_players(st) == []
    assert GAME.result(st)["winners"] == ["p1"] and GAME.result(st)["scores"]["p1"] == 800


def test_victory_round_limit():
    """victory.round-limit: highest net worth wins; a tie goes to the most cash; a full tie is shared."""
    st = given(active="p2", phase="trade", options={"max_rounds": 1}, pl={"p1": {"cash": 300}, "p2": {"cash": 100}})
    st["round"] = 1
    st, ev = send(st, "p2", "end_turn")
    assert first(ev, "match_finished")["reason"] == "round_limit" and GAME.result(st)["winners"] == ["p1"]
    tie = given(active="p2", phase="trade", options={"max_rounds": 1})
    tie["round"] = 1
    tie, _ = send(tie, "p2", "end_turn")
    assert GAME.result(tie)["winners"] == ["p1", "p2"]
    ahead = given(active="p2", phase="trade", options={"max_rounds": 1}, pl={"p1": {"cash": 100}})
    ahead["round"], ahead["factories"] = 1, {"nillis": "p1"}
    ahead, _ = send(ahead, "p2", "end_turn")
    assert GAME.result(ahead)["winners"] == ["p2"]
    assert rejected(tie, "p1", "skip_movement") == "turn.active-only"
