"""Exploration commands: choose a deck, resolve a card, Dark Energy Tap, the Crown, and ending the turn (§5.1, §5.6-5.7)."""
from __future__ import annotations

from domain.engine.text import T, joined

from .command_text import lot_item, option_words, title

from . import board, cards, flow
from .board import CROWN
from .data import PLANETS, card_type
from .handler import Handler, fail, no_check


def _stage(name: str):
    def when(state: dict, player: str) -> bool:
        ex = state["exploration"]
        return bool(ex) and ex["stage"] == name and ex["player"] == player
    return when


def _after_action(state: dict, player: str) -> bool:
    return state["step"] == "after_action" and state["exploration"] is None


# --- choose_exploration_deck --------------------------------------------------------------------------------

def check_deck(state: dict, player: str, payload: dict) -> None:
    """73.2c: the deck must match one of the planet's traits."""
    decks = state["exploration"]["decks"]
    if payload["deck"] not in decks:
        fail("73.2c", T("{planet} can only be explored with the {items} deck.",
                        planet=title(state['exploration']['planet']), items=joined(map(title, decks), T(" or "))))


def apply_deck(em, player: str, payload: dict) -> None:
    """Record the choice and draw from that deck."""
    ex = em.state["exploration"]
    em.emit("exploration_deck_chosen", player=player, planet=ex["planet"], deck=payload["deck"])
    flow.draw_card(em, payload["deck"])


def legal_deck(state: dict, player: str) -> list:
    """Every deck matching the planet's traits."""
    return [{"deck": d} for d in state["exploration"]["decks"]]


# --- resolve_exploration ------------------------------------------------------------------------------------

def check_resolve(state: dict, player: str, payload: dict) -> None:
    """73.7 (the card's own options), explore.options (valid now; `system` only for lost-crew)."""
    ex = state["exploration"]
    option, system = payload["option"], payload.get("system")
    kind = card_type(ex["card"])
    if option not in kind["options"]:
        fail("73.7", T("{card} offers only these options: {items}.", card=title(ex['card']),
               items=joined(map(option_words, kind['options']), T(" or "))))
    if not cards.option_holds(state, ex, option):
        fail("explore.options", T("{card}: {option} is not possible right now.", option=option_words(option),
                                  card=title(ex['card'])))
    if option != "gain" and system is not None:
        fail("explore.options", T("Only Lost Crew takes a system."))
    if option == "gain" and system is not None and system not in cards.lost_crew_targets(state, ex["system"]):
        fail("explore.options", T("{system} must be adjacent, without planets and without a frontier token.",
                                  system=title(system)))


def apply_resolve(em, player: str, payload: dict) -> None:
    """Resolve the revealed card completely."""
    cards.resolve(em, payload["option"], payload.get("system"))


def legal_resolve(state: dict, player: str) -> list:
    """Every option (and lost-crew system) valid now."""
    return cards.option_payloads(state, state["exploration"])


# --- after_action -------------------------------------------------------------------------------------------

def apply_frontier(em, player: str, payload: dict) -> None:
    """Explore the frontier token of the active system (Dark Energy Tap)."""
    flow.explore_frontier(em, player, em.state["active_system"])


def legal_frontier(state: dict, player: str) -> list:
    """Offered only when the frontier exploration is due."""
    return [{}] if state["det_due"] else []


def check_crown(state: dict, player: str, payload: dict) -> None:
    """relic.crown-explore, 73.3 (an explored planet may be explored again), 73.2b."""
    entry = board.relic_entry(state, player, CROWN)
    if not entry or entry["exhausted"]:
        fail("relic.crown-explore", T("You need a ready Crown of Emphidia."))
    planet = payload["planet"]
    if planet not in state["planets"] or state["planets"][planet]["controller"] != player:
        fail("relic.crown-explore", T("The Crown explores a planet you control; {planet} is not yours.",
                                      planet=title(planet)))
    if not PLANETS[planet]["traits"]:
        fail("73.2b", T("{planet} has no trait and cannot be explored.", planet=title(planet)))


def apply_crown(em, player: str, payload: dict) -> None:
    """Exhaust the Crown and explore the planet."""
    em.emit("relic_used", player=player, relic=CROWN, planet=payload["planet"])
    flow.explore_planet(em, player, payload["planet"], "crown")


def legal_crown(state: dict, player: str) -> list:
    """Every planet the ready Crown may explore."""
    if not board.crown_usable(state, player):
        return []
    return [{"planet": p} for p in board.crown_targets(state, player)]


def check_end_turn(state: dict, player: str, payload: dict) -> None:
    """tech.dark-energy-tap: a due frontier exploration must be resolved first."""
    if state["det_due"]:
        fail("tech.dark-energy-tap", T("Dark Energy Tap is mandatory: explore the frontier token first."))


def apply_end_turn(em, player: str, payload: dict) -> None:
    """End the turn."""
    flow.end_turn(em, player)


def legal_end_turn(state: dict, player: str) -> list:
    """end_turn is offered once no exploration is due."""
    return [] if state["det_due"] else [{}]


HANDLERS = {
    "choose_exploration_deck": Handler(_stage("choose_deck"), check_deck, apply_deck, legal_deck),
    "resolve_exploration": Handler(_stage("revealed"), check_resolve, apply_resolve, legal_resolve),
    "explore_frontier": Handler(_after_action, no_check, apply_frontier, legal_frontier),
    "use_crown_of_emphidia": Handler(_after_action, check_crown, apply_crown, legal_crown),
    "end_turn": Handler(_after_action, check_end_turn, apply_end_turn, legal_end_turn),
}
EXPLORATION_STAGE_COMMANDS = {"choose_deck": {"choose_exploration_deck"},
                              "revealed": {"resolve_exploration", "propose_transaction"}}
