"""Transactions: proposals of one lot for one lot, accepted or declined by the target (§5.12, 73.9b, 73.comment-5)."""
from __future__ import annotations

from domain.engine.text import N_, T, joined

from .command_text import lot_item

from .board import RELICS
from .data import CONST
from .handler import Handler, empty_payload, fail, no_check

ITEMS = ("trade_goods", "commodities", "cultural", "industrial", "hazardous", "unknown")


def owned(state: dict, player: str, item: str) -> int:
    """How much of a tradeable item a player has."""
    me = state["players"][player]
    if item in ("trade_goods", "commodities"):
        return me[item]
    return len(me["fragments"][item])


def in_window(state: dict, player: str) -> bool:
    """transaction.windows: the turn player's choose_action step or a revealed exploration card."""
    ex = state["exploration"]
    if ex:
        return ex["stage"] == "revealed"
    return state["step"] == "choose_action"


def _check_lot(state: dict, owner: str, lot, side: str) -> None:
    if lot is None:
        return
    item, count = lot["item"], lot["count"]
    if item in RELICS or item.startswith("relic"):
        fail("relics.no-trade", T("Relics cannot be traded; only relic fragments can."))
    if item not in ITEMS:
        fail("transaction.lots", T("That cannot be traded; choose one of {items}.",
               items=joined(map(lot_item, ITEMS))))
    if not 1 <= count <= CONST["lot_max_count"]:
        fail("transaction.lots", T("A lot holds 1 to {lot_max_count} of one item.",
                                   lot_max_count=CONST['lot_max_count']))
    if owned(state, owner, item) < count:
        lot = N_("The lot given needs {count} × {item}, and its owner has fewer.") if side == "give" else \
            N_("The lot asked for needs {count} × {item}, and its owner has fewer.")
        fail("transaction.lots", T(lot, count=count, item=lot_item(item)))


def check_propose(state: dict, player: str, payload: dict) -> None:
    """transaction.parties, transaction.once-per-player, transaction.lots, relics.no-trade."""
    to = payload["to"]
    if to == player or to not in state["players"]:
        fail("transaction.parties", T("Propose a transaction to another player of this match."))
    if to in state["proposals_made"]:
        fail("transaction.once-per-player", T("You have already made a proposal to that player this turn."))
    if payload.get("give") is None and payload.get("receive") is None:
        fail("transaction.lots", T("A transaction needs something on at least one side."))
    _check_lot(state, player, payload.get("give"), "give")
    _check_lot(state, to, payload.get("receive"), "receive")


def propose_events(state: dict, player: str, payload: dict) -> list:
    """The proposal event (no follow-ups: the target must answer first)."""
    return [{"type": "transaction_proposed",
             "data": {"from": player, "to": payload["to"], "give": payload.get("give"),
                      "receive": payload.get("receive")}}]


def apply_propose(em, player: str, payload: dict) -> None:
    """Emit the proposal."""
    em.emit("transaction_proposed", **propose_events(em.state, player, payload)[0]["data"])


def _lots(state: dict, player: str) -> list:
    result = [None]
    for item in ITEMS:
        for n in range(1, min(owned(state, player, item), CONST["lot_max_count"]) + 1):
            result.append({"item": item, "count": n})
    return result


def legal_propose(state: dict, player: str) -> list:
    """Every (to, give, receive) proposal possible now."""
    result = []
    mine = _lots(state, player)
    for to in state["order"]:
        if to == player or to in state["proposals_made"]:
            continue
        for give in mine:
            for receive in _lots(state, to):
                if give is not None or receive is not None:
                    result.append({"to": to, "give": give, "receive": receive})
    return result


def _as_received(lot):
    """What the receiver gets: commodities arrive as trade goods (transaction.commodities)."""
    if lot and lot["item"] == "commodities":
        return {"item": "trade_goods", "count": lot["count"]}
    return lot


def apply_accept(em, player: str, payload: dict) -> None:
    """Carry out the pending proposal."""
    p = em.state["proposal"]
    em.emit("transaction_accepted", **{"from": p["from"]}, to=p["to"], give=p["give"], receive=p["receive"],
            to_gets=_as_received(p["give"]), from_gets=_as_received(p["receive"]))


def apply_decline(em, player: str, payload: dict) -> None:
    """Turn the pending proposal down."""
    p = em.state["proposal"]
    em.emit("transaction_declined", **{"from": p["from"]}, to=p["to"], give=p["give"], receive=p["receive"])


def _is_target(state: dict, player: str) -> bool:
    return bool(state["proposal"]) and state["proposal"]["to"] == player


HANDLERS = {
    "propose_transaction": Handler(in_window, check_propose, apply_propose, legal_propose, propose_events),
    "accept_transaction": Handler(_is_target, no_check, apply_accept, empty_payload),
    "decline_transaction": Handler(_is_target, no_check, apply_decline, empty_payload),
}
