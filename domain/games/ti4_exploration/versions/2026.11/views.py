"""view and redact: everything is public except the draw piles, which show only their counts (§8)."""
from __future__ import annotations

from . import board
from .board import clone
from .data import PLANETS, SYSTEMS
from .rules import active_players


def _player_view(state: dict, pid: str) -> dict:
    me = state["players"][pid]
    return {
        "seat": me["seat"], "home": me["home"], "trade_goods": me["trade_goods"], "commodities": me["commodities"],
        "commodity_value": board.commodity_value(state, pid), "command_tokens": me["command_tokens"],
        "passed": me["passed"], "fragments": {k: len(v) for k, v in me["fragments"].items()},
        "fragment_cards": clone(me["fragments"]), "relics": clone(me["relics"]),
        "technologies": list(me["technologies"]), "devices": list(me["devices"]),
        "relics_drawn": me["relics_drawn"], "vp_tokens": me["vp_tokens"],
        "score": board.score(state, pid)["total"], "score_breakdown": board.score(state, pid),
    }


def view(state: dict, viewer) -> dict:
    """The public state (identical for every viewer: nothing in this game is secret)."""
    if not state.get("players"):
        return {"round": 0, "rounds": state.get("rounds"), "players": {}, "systems": {}, "planets": {},
                "finished": False}
    systems = {}
    for sid, sys_ in state["systems"].items():
        systems[sid] = {
            "q": SYSTEMS[sid]["q"], "r": SYSTEMS[sid]["r"], "planets": board.planets_in(state, sid),
            "adjacent": list(SYSTEMS[sid]["adjacent"]), "home_of": board.home_owner(state, sid),
            "frontier_token": sys_["frontier_token"], "wormhole": list(sys_["wormhole"]),
            "ships": dict(sys_["ships"]), "space_ground_forces": dict(sys_["space_ground_forces"]),
        }
    planets = {}
    for pid, p in state["planets"].items():
        planets[pid] = {
            "system": p["system"], "traits": list(PLANETS[pid]["traits"]), "controller": p["controller"],
            "exhausted": p["exhausted"], "ground_forces": dict(p["ground_forces"]),
            "attachments": list(p["attachments"]), "resources": board.planet_value(state, pid, "resources"),
            "influence": board.planet_value(state, pid, "influence"),
        }
    return {
        "round": state["round"], "rounds": state["rounds"], "order": list(state["order"]),
        "start_player": state["start_player"], "turn_player": state["turn_player"], "step": state["step"],
        "active_system": state["active_system"], "to_gain": list(state["to_gain"]),
        "exploration": clone(state["exploration"]), "proposal": clone(state["proposal"]),
        "proposals_made": list(state["proposals_made"]), "activated": clone(state["activated"]),
        "frontier_due": state["det_due"], "active_players": active_players(state),
        "players": {pid: _player_view(state, pid) for pid in state["order"]},
        "systems": systems, "planets": planets,
        "decks": {name: {"draw_count": len(d["draw"]), "discard": list(d["discard"])}
                  for name, d in state["decks"].items()},
        "relic_deck_count": len(state["relic_deck"]), "purged": list(state["purged"]),
        "common_area": list(state["common_area"]), "finished": state["finished"], "result": clone(state["final"]),
    }


def redact(event: dict, viewer) -> dict:
    """Every event is public (a revealed card is shown to all, 73.comment-6)."""
    return clone(event)
