"""The Transaction phase: buying, selling, passengers, jettisoning, commissions and IOUs."""
from __future__ import annotations

from domain.engine import RuleViolation, command
from domain.engine.text import T, name as printed

from . import data
from .names import item_name, square_name
from .state import BASE, holds, holds_used, passes, player, science_of, trade_partner, violate

_D = data.DEFAULTS


def partner_or_fail(state: dict, pid: str, *, base_ok: bool) -> str:
    """The trading partner here (transaction.where), or raise."""
    partner = trade_partner(state, player(state, pid)["square"])
    if partner is None:
        violate("transaction.where", T("There is no one to trade with on this square."))
    if partner == BASE and not base_ok:
        violate("transaction.where", T("The Galactic Base trades only in ships."))
    return partner


def _home_price(p: dict, culture: str, printed: int) -> int:
    """home.discount: deeds from the player's home culture cost 20% less."""
    if p["race"] == culture:
        return printed * (100 - _D["home_discount_pct"]) // 100
    return printed


def _item_price(state: dict, pid: str, partner: str, payload: dict) -> dict:
    """Validate the item rules of a purchase and return its unit price, trade-in and holds needed."""
    p = player(state, pid)
    item, target, count = payload["item"], payload["target"], payload["count"]
    if (target is not None) != (item in ("spaceport_deed", "ship")):
        violate("turn.payload", T("Name which one only when buying a ship or a spaceport deed."))
    if count > 1 and not payload["use_iou"]:
        violate("buy.one-item", T("A Buy action buys exactly one item."))
    if count > 1 and item not in ("good", "factory_good"):
        violate("iou.use", T("Only goods and factory goods can be bought several at a time with an IOU."))
    market = state["market"].get(partner)
    trade_in, need = 0, 0
    if item == "good":
        if market["good"] < count:
            violate("goods.supply", T("The market does not hold that many goods tokens."))
        unit, need = data.CULTURES[partner]["goods"]["cost"], count
    elif item == "factory_good":
        if market["deed"]:
            violate("factory.goods-locked", T("Factory goods are sold only after the factory deed was bought."))
        if market["factory"] < count:
            violate("factory.goods", T("The market does not hold that many factory goods tokens."))
        unit, need = data.CULTURES[partner]["factory"]["cost"], count
    elif item == "factory_deed":
        if not market["deed"]:
            violate("factory.deed", T("This culture's factory deed is already sold."))
        unit = _home_price(p, partner, data.CULTURES[partner]["deed"])
    elif item == "spaceport_deed":
        if target not in data.SQUARES:
            violate("turn.payload", T("There is no such square."))
        system = data.system_of(p["square"])
        if target not in data.SYSTEMS[system]["orbitals"] or target not in state["spaceport_deeds"]:
            violate("spaceport.buy", T("{target} holds no spaceport deed in this system.", target=square_name(target)))
        unit = _home_price(p, partner, _D["spaceport_deed_price"])
    elif item == "ship":
        if target not in data.SHIPS:
            violate("turn.payload", T("There is no such ship class."))
        if science_of(partner) not in data.SHIPS[target]["sold_by"]:
            violate("ship.sources", T("No {ship} ship is sold here.", ship=printed(target)))
        if target == p["ship"]:
            violate("ship.barter", T("You already fly that ship class."))
        unit, trade_in = data.SHIPS[target]["price"], data.SHIPS[p["ship"]]["trade_in"]
    else:
        equipment = data.EQUIPMENT[item]
        if science_of(partner) != equipment["science"]:
            violate("equipment.by-science", T("This culture does not sell {item}.", item=item_name(item)))
        if item != "shield" and (item in p["drives"] or "drive:combined" in p["drives"]):
            violate("equipment.drives", T("You already own that drive (or a combined drive)."))
        unit = equipment["price"]
        need = 1 if item != "shield" or p["shields"] >= 1 else 0
    return {"unit": unit, "trade_in": trade_in, "need": need, "due": max(0, unit * count - trade_in)}


def quote(state: dict, pid: str, partner: str, payload: dict) -> dict:
    """Item rules plus IOU: the full price facts of a purchase, or raise."""
    q = _item_price(state, pid, partner, payload)
    q["iou_culture"] = None
    q["credits"] = q["due"]
    if payload["use_iou"]:
        if partner == BASE or partner not in player(state, pid)["ious"]:
            violate("iou.use", T("You hold no First Contact card of this culture."))
        iou = data.CULTURES[partner]["iou"]
        if payload["count"] > 1 and q["due"] > iou:
            violate("iou.use", T("Several items may be bought with an IOU only if they total at most c{iou}.", iou=iou))
        q["iou_culture"] = partner
        q["credits"] = max(0, q["due"] - iou)
    q["buy_action"] = not (payload["use_iou"] and q["credits"] == 0)
    return q


def check_buy(state: dict, pid: str, payload: dict) -> tuple[str, dict]:
    """Validate a buy in the spec's order; return (partner, quote)."""
    partner = partner_or_fail(state, pid, base_ok=payload["item"] == "ship")
    t = state["turn"]
    if t["limited"] and t["buy_used"]:
        exempt = False
        if payload["use_iou"]:
            try:
                exempt = not quote(state, pid, partner, payload)["buy_action"]
            except RuleViolation:
                exempt = False
        if not exempt:
            violate("transaction.landing-limit", T("After landing you may take only one Buy action this turn."))
    q = quote(state, pid, partner, payload)
    p = player(state, pid)
    if holds_used(p) + q["need"] > holds(p):
        violate("capacity.no-space", T("You have no free hold for that."))
    if q["credits"] > p["cash"]:
        violate("transaction.funds", T("That costs c{credits} but you have c{cash}.", credits=q['credits'],
                                       cash=p['cash']))
    return partner, q


def emit_buy(sim, pid: str, payload: dict) -> None:
    """Emit item_bought and any commissions."""
    partner, q = check_buy(sim.state, pid, payload)
    item, count = payload["item"], payload["count"]
    culture = None if partner == BASE else partner
    name = {"good": lambda: data.CULTURES[partner]["goods"]["name"],
            "factory_good": lambda: data.CULTURES[partner]["factory"]["name"]}.get(item, lambda: item)()
    square = player(sim.state, pid)["square"]
    sim.emit("item_bought", player=pid, item=item, target=payload["target"], count=count, unit_price=q["unit"],
             credits_paid=q["credits"], iou_culture=q["iou_culture"], buy_action=q["buy_action"],
             trade_in=q["trade_in"], culture=culture, name=name)
    value = q["unit"] * count
    if item == "factory_good":
        owner = sim.state["factories"][partner]
        sim.emit("commission_paid", owner=owner, amount=value * _D["factory_commission_pct"] // 100,
                 source="factory", culture=partner)
    if item in ("good", "factory_good") and square in sim.state["spaceports"]:
        sim.emit("commission_paid", owner=sim.state["spaceports"][square],
                 amount=value * _D["spaceport_commission_pct"] // 100, source="spaceport", culture=partner)


def check_sell(state: dict, pid: str, item: str) -> str:
    """Validate a sell (transaction.where, sell.buyers, transaction.landing-limit); return the partner."""
    partner = partner_or_fail(state, pid, base_ok=False)
    if item not in data.CARGO_TOKENS:
        violate("turn.payload", T("That is not a goods token."))
    if item not in player(state, pid)["cargo"]:
        violate("sell.action", T("You carry no {item}.", item=item_name(item)))
    if data.token_culture(item) not in data.BUYS_FROM[partner]:
        violate("sell.buyers", T("The {culture} do not buy {good}.", culture=printed(data.CULTURES[partner]['name']),
                                 good=printed(data.token_info(item)['name'])))
    t = state["turn"]
    if t["limited"] and t["sell_used"]:
        violate("transaction.landing-limit", T("After landing you may take only one Sell action this turn."))
    return partner


def emit_sell(sim, pid: str, item: str) -> None:
    """Emit item_sold (with any demand bonus) and a spaceport commission."""
    partner = check_sell(sim.state, pid, item)
    price = data.token_info(item)["sale"]
    demand = next((d for d in data.DEMAND_ORDER if sim.state["demand_at"][d] == partner
                   and data.DEMANDS[d]["wants"] == item), None)
    bonus = data.DEMANDS[demand]["bonus"] if demand else 0
    sim.emit("item_sold", player=pid, item=item, price=price, demand=demand, bonus=bonus, culture=partner,
             name=data.token_info(item)["name"])
    square = player(sim.state, pid)["square"]
    if square in sim.state["spaceports"]:
        sim.emit("commission_paid", owner=sim.state["spaceports"][square],
                 amount=price * _D["spaceport_commission_pct"] // 100, source="spaceport", culture=partner)


def check_pick_up(state: dict, pid: str, passenger: str) -> None:
    """Validate pick_up (transaction.where, passenger.pick-up, capacity.no-space)."""
    partner = partner_or_fail(state, pid, base_ok=False)
    if state["passenger_at"][passenger] != partner:
        violate("passenger.pick-up", T("{passenger} is not waiting here.", passenger=item_name(passenger)))
    p = player(state, pid)
    if holds_used(p) + 1 > holds(p):
        violate("capacity.no-space", T("You have no free hold for a passenger."))


def check_drop_off(state: dict, pid: str, passenger: str) -> None:
    """Validate drop_off (transaction.where, passenger.drop-off)."""
    partner = partner_or_fail(state, pid, base_ok=False)
    if passenger not in player(state, pid)["cargo"] or data.PASSENGERS[passenger]["destination"] != partner:
        violate("passenger.drop-off", T("You do not carry {passenger} to this culture.",
                                        passenger=item_name(passenger)))


def carried_items(p: dict) -> list[str]:
    """Every distinct item the player could jettison, in canonical order."""
    out = [c for c in data.CARGO_TOKENS + data.PASSENGER_ORDER if c in p["cargo"]]
    if p["shields"]:
        out.append("shield")
    return out + [d for d in data.DRIVES if d in p["drives"]]


def check_jettison(state: dict, pid: str, item: str) -> None:
    """Validate jettison (capacity.free-space)."""
    if item not in data.CARGO_TOKENS + data.PASSENGER_ORDER + data.EQUIPMENT_ORDER:
        violate("turn.payload", T("There is no such item."))
    if item not in carried_items(player(state, pid)):
        violate("capacity.free-space", T("You carry no {item} to jettison.", item=item_name(item)))


def _buy_candidates(state: dict, pid: str) -> list[dict]:
    square = player(state, pid)["square"]
    system = data.system_of(square)
    orbitals = data.SYSTEMS[system]["orbitals"] if system else []
    out = []
    for item in data.ITEMS:
        targets = orbitals if item == "spaceport_deed" else data.SHIP_ORDER if item == "ship" else [None]
        for target in targets:
            out.append({"item": item, "target": target, "count": 1, "use_iou": False})
            out += [{"item": item, "target": target, "count": n, "use_iou": True} for n in (1, 2, 3)]
    return out


def trade_commands(state: dict, pid: str) -> list[dict]:
    """Every legal command of the Transaction phase outside free space (observe aside)."""
    p = player(state, pid)
    out = []
    if trade_partner(state, p["square"]) is not None:
        for payload in _buy_candidates(state, pid):
            if passes(check_buy, state, pid, payload):
                out.append(command("buy", **payload))
        out += [command("sell", item=i) for i in dict.fromkeys(p["cargo"]) if i in data.CARGO_TOKENS
                and passes(check_sell, state, pid, i)]
        out += [command("pick_up", passenger=x) for x in data.PASSENGER_ORDER if passes(check_pick_up, state, pid, x)]
        out += [command("drop_off", passenger=x) for x in data.PASSENGER_ORDER
                if passes(check_drop_off, state, pid, x)]
    return out


def jettison_commands(state: dict, pid: str) -> list[dict]:
    """One jettison per carried item."""
    return [command("jettison", item=i) for i in carried_items(player(state, pid))]
