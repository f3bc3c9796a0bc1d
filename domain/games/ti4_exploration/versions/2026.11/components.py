"""Component actions and pass: relic fragments, research, Enigmatic Device, Nano-Forge, Maw of Worlds (§5.8-5.9)."""
from __future__ import annotations

from domain.engine.text import T

from .command_text import lot_item, title

from . import board, flow
from .board import MAW, NANO_FORGE
from .data import CONST, PLANET_DECKS, TECHNOLOGIES
from .handler import Handler, empty_payload, fail, no_check


def _choose_action(state: dict, player: str) -> bool:
    return state["step"] == "choose_action" and state["exploration"] is None


# --- purge_fragments ----------------------------------------------------------------------------------------

def check_purge(state: dict, player: str, payload: dict) -> None:
    """relics.purge-three, relics.unknown, 73.9a (only fragments in front of you)."""
    kind, unknown = payload["fragment_type"], payload["unknown"]
    frags = state["players"][player]["fragments"]
    need = CONST["fragments_per_relic"]
    if kind not in PLANET_DECKS:
        fail("relics.purge-three", T("Choose cultural, industrial or hazardous fragments to purge."))
    if unknown < 0 or len(frags[kind]) < need - unknown or len(frags["unknown"]) < unknown:
        fail("relics.purge-three", T("You need {need} fragments of the kind {kind} (unknown ones count) in front of you.",
                                     need=need, kind=lot_item(kind)))
    if unknown > CONST["max_unknown_fragments"]:
        fail("relics.unknown", T("At least 1 of the {need} purged fragments must be of the kind {kind}.", need=need,
                                 kind=lot_item(kind)))


def apply_purge(em, player: str, payload: dict) -> None:
    """Purge the fragments, draw a relic at random (or find the deck empty), and end the turn."""
    s = em.state
    kind, unknown = payload["fragment_type"], payload["unknown"]
    typed = CONST["fragments_per_relic"] - unknown
    frags = s["players"][player]["fragments"]
    spent = frags[kind][-typed:] + (frags["unknown"][-unknown:] if unknown else [])
    em.emit("relic_fragments_purged", player=player, fragment_type=kind, typed=typed, unknown=unknown, cards=spent)
    deck = s["relic_deck"]
    if deck:
        em.emit("relic_drawn", player=player, relic=deck[em.rng.randint(0, len(deck) - 1)])
    else:
        em.emit("relic_deck_was_empty", player=player)
    flow.end_turn(em, player)


def legal_purge(state: dict, player: str) -> list:
    """Every (fragment_type, unknown) purge possible now."""
    frags = state["players"][player]["fragments"]
    need = CONST["fragments_per_relic"]
    return [{"fragment_type": kind, "unknown": u} for kind in PLANET_DECKS
            for u in range(0, CONST["max_unknown_fragments"] + 1)
            if len(frags[kind]) >= need - u and len(frags["unknown"]) >= u]


# --- technologies -------------------------------------------------------------------------------------------

def _unowned(state: dict, player: str) -> list:
    return [t for t in TECHNOLOGIES if not board.owns_tech(state, player, t)]


def check_research(state: dict, player: str, payload: dict) -> None:
    """tech.research: a technology you lack, 1 command token and 5 TG."""
    me = state["players"][player]
    if payload["technology"] not in _unowned(state, player):
        fail("tech.research", T("{technology} is not a technology you can still gain.",
                                technology=title(payload['technology'])))
    if me["command_tokens"] < CONST["research_command_tokens"] or me["trade_goods"] < CONST["research_trade_goods"]:
        fail("tech.research", T("Research costs {research_command_tokens} command token and {research_trade_goods} TG.", research_command_tokens=CONST['research_command_tokens'], research_trade_goods=CONST['research_trade_goods']))


def apply_research(em, player: str, payload: dict) -> None:
    """Pay and gain the technology, then end the turn."""
    em.emit("command_tokens_changed", player=player, delta=-CONST["research_command_tokens"], reason="research")
    em.emit("trade_goods_changed", player=player, delta=-CONST["research_trade_goods"], reason="research")
    em.emit("technology_gained", player=player, technology=payload["technology"], via="research")
    flow.end_turn(em, player)


def legal_research(state: dict, player: str) -> list:
    """Every affordable technology."""
    me = state["players"][player]
    if me["command_tokens"] < CONST["research_command_tokens"] or me["trade_goods"] < CONST["research_trade_goods"]:
        return []
    return [{"technology": t} for t in _unowned(state, player)]


def check_device(state: dict, player: str, payload: dict) -> None:
    """tech.enigmatic-device: own a device, 6 TG, a technology you lack."""
    me = state["players"][player]
    if not me["devices"]:
        fail("tech.enigmatic-device", T("You have no Enigmatic Device in your play area."))
    if payload["technology"] not in _unowned(state, player):
        fail("tech.enigmatic-device", T("{technology} is not a technology you can still gain.",
                                        technology=title(payload['technology'])))
    if me["trade_goods"] < CONST["enigmatic_device_trade_goods"]:
        fail("tech.enigmatic-device", T("The Enigmatic Device costs {enigmatic_device_trade_goods} TG.",
                                        enigmatic_device_trade_goods=CONST['enigmatic_device_trade_goods']))


def apply_device(em, player: str, payload: dict) -> None:
    """Pay, purge the device (73.comment-2), gain the technology, end the turn."""
    device = em.state["players"][player]["devices"][0]
    em.emit("trade_goods_changed", player=player, delta=-CONST["enigmatic_device_trade_goods"],
            reason="enigmatic-device")
    em.emit("card_purged", card=device)
    em.emit("technology_gained", player=player, technology=payload["technology"], via="enigmatic-device")
    flow.end_turn(em, player)


def legal_device(state: dict, player: str) -> list:
    """Every technology the device may give now."""
    me = state["players"][player]
    if not me["devices"] or me["trade_goods"] < CONST["enigmatic_device_trade_goods"]:
        return []
    return [{"technology": t} for t in _unowned(state, player)]


# --- relics -------------------------------------------------------------------------------------------------

def _forge_targets(state: dict, player: str) -> list:
    return [p for p in board.controlled(state, player) if not board.is_home_planet(p)]


def check_forge(state: dict, player: str, payload: dict) -> None:
    """relics.nano-forge: own it; attach it to a non-home planet you control."""
    if not board.relic_entry(state, player, NANO_FORGE):
        fail("relics.nano-forge", T("You do not own the Nano-Forge."))
    if payload["planet"] not in _forge_targets(state, player):
        fail("relics.nano-forge", T("The Nano-Forge goes on a non-home planet you control, not {planet}.",
                                    planet=title(payload['planet'])))


def apply_forge(em, player: str, payload: dict) -> None:
    """Attach the Nano-Forge and end the turn."""
    em.emit("relic_used", player=player, relic=NANO_FORGE, planet=payload["planet"])
    flow.end_turn(em, player)


def legal_forge(state: dict, player: str) -> list:
    """Every planet the Nano-Forge may go on."""
    if not board.relic_entry(state, player, NANO_FORGE):
        return []
    return [{"planet": p} for p in _forge_targets(state, player)]


def check_maw(state: dict, player: str, payload: dict) -> None:
    """relics.maw: own it; gain a technology you lack."""
    if not board.relic_entry(state, player, MAW):
        fail("relics.maw", T("You do not own the Maw of Worlds."))
    if payload["technology"] not in _unowned(state, player):
        fail("relics.maw", T("{technology} is not a technology you can still gain.",
                             technology=title(payload['technology'])))


def apply_maw(em, player: str, payload: dict) -> None:
    """Purge the Maw, exhaust every planet, gain the technology, end the turn."""
    em.emit("relic_used", player=player, relic=MAW, technology=payload["technology"])
    em.emit("relic_purged", player=player, relic=MAW)
    em.emit("planets_exhausted", player=player, planets=board.controlled(em.state, player))
    em.emit("technology_gained", player=player, technology=payload["technology"], via="maw-of-worlds")
    flow.end_turn(em, player)


def legal_maw(state: dict, player: str) -> list:
    """Every technology the Maw may give."""
    if not board.relic_entry(state, player, MAW):
        return []
    return [{"technology": t} for t in _unowned(state, player)]


def apply_pass(em, player: str, payload: dict) -> None:
    """Pass for the rest of the round."""
    em.emit("player_passed", player=player)
    flow.end_turn(em, player)


HANDLERS = {
    "purge_fragments": Handler(_choose_action, check_purge, apply_purge, legal_purge),
    "research": Handler(_choose_action, check_research, apply_research, legal_research),
    "use_enigmatic_device": Handler(_choose_action, check_device, apply_device, legal_device),
    "use_nano_forge": Handler(_choose_action, check_forge, apply_forge, legal_forge),
    "use_maw_of_worlds": Handler(_choose_action, check_maw, apply_maw, legal_maw),
    "pass": Handler(_choose_action, no_check, apply_pass, empty_payload),
}
