"""Where the match stands: whose decision it is, and which concrete step choices exist."""
from __future__ import annotations

from domain.engine.contract import command

from .data import COLORS, design_of
from .state import has_effect, operation_limit, owns_design, count

DRACONIAS = "draconias"
STEP_COMMANDS = {
    "production": ("take_from_forum",),
    "expeditions": ("stock_from_hand",),
    "trade": ("trade",),
    "construction": ("start_building", "supply_building"),
    DRACONIAS: ("reveal",),
}


def decision(state: dict) -> tuple[str, list[str]]:
    """(kind of pending decision, players who must act); kind "auto" means nobody decides yet."""
    phase = state["phase"]
    if phase == "finished":
        return "finished", []
    if phase in ("setup", "setup_discard"):
        return "setup_discard", [p for p in state["turn_order"] if p in state["setup_pending"]]
    if state["bonus"] is not None:
        return "monopoly_bonus", [state["bonus"]["player"]]
    current = state["current"]
    if state["step"] == "choose_action":
        return "choose_action", [current]
    order = state["order"]
    if state["step"] == "order" and order is not None:
        if order["order"] != DRACONIAS:
            return "order_step", [current]
        if order["revealed"] is None:
            return "reveal", [current]
        if order["victims"]:
            victim = order["victims"][0]
            return ("give_card", [victim]) if len(eligible_gifts(state, victim)) >= 2 else ("auto", [])
        if order["seized"] and not order["raided"] and raid_targets(state, current):
            return "raid", [current]
    return "auto", []


def eligible_gifts(state: dict, victim: str) -> list[str]:
    """Revealed colours the Draconias victim holds, in canonical order (draconias.demand)."""
    revealed = state["order"]["revealed"] or []
    return [c for c in COLORS if c in revealed and state["hands"][victim][c] > 0]


def raid_targets(state: dict, player: str) -> list[dict]:
    """Opponents' buildings under construction the player's Raiders' Camp may raid (draconias.raid)."""
    if not has_effect(state, player, "raid"):
        return []
    targets = []
    for other in state["turn_order"]:
        if other == player:
            continue
        for bid, placed in state["under_construction"][other].items():
            if placed >= 1:
                targets.append({"player": other, "building_id": bid, "color": design_of(bid)["color"]})
    return targets


def reveal_options(hand: dict, limit: int) -> list[list[str]]:
    """Every sub-multiset of the hand with 1..limit cards, colours in canonical order."""
    out: list[list[str]] = []

    def walk(i: int, chosen: list[str]) -> None:
        if i == len(COLORS):
            if chosen:
                out.append(list(chosen))
            return
        color = COLORS[i]
        for k in range(0, min(hand[color], limit - len(chosen)) + 1):
            walk(i + 1, chosen + [color] * k)

    walk(0, [])
    return out


def can_start(state: dict, player: str, building_id: str, discard: str) -> str | None:
    """None if the player may start that Great Work discarding that colour, else the broken rule id."""
    if building_id not in state["great_works"] or discard not in COLORS or state["forum"][discard] < 1:
        return "construction.start"
    design = design_of(building_id)
    if discard != design["color"] and not has_effect(state, player, "any_discard"):
        return "construction.start"
    if owns_design(state, player, design["id"]):
        return "buildings.unique-name"
    return None


def can_supply(state: dict, player: str, building_id: str) -> str | None:
    """None if the player may place a resource under that building, else the broken rule id."""
    if building_id in state["completed"][player]:
        return "buildings.no-overfill"
    site = state["under_construction"][player]
    if building_id not in site:
        return "construction.supply"
    design = design_of(building_id)
    if state["stock"][player][design["color"]] < 1:
        return "construction.supply"
    if site[building_id] >= design["cost"]:
        return "buildings.no-overfill"
    return None


def step_options(state: dict, player: str) -> list[dict]:
    """The concrete step commands (without end_order) of the running order for its player."""
    order = state["order"]
    kind = order["order"]
    if kind == "production":
        return [command("take_from_forum", color=c) for c in COLORS if state["forum"][c] > 0]
    if kind == "expeditions":
        return [command("stock_from_hand", color=c) for c in COLORS if state["hands"][player][c] > 0]
    if kind == "trade":
        if count(state["operations"][player]) >= operation_limit(state, player):
            return []
        return [command("trade", color=c) for c in COLORS if state["stock"][player][c] > 0]
    if kind == "construction":
        out = [command("start_building", building_id=b, discard=c)
               for b in state["great_works"] for c in COLORS if can_start(state, player, b, c) is None]
        out += [command("supply_building", building_id=b)
                for b in state["under_construction"][player] if can_supply(state, player, b) is None]
        return out
    return [command("reveal", colors=cs) for cs in reveal_options(state["hands"][player], order["repetitions"])]
