"""The five bonus actions of the bonus action tokens: checks, candidate payloads and events."""
from __future__ import annotations

from domain.engine import event
from domain.engine.text import T, joined, name as printed

from .building import build_candidates, build_events, check_build
from .common import is_int, require
from .data import BONUS_COSTS, RESOURCES, TEMPLE_TOP, TEMPLES, WAR
from .mains import attack_event


def _cost(cmd: str, res: str) -> int:
    return BONUS_COSTS.get(cmd, {}).get(res, 0)


def check_bonus_temple(state, player, visit, payload):
    """bonus.temple: 1 stone, a temple below the top."""
    temple = payload.get("temple")
    require(temple in TEMPLES, "bonus.temple", T("There is no such temple; the temples are those of {items}.",
                                                 items=joined(map(printed, TEMPLES))))
    require(player["resources"]["stone"] >= _cost("bonus_temple", "stone"), "bonus.temple",
            T("The temple bonus costs 1 stone."))
    require(player["temples"][temple] < TEMPLE_TOP, "bonus.temple",
            T("Your disc on the {temple} temple is already at the top.", temple=printed(temple)))


def cand_bonus_temple(state, player, visit):
    """One payload per temple."""
    return [{"temple": t} for t in TEMPLES]


def do_bonus_temple(state, pid, player, visit, payload, rng):
    """temple_advanced by 1, no zodiac card."""
    temple = payload["temple"]
    frm = player["temples"][temple]
    return [event("temple_advanced", player=pid, temple=temple, **{"from": frm}, to=frm + 1,
                  stone_paid=_cost("bonus_temple", "stone"), source="bonus")]


def check_bonus_build(state, player, visit, payload):
    """bonus.build: 1 food, then the usual build checks."""
    require(player["resources"]["food"] >= _cost("bonus_build", "food"), "bonus.build",
            T("The build bonus costs 1 food."))
    check_build(state, player, payload)


def cand_bonus_build(state, player, visit):
    """Every build payload, if the food can be paid."""
    if player["resources"]["food"] < _cost("bonus_build", "food"):
        return []
    return build_candidates(state, player)


def do_bonus_build(state, pid, player, visit, payload, rng):
    """The build events with the food paid."""
    return build_events(state, pid, payload, rng, "bonus", _cost("bonus_build", "food"))


def check_bonus_war(state, player, visit, payload):
    """bonus.war (1 wisdom; advance below the top) and attack.once-per-round."""
    choice = payload.get("choice")
    require(choice in ("advance", "attack"), "bonus.war", T("Choose advance or attack."))
    require(player["resources"]["wisdom"] >= _cost("bonus_war", "wisdom"), "bonus.war",
            T("The war bonus costs 1 wisdom."))
    if choice == "advance":
        require(player["war"] < WAR["max"], "bonus.war", T("Your war disc is already at the top."))
    else:
        require(not player["attacked"], "attack.once-per-round", T("You have already attacked this round."))


def cand_bonus_war(state, player, visit):
    """Advance and attack."""
    return [{"choice": "advance"}, {"choice": "attack"}]


def do_bonus_war(state, pid, player, visit, payload, rng):
    """war_advanced or attack_made, paying the wisdom."""
    paid = _cost("bonus_war", "wisdom")
    if payload["choice"] == "advance":
        return [event("war_advanced", player=pid, **{"from": player["war"]}, to=player["war"] + 1,
                      wisdom_paid=paid)]
    return [attack_event(state, pid, paid, "bonus")]


def check_bonus_orator(state, player, visit, payload):
    """bonus.orator: a non-empty orator slot."""
    slot = payload.get("slot")
    require(is_int(slot) and 1 <= slot <= len(state["orator_row"]) and state["orator_row"][slot - 1],
            "bonus.orator", T("Choose an orator slot that holds a die."))


def cand_bonus_orator(state, player, visit):
    """One payload per orator slot."""
    return [{"slot": s} for s in range(1, len(state["orator_row"]) + 1)]


def do_bonus_orator(state, pid, player, visit, payload, rng):
    """orator_die_taken (no stand is used: orator.no-stand)."""
    slot = payload["slot"]
    return [event("orator_die_taken", player=pid, slot=slot, die=state["orator_row"][slot - 1]["id"])]


def check_bonus_resource(state, player, visit, payload):
    """bonus.resource: one of stone, food, wisdom."""
    require(payload.get("resource") in RESOURCES, "bonus.resource", T("Choose stone, food or wisdom."))


def cand_bonus_resource(state, player, visit):
    """One payload per basic resource."""
    return [{"resource": r} for r in RESOURCES]


def do_bonus_resource(state, pid, player, visit, payload, rng):
    """resources_gained +1 of the chosen resource."""
    gains = {r: int(r == payload["resource"]) for r in RESOURCES}
    return [event("resources_gained", player=pid, gains=gains, source="bonus")]


BONUS_ACTIONS = {
    "bonus_temple": (check_bonus_temple, cand_bonus_temple, do_bonus_temple),
    "bonus_build": (check_bonus_build, cand_bonus_build, do_bonus_build),
    "bonus_war": (check_bonus_war, cand_bonus_war, do_bonus_war),
    "bonus_orator": (check_bonus_orator, cand_bonus_orator, do_bonus_orator),
    "bonus_resource": (check_bonus_resource, cand_bonus_resource, do_bonus_resource),
}
