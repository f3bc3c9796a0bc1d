"""Exploration card resolution: which options hold now (explore.options), their effects, and the card's fate."""
from __future__ import annotations

from . import board
from .data import CONST, SYSTEMS, card_type
from .flow import Emitter, explore_planet, finish_exploration, gain_planet

REMOVE_REWARDS = {"core-mine": "trade_good", "expedition": "ready", "volatile-fuel-source": "command_token"}


def lost_crew_targets(state: dict, system: str) -> list:
    """Map-adjacent systems with no planets and no frontier token (lost-crew)."""
    return [s for s in SYSTEMS[system]["adjacent"]
            if not board.planets_in(state, s) and not state["systems"][s]["frontier_token"]]


def option_holds(state: dict, ex: dict, option: str) -> bool:
    """Whether an option of the pending card may be chosen now (its bracketed precondition)."""
    me = state["players"][ex["player"]]
    planet, card_id = ex["planet"], ex["card"].split("#", 1)[0]
    exhausted = bool(planet) and state["planets"][planet]["exhausted"]
    dmz = bool(planet) and board.has_dmz(state, planet)
    if option == "buy_ship":
        return me["trade_goods"] >= CONST["freelancers_cost"] and not board.other_ships(state, ex["system"],
                                                                                        ex["player"])
    if option == "place_ground_force":
        return not dmz
    if option == "convert_commodities":
        return me["commodities"] >= 1
    if option in ("ready_pay_trade_good", "ready_pay_commodity"):
        pay = me["trade_goods"] if option.endswith("trade_good") else me["commodities"]
        return exhausted and pay >= 1
    if option in ("place_pay_trade_good", "place_pay_commodity"):
        pay = me["trade_goods"] if option.endswith("trade_good") else me["commodities"]
        return not dmz and pay >= 1
    if option == "remove_ground_force":
        mine = bool(planet) and board.planet_forces(state, planet, ex["player"]) >= 1
        return mine and (exhausted or REMOVE_REWARDS.get(card_id) != "ready")
    return True


def option_payloads(state: dict, ex: dict) -> list:
    """Every `resolve_exploration` payload valid now for the pending card."""
    result = []
    for option in card_type(ex["card"])["options"]:
        if not option_holds(state, ex, option):
            continue
        if option == "gain":
            result.append({"option": option, "system": None})
            result += [{"option": option, "system": s} for s in lost_crew_targets(state, ex["system"])]
        else:
            result.append({"option": option})
    return result


def _gain_commodities(em: Emitter, player: str, n: int, reason: str) -> None:
    """Gain up to `n` commodities, capped at the commodity value (economy.commodity-cap)."""
    me = em.state["players"][player]
    delta = max(0, min(n, board.commodity_value(em.state, player) - me["commodities"]))
    if delta:
        em.emit("commodities_changed", player=player, delta=delta, reason=reason)


def _convert(em: Emitter, player: str, n: int, reason: str) -> None:
    """Turn `n` commodities into trade goods."""
    em.emit("commodities_changed", player=player, delta=-n, reason=reason)
    em.emit("trade_goods_changed", player=player, delta=n, reason=reason)


def _pay(em: Emitter, player: str, option: str, reason: str) -> None:
    """Pay 1 trade good or 1 commodity, as the option names."""
    kind = "trade_goods_changed" if option.endswith("trade_good") else "commodities_changed"
    em.emit(kind, player=player, delta=-1, reason=reason)


def _effect(em: Emitter, ex: dict, option: str, system) -> None:
    """Apply the effect of the chosen option."""
    s, player, planet, here = em.state, ex["player"], ex["planet"], ex["system"]
    card_id = ex["card"].split("#", 1)[0]
    me = s["players"][player]
    if option == "attach" and card_type(card_id).get("blocks_ground_forces"):
        for other, n in sorted(s["planets"][planet]["ground_forces"].items()):
            em.emit("ground_forces_removed", player=other, planet=planet, count=n, reason=card_id)
    elif option == "buy_ship":
        em.emit("trade_goods_changed", player=player, delta=-CONST["freelancers_cost"], reason=card_id)
        em.emit("units_placed", player=player, system=here, planet=None, ships=1, ground_forces=0, reason=card_id)
    elif option == "place" and card_id == CONST["mirage"]:
        em.emit("planet_added", planet=CONST["mirage"], system=here)
        gain_planet(em, player, CONST["mirage"], exhausted=False, explore=False)
    elif option == "place":
        token = "ion-storm" if card_id == "ion-storm" else "gamma"
        em.emit("wormhole_token_placed", system=here, token=token)
    elif option == "place_ground_force":
        em.emit("units_placed", player=player, system=here, planet=planet, ships=0, ground_forces=1,
                reason=card_id)
    elif option in ("gain_commodities", "gain_commodity"):
        _gain_commodities(em, player, 2 if option == "gain_commodities" else 1, card_id)
    elif option == "convert_commodities":
        n = me["commodities"] if card_id == "merchant-station" else min(2, me["commodities"])
        _convert(em, player, n, card_id)
    elif option in ("ready_pay_trade_good", "ready_pay_commodity"):
        _pay(em, player, option, card_id)
        em.emit("planet_readied", planet=planet)
    elif option in ("place_pay_trade_good", "place_pay_commodity"):
        _pay(em, player, option, card_id)
        em.emit("units_placed", player=player, system=here, planet=planet, ships=0, ground_forces=1,
                reason=card_id)
    elif option == "remove_ground_force":
        em.emit("ground_forces_removed", player=player, planet=planet, count=1, reason=card_id)
        reward = REMOVE_REWARDS.get(card_id)
        if reward == "trade_good":
            em.emit("trade_goods_changed", player=player, delta=1, reason=card_id)
        elif reward == "ready":
            em.emit("planet_readied", planet=planet)
        else:
            em.emit("command_tokens_changed", player=player, delta=1, reason=card_id)
    elif option == "place_ship":
        em.emit("units_placed", player=player, system=here, planet=None, ships=1, ground_forces=0, reason=card_id)
    elif option == "gain":
        em.emit("trade_goods_changed", player=player, delta=2, reason=card_id)
        if system:
            em.emit("frontier_token_placed", system=system, source="lost-crew")
    elif option == "replenish_commodities":
        _gain_commodities(em, player, board.commodity_value(s, player), card_id)


def _fate(em: Emitter, ex: dict) -> None:
    """Emit exactly one fate event (explore.fate, 73.7, 73.8, 73.9, 73.comment-2, 73.comment-3)."""
    card, kind = ex["card"], card_type(ex["card"])
    fate = kind["fate"]
    if fate == "discard":
        em.emit("card_discarded", card=card, deck=kind["deck"])
    elif fate == "attach":
        em.emit("card_attached", card=card, planet=ex["planet"])
    elif fate == "fragment":
        em.emit("relic_fragment_gained", player=ex["player"], card=card, fragment_type=kind["fragment_type"])
    elif fate == "purge":
        em.emit("card_purged", card=card)
    else:
        em.emit("card_kept_in_play", card=card, area=ex["player"] if fate == "player" else "common")


def resolve(em: Emitter, option: str, system) -> None:
    """Resolve the pending card completely (73.7): decision, effect, fate, token removal, then a Mirage exploration."""
    ex = dict(em.state["exploration"])
    em.emit("exploration_card_resolved", player=ex["player"], card=ex["card"], option=option, system=system)
    _effect(em, ex, option, system)
    _fate(em, ex)
    finish_exploration(em, ex)
    if ex["card"].split("#", 1)[0] == CONST["mirage"] and option == "place":
        explore_planet(em, ex["player"], CONST["mirage"], "mirage")
