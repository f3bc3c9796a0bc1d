"""The opening events: first player, shuffled decks, Great Works and the deal (setup.*)."""
from __future__ import annotations

from domain.engine.contract import event
from domain.engine.errors import RuleViolation
from domain.engine.text import T

from .data import BUILDING_IDS, DATA, RESOURCE_DECK


def resolve_options(players: list[str], options: dict) -> dict:
    """Options with vp_target filled from the player count when missing (§3.4)."""
    target = options.get("vp_target")
    if target is None:
        target = DATA["vp_target_default"].get(str(len(players)), DATA["vp_target_default"][str(DATA["max_players"])])
    return {"vp_target": target, "max_rounds": options.get("max_rounds") or DATA["max_rounds_default"]}


def setup(players: list[str], options: dict, rng) -> list[dict]:
    """match_started, decks_shuffled, great_works_revealed and one cards_dealt per player."""
    if not DATA["min_players"] <= len(players) <= DATA["max_players"] or len(set(players)) != len(players):
        raise RuleViolation("setup.players", T("Uchronia needs {min_players}-{max_players} distinct players.",
                                               min_players=DATA['min_players'], max_players=DATA['max_players']))
    opts = resolve_options(players, options)
    first_index = rng.randint(0, len(players) - 1)
    turn_order = list(players[first_index:]) + list(players[:first_index])
    resource_order = rng.shuffled(RESOURCE_DECK)
    building_order = rng.shuffled(BUILDING_IDS)
    size = DATA["great_works_size"]
    out = [
        event("match_started", turn_order=turn_order, first_player=turn_order[0],
              vp_target=opts["vp_target"], max_rounds=opts["max_rounds"]),
        event("decks_shuffled", resource_order=list(resource_order), building_order=list(building_order)),
        event("great_works_revealed", building_ids=list(building_order[:size])),
    ]
    hand = DATA["starting_hand"]
    for i, player in enumerate(turn_order):
        colors = list(resource_order[i * hand:(i + 1) * hand])
        out.append(event("cards_dealt", player=player, count=len(colors), colors=colors))
    return out
