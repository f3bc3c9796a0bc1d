"""view and redact: what each viewer may see (zodiac cards are secret to their holder until the end)."""
from __future__ import annotations

import copy

from domain.engine import ALL

from .common import free_stands
from .visits import bonus_pending
from .data import CITIZEN_COSTS, DISTRICT_CARDS, TEMPLES, building


def _player_view(p: dict, pid: str, viewer, finished: bool) -> dict:
    counts = {t: sum(1 for z in p["zodiac"] if z["temple"] == t) for t in TEMPLES}
    out = {
        "resources": dict(p["resources"]), "vp": p["vp"], "gold": p["gold"], "war": p["war"],
        "temples": dict(p["temples"]),
        "dice": [dict(d) for d in p["dice"]],
        "free_stands": free_stands(p),
        "orator_dice": [dict(d) for d in p["orator_dice"]],
        "archon_used": p["archon_used"], "attacked": p["attacked"],
        "city": {cell: dict(e) for cell, e in p["city"].items()},
        "districts": copy.deepcopy(p["districts"]),
        "zodiac_count": counts,
    }
    if viewer == ALL or viewer == pid or finished:
        out["zodiac"] = [dict(z) for z in p["zodiac"]]
    return out


def view(state: dict, viewer) -> dict:
    """The state as `viewer` (player id, None for a spectator, ALL) may see it."""
    finished = state["status"] == "finished"
    out = {
        "game": "origins", "viewer": viewer, "status": state["status"], "round": state["round"],
        "max_rounds": state["max_rounds"], "seats": list(state["seats"]), "order": list(state["order"]),
        "current": state["current"], "passed": list(state["passed"]),
        "visit": dict(state["visit"], bonus_pending=bonus_pending(state["visit"])) if state["visit"] else None,
        "sites": {k: dict(v) for k, v in state["sites"].items()},
        "citizen_row": [{"slot": i + 1, "cost": CITIZEN_COSTS[i], "die": dict(d)}
                        for i, d in enumerate(state["citizen_row"])],
        "orator_row": [{"slot": i + 1, "die": dict(d) if d else None} for i, d in enumerate(state["orator_row"])],
        "market": [None if t is None else {"tile": t, "kind": building(t)["kind"], "colour": building(t)["colour"],
                                           "wisdom": building(t)["wisdom"], "stone": building(t)["stone"]}
                   for t in state["market"]],
        "stack_count": len(state["stack"]),
        "zodiac_deck_counts": {t: len(cards) for t, cards in state["zodiac_decks"].items()},
        "district_cards": [dict(c, needs=list(DISTRICT_CARDS[c["id"]]["needs"])) for c in state["district_cards"]],
        "players": {pid: _player_view(p, pid, viewer, finished) for pid, p in state["players"].items()},
        "result": copy.deepcopy(state["result"]),
    }
    if viewer == ALL:
        out["stack"] = list(state["stack"])
        out["zodiac_decks"] = {t: list(c) for t, c in state["zodiac_decks"].items()}
    return out


def redact(ev: dict, viewer) -> dict:
    """The event as `viewer` may see it: a zodiac card is shown only to its taker (and ALL)."""
    if ev.get("type") == "zodiac_card_taken" and viewer != ALL and viewer != ev["data"].get("player"):
        return {"type": ev["type"], "data": dict(ev["data"], card=None)}
    return ev
