"""Visits: sending a worker to a site, doing its main action and bonus, and ending the visit."""
from __future__ import annotations

import json

from domain.engine import RuleViolation, event
from domain.engine.text import T

from .bonuses import BONUS_ACTIONS
from .command_text import words
from .common import ARCHON, citizen_die, free_stands, next_player, next_dial, orator_die, require
from .data import BONUS_TOKEN, DICE, MAIN_SITE, SITES
from .evolve import apply_visit_to_player, visit_record
from .mains import MAIN_ACTIONS


def _passes(check, state, player, visit, payload) -> bool:
    try:
        check(state, player, visit, payload)
    except RuleViolation:
        return False
    return True


def main_commands(state: dict, player: dict, visit: dict) -> list:
    """Every legal main-action command for an open visit (none once the main is done)."""
    if visit["main_done"]:
        return []
    out = []
    for ctype, site in MAIN_SITE.items():
        if site != visit["site"]:
            continue
        check, cands, _ = MAIN_ACTIONS[ctype]
        out += [{"type": ctype, "payload": p} for p in cands(state, player, visit)
                if _passes(check, state, player, visit, p)]
    return out


def bonus_pending(visit: dict) -> bool:
    """The worker matched the token and the bonus is not done yet."""
    return visit["bonus_available"] and not visit["bonus_done"]


def bonus_commands(state: dict, player: dict, visit: dict) -> list:
    """Every legal bonus command for an open visit (none unless the bonus is pending)."""
    if not bonus_pending(visit):
        return []
    token = state["sites"][visit["site"]]["token"]
    out = []
    for ctype, tok in BONUS_TOKEN.items():
        if tok != token:
            continue
        check, cands, _ = BONUS_ACTIONS[ctype]
        out += [{"type": ctype, "payload": p} for p in cands(state, player, visit)
                if _passes(check, state, player, visit, p)]
    return out


def _worker(player: dict, worker):
    """(kind, colour, value) of a ready worker, or None (visit.worker)."""
    if worker == ARCHON:
        return None if player["archon_used"] else ("archon", None, None)
    die = citizen_die(player, worker)
    if die is not None:
        return None if die["used"] else ("citizen", die["colour"], die["value"])
    die = orator_die(player, worker)
    if die is not None:
        return ("orator", die["colour"], die["value"])
    return None


def visit_event(state: dict, pid: str, payload: dict) -> dict:
    """Check a visit (visit.worker, visit.dial-cost, visit.main-possible) and return site_visited."""
    player = state["players"][pid]
    worker, site = payload.get("worker"), payload.get("site")
    require(isinstance(site, str) and site in SITES, "visit.main-possible", T("There is no such site."))
    found = _worker(player, worker)
    require(found is not None, "visit.worker", T("That worker is not a ready worker of yours."))
    kind, colour, value = found
    dial = state["sites"][site]["dial"]
    paid = 0 if kind == "archon" else max(0, dial - value)
    require(player["resources"]["wisdom"] >= paid, "visit.dial-cost",
            T("The {site} dial shows {dial}: you need {paid} wisdom to visit with a {value}.", site=words(site),
              dial=dial, paid=paid, value=value))
    ev = event("site_visited", player=pid, site=site, worker=worker, wisdom_paid=paid, dial_from=dial,
               dial_to=next_dial(dial),
               die_value_to=min(DICE["max_value"], value + 1) if kind == "citizen" else None,
               bonus_available=kind != "archon" and colour == state["sites"][site]["colour"])
    preview = json.loads(json.dumps(player))  # a JSON copy: several times faster than deepcopy
    record = visit_record(preview, ev["data"])
    apply_visit_to_player(preview, ev["data"])
    if not main_commands(state, preview, record):
        if site == MAIN_SITE["take_citizen_die"] and free_stands(preview) == 0:
            raise RuleViolation("citizen.needs-free-stand", T("You have no free dice stand for a new citizen die."))
        raise RuleViolation("visit.main-possible", T("You could not do the {site} main action after this visit.",
                                                     site=words(site)))
    return ev


def closing_events(state: dict, pid: str, visit_after: dict) -> list:
    """visit_ended + turn_ended when the main is done and no bonus is pending (visit sub-steps)."""
    if visit_after["main_done"] and not bonus_pending(visit_after):
        return [event("visit_ended", player=pid, forfeited=[]),
                event("turn_ended", player=pid, next=next_player(state))]
    return []


def action_events(state: dict, pid: str, ctype: str, payload: dict, rng) -> list:
    """Check and perform a main or bonus command during the player's open visit."""
    visit = state["visit"]
    player = state["players"][pid]
    if ctype in MAIN_ACTIONS:
        require(visit is not None and MAIN_SITE[ctype] == visit["site"] and not visit["main_done"],
                "visit.main-possible", T("That is not the open main action of a visit of yours."))
        check, _, produce = MAIN_ACTIONS[ctype]
        flag = "main_done"
    else:
        token = state["sites"][visit["site"]]["token"] if visit else None
        require(visit is not None and visit["bonus_available"] and BONUS_TOKEN[ctype] == token,
                "bonus.colour-match", T("Your worker's colour does not match this bonus action token."))
        require(not visit["bonus_done"], "bonus.before-or-after", T("You have already used this visit's bonus."))
        check, _, produce = BONUS_ACTIONS[ctype]
        flag = "bonus_done"
    check(state, player, visit, payload)
    events = produce(state, pid, player, visit, payload, rng)
    return events + closing_events(state, pid, dict(visit, **{flag: True}))


def end_visit_allowed(state: dict, player: dict, visit: dict) -> bool:
    """visit.end: the main is done, or no main-action command is legal any more."""
    return visit["main_done"] or not main_commands(state, player, visit)


def end_visit_events(state: dict, pid: str) -> list:
    """Check end_visit and return visit_ended (with what is forfeited) and turn_ended."""
    visit = state["visit"]
    require(visit is not None and end_visit_allowed(state, state["players"][pid], visit), "visit.end",
            T("You can end a visit only once its main action is done or impossible."))
    return forfeit_events(state, pid) + [event("turn_ended", player=pid, next=next_player(state))]


def forfeit_events(state: dict, pid: str) -> list:
    """visit_ended listing the parts of the open visit that were not done."""
    visit = state["visit"]
    forfeited = ([] if visit["main_done"] else ["main"]) + (["bonus"] if bonus_pending(visit) else [])
    return [event("visit_ended", player=pid, forfeited=forfeited)]
