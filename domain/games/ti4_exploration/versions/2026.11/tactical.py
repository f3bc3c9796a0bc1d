"""Tactical action commands: activate, move, invade, gain control, produce (§5.3)."""
from __future__ import annotations

from domain.engine.text import T, joined

from .command_text import title

from . import board, flow
from .data import CONST, SYSTEMS
from .handler import Handler, empty_payload, fail, no_check


def _step(name: str):
    def when(state: dict, player: str) -> bool:
        return state["step"] == name
    return when


# --- activate_system ----------------------------------------------------------------------------------------

def _reachable(state: dict, player: str, system: str) -> bool:
    """tactical.eligible-system: home, own ships there, or next to own movable ships."""
    if system == board.home_of(state, player) or board.ships(state, system, player) > 0:
        return True
    done = state["activated"].get(player, [])
    return any(board.ships(state, s, player) > 0 and s not in done for s in board.neighbours(state, system))


def check_activate(state: dict, player: str, payload: dict) -> None:
    """tactical.command-token, tactical.once-per-round, tactical.eligible-system, movement.blockade."""
    system = payload["system"]
    if system not in SYSTEMS:
        fail("tactical.eligible-system", T("There is no such system."))
    if state["players"][player]["command_tokens"] < 1:
        fail("tactical.command-token", T("Activating a system costs a command token and you have none left."))
    if system in state["activated"].get(player, []):
        fail("tactical.once-per-round", T("You have already activated {system} this round.", system=title(system)))
    if not _reachable(state, player, system):
        fail("tactical.eligible-system",
             T("{system} is not your home, holds none of your ships and is not next to any ship you can move.",
               system=title(system)))
    if board.other_ships(state, system, player):
        fail("movement.blockade", T("{system} holds another player's ships, so you cannot activate it.",
                                    system=title(system)))


def apply_activate(em, player: str, payload: dict) -> None:
    """Spend a command token and activate the system."""
    left = em.state["players"][player]["command_tokens"] - 1
    em.emit("system_activated", player=player, system=payload["system"], command_tokens_left=left)


def legal_activate(state: dict, player: str) -> list:
    """Every system the player may activate now."""
    if state["players"][player]["command_tokens"] < 1:
        return []
    done = state["activated"].get(player, [])
    return [{"system": s} for s in SYSTEMS
            if s not in done and _reachable(state, player, s) and not board.other_ships(state, s, player)]


# --- move_ships ---------------------------------------------------------------------------------------------

def check_move(state: dict, player: str, payload: dict) -> None:
    """movement.adjacent, movement.wormholes, tactical.once-per-round, movement.capacity."""
    src, active = payload["from"], state["active_system"]
    n_ships, n_forces = payload["ships"], payload["ground_forces"]
    if src not in SYSTEMS or src == active or src not in board.neighbours(state, active):
        if src in SYSTEMS and (board.has_wormhole(state, src) or board.has_wormhole(state, active)):
            fail("movement.wormholes", T("{src} and {active} are not both wormhole systems, nor are they adjacent.",
                                         src=title(src), active=title(active)))
        fail("movement.adjacent", T("Ships may only move 1 hop into {active} from an adjacent system.",
                                    active=title(active)))
    if src in state["activated"].get(player, []):
        fail("tactical.once-per-round", T("Your ships in {src} cannot move: you activated it this round.",
                                          src=title(src)))
    have_s, have_g = board.ships(state, src, player), board.space_forces(state, src, player)
    if n_ships < 1 or n_ships > have_s:
        fail("movement.capacity", T("You must move between 1 and {have_s} ships from {src}.", have_s=have_s,
                                    src=title(src)))
    cap = CONST["ship_capacity"]
    if n_forces < 0 or n_forces > have_g or n_forces > cap * n_ships:
        fail("movement.capacity", T("{n_ships} ships can carry at most {min} ground forces.", n_ships=n_ships,
                                    min=min(have_g, cap * n_ships)))
    if have_g - n_forces > cap * (have_s - n_ships):
        fail("movement.capacity", T("The ground forces left in {src} would exceed the capacity of the ships left.",
                                    src=title(src)))


def apply_move(em, player: str, payload: dict) -> None:
    """Move ships and their ground forces into the active system."""
    em.emit("ships_moved", player=player, **{"from": payload["from"]}, to=em.state["active_system"],
            ships=payload["ships"], ground_forces=payload["ground_forces"])


def legal_move(state: dict, player: str) -> list:
    """Every (from, ships, ground_forces) move possible now."""
    cap = CONST["ship_capacity"]
    result = []
    for src in flow.movable_sources(state, player):
        have_s, have_g = board.ships(state, src, player), board.space_forces(state, src, player)
        for n in range(1, have_s + 1):
            for g in range(max(0, have_g - cap * (have_s - n)), min(have_g, cap * n) + 1):
                result.append({"from": src, "ships": n, "ground_forces": g})
    return result


def apply_end_movement(em, player: str, payload: dict) -> None:
    """End the movement step."""
    em.emit("movement_ended", player=player)


# --- invasion -----------------------------------------------------------------------------------------------

def check_commit(state: dict, player: str, payload: dict) -> None:
    """invasion.commit, invasion.dmz."""
    planet, count = payload["planet"], payload["count"]
    active = state["active_system"]
    if planet not in board.planets_in(state, active):
        fail("invasion.commit", T("{planet} is not a planet of the active system {active}.", planet=title(planet),
                                  active=title(active)))
    have = board.space_forces(state, active, player)
    if count < 1 or count > have:
        fail("invasion.commit", T("You can commit between 1 and {have} ground forces.", have=have))
    if board.has_dmz(state, planet):
        fail("invasion.dmz", T("{planet} is a demilitarized zone: no ground forces may land there.",
                               planet=title(planet)))


def apply_commit(em, player: str, payload: dict) -> None:
    """Land ground forces on a planet."""
    em.emit("ground_forces_committed", player=player, planet=payload["planet"], count=payload["count"])


def legal_commit(state: dict, player: str) -> list:
    """Every (planet, count) commit possible now."""
    have = board.space_forces(state, state["active_system"], player)
    return [{"planet": p, "count": n} for p in flow.commit_targets(state) for n in range(1, have + 1)]


def apply_end_invasion(em, player: str, payload: dict) -> None:
    """End the invasion: combat and the planets to gain."""
    flow.end_invasion(em, player)


# --- control ------------------------------------------------------------------------------------------------

def when_gain(state: dict, player: str) -> bool:
    """gain_control is a choice only with at least 2 planets to gain."""
    return state["step"] == "control" and len(state["to_gain"]) >= 2


def check_gain(state: dict, player: str, payload: dict) -> None:
    """73.comment-4: choose one of the planets waiting to be gained."""
    if payload["planet"] not in state["to_gain"]:
        fail("73.comment-4", T("{planet} is not among the planets you are gaining: {to_gain}.",
                               planet=title(payload['planet']), to_gain=joined(map(title, state['to_gain']))))


def apply_gain(em, player: str, payload: dict) -> None:
    """Gain the chosen planet (and explore it if it was uncontrolled)."""
    flow.gain_planet(em, player, payload["planet"])


def legal_gain(state: dict, player: str) -> list:
    """Every planet waiting to be gained."""
    return [{"planet": p} for p in state["to_gain"]]


# --- production ---------------------------------------------------------------------------------------------

def check_produce(state: dict, player: str, payload: dict) -> None:
    """production.home, movement.capacity."""
    home = board.home_of(state, player)
    n_ships, n_forces = payload["ships"], payload["ground_forces"]
    if state["active_system"] != home:
        fail("production.home", T("You can only produce when your home system is the active system."))
    if n_ships < 0 or n_forces < 0 or not 1 <= n_ships + n_forces <= CONST["max_units_per_production"]:
        fail("production.home", T("A production makes 1 to {max_units_per_production} units.",
                                  max_units_per_production=CONST['max_units_per_production']))
    cost = flow.production_cost(state, player, n_ships, n_forces)
    if cost > state["players"][player]["trade_goods"]:
        fail("production.home", T("That production costs {cost} TG and you have fewer.", cost=cost))
    cap = CONST["ship_capacity"]
    if board.space_forces(state, home, player) + n_forces > cap * (board.ships(state, home, player) + n_ships):
        fail("movement.capacity", T("Your ships at home could not carry that many ground forces."))


def apply_produce(em, player: str, payload: dict) -> None:
    """Pay and place the new units at home, then move on to after_action."""
    s = em.state
    cost = flow.production_cost(s, player, payload["ships"], payload["ground_forces"])
    em.emit("units_produced", player=player, system=board.home_of(s, player), ships=payload["ships"],
            ground_forces=payload["ground_forces"], cost=cost)
    flow.enter_after_action(em, player)


def apply_skip_production(em, player: str, payload: dict) -> None:
    """Produce nothing and move on to after_action."""
    flow.enter_after_action(em, player)


HANDLERS = {
    "activate_system": Handler(lambda s, p: s["step"] == "choose_action", check_activate, apply_activate,
                               legal_activate),
    "move_ships": Handler(_step("movement"), check_move, apply_move, legal_move),
    "end_movement": Handler(_step("movement"), no_check, apply_end_movement, empty_payload),
    "commit_ground_forces": Handler(_step("invasion"), check_commit, apply_commit, legal_commit),
    "end_invasion": Handler(_step("invasion"), no_check, apply_end_invasion, empty_payload),
    "gain_control": Handler(when_gain, check_gain, apply_gain, legal_gain),
    "produce": Handler(_step("production"), check_produce, apply_produce, flow.production_options),
    "skip_production": Handler(_step("production"), no_check, apply_skip_production, empty_payload),
}
