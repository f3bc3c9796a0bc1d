"""The state shape and the quantities derived from it (VP, limits, repetitions, hands)."""
from __future__ import annotations

from .data import COLORS, DATA, ORDER_COLOR, design_of


def empty_counts() -> dict:
    """A colour -> count map with every colour at zero."""
    return {c: 0 for c in COLORS}


def initial_state(players: list[str], options: dict) -> dict:
    """The empty state before the setup events."""
    players = list(players)
    return {
        "players": players,
        "turn_order": list(players),
        "first_player": None,
        "vp_target": options.get("vp_target"),
        "max_rounds": options.get("max_rounds"),
        "phase": "setup",
        "setup_pending": [],
        "round": 0,
        "current": None,
        "step": None,
        "order": None,
        "plotting": False,
        "bonus": None,
        "end_triggered": None,
        "finished": None,
        "draw_pile": [],
        "building_deck": [],
        "great_works": [],
        "forum": empty_counts(),
        "discard": empty_counts(),
        "monopolies": {c: None for c in COLORS},
        "hands": {p: empty_counts() for p in players},
        "stock": {p: empty_counts() for p in players},
        "operations": {p: empty_counts() for p in players},
        "residence": {p: {"colors": [], "order": None} for p in players},
        "under_construction": {p: {} for p in players},
        "completed": {p: [] for p in players},
    }


def count(counts: dict) -> int:
    """Total cards in a colour -> count map."""
    return sum(counts.values())


def has_effect(state: dict, player: str, effect: str) -> bool:
    """True if one of the player's completed buildings has that effect."""
    return any(design_of(bid)["effect"] == effect for bid in state["completed"][player])


def building_bonus(state: dict, player: str, order: str) -> int:
    """Extra repetitions the player's completed buildings give to that order."""
    return sum(1 for bid in state["completed"][player]
               if design_of(bid)["effect"] == "order_bonus" and design_of(bid).get("order") == order)


def repetitions(state: dict, player: str, order: str, commanded: bool) -> int:
    """R for an order: 1 + operations of its colour when commanded + building bonus (orders.repetitions)."""
    ops = state["operations"][player][ORDER_COLOR[order]] if commanded else 0
    return 1 + ops + building_bonus(state, player, order)


def operation_limit(state: dict, player: str) -> int:
    """2 + completed buildings (+1 with Guild Hall) (operations.limit)."""
    extra = 1 if has_effect(state, player, "operation_limit") else 0
    return DATA["base_operation_limit"] + len(state["completed"][player]) + extra


def building_vp(state: dict, player: str) -> int:
    """The summed cost of the player's completed buildings."""
    return sum(design_of(bid)["cost"] for bid in state["completed"][player])


def monopoly_vp(state: dict, player: str) -> int:
    """1 VP per operation card of each colour whose Monopoly the player holds (monopoly.vp)."""
    return sum(state["operations"][player][c] for c, holder in state["monopolies"].items() if holder == player)


def vp(state: dict, player: str) -> int:
    """Total VP (scoring.vp)."""
    return building_vp(state, player) + monopoly_vp(state, player)


def owns_design(state: dict, player: str, design_id: str) -> bool:
    """True if the player has a building of that design, under construction or completed."""
    mine = list(state["under_construction"][player]) + state["completed"][player]
    return any(design_of(bid)["id"] == design_id for bid in mine)


def left_of(state: dict, player: str) -> list[str]:
    """The other players in turn order, starting left of `player`."""
    order = state["turn_order"]
    i = order.index(player)
    return order[i + 1:] + order[:i]


def scores(state: dict) -> dict:
    """{player: {vp, buildings, operations}} for the final ranking."""
    return {p: {"vp": vp(state, p), "buildings": len(state["completed"][p]),
                "operations": count(state["operations"][p])} for p in state["turn_order"]}


def winners(score_table: dict, order: list[str]) -> list[str]:
    """The players ranked first by VP, then buildings, then operations (end.winner)."""
    def key(p):
        s = score_table[p]
        return (s["vp"], s["buildings"], s["operations"])
    best = max(key(p) for p in order)
    return [p for p in order if key(p) == best]
