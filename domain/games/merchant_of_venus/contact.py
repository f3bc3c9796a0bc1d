"""Observing face-down cultures and First Contact."""
from __future__ import annotations

from domain.engine.text import T

from . import data
from .state import player, violate


def check_observe(state: dict, pid: str) -> None:
    """Validate observe (contact.observe, contact.observe-window)."""
    square = player(state, pid)["square"]
    system = data.system_of(square)
    if data.SQUARES[square]["kind"] != "orbital" or system in state["revealed"]:
        violate("contact.observe", T("You can observe only from an orbital square of a system with a face-down card."))
    if square not in state["turn"]["entered_orbitals"]:
        violate("contact.observe-window", T("You can observe only from an orbital square entered this turn."))
    if system in player(state, pid)["observed"]:
        violate("contact.observe-window", T("You have already observed this system."))


def can_observe(state: dict, pid: str) -> bool:
    """True when `observe` is legal now (phase aside)."""
    square = player(state, pid)["square"]
    system = data.system_of(square)
    return (data.SQUARES[square]["kind"] == "orbital" and system not in state["revealed"]
            and square in state["turn"]["entered_orbitals"] and system not in player(state, pid)["observed"])


def observe(sim, pid: str) -> None:
    """Emit culture_observed; the culture field is private to the observer."""
    system = data.system_of(player(sim.state, pid)["square"])
    sim.emit("culture_observed", player=pid, system=system, culture=sim.state["placement"][system])


def maybe_first_contact(sim, pid: str) -> None:
    """contact.trigger / contact.reveal: ending on a face-down system's city or port reveals it."""
    square = player(sim.state, pid)["square"]
    sq = data.SQUARES[square]
    system = sq["system"]
    if sq["kind"] not in ("city", "port") or system in sim.state["revealed"]:
        return
    culture = sim.state["placement"][system]
    sim.emit("first_contact_made", player=pid, system=system, culture=culture,
             iou=data.CULTURES[culture]["iou"],
             passengers=[p for p in data.PASSENGER_ORDER if sim.state["passenger_at"][p] == culture],
             demands=[d for d in data.DEMAND_ORDER if sim.state["demand_at"][d] == culture],
             spaceport_deeds=list(data.SYSTEMS[system]["orbitals"]))
