"""Closing a district: block checks, the gold card, the power-centre die and colour activation."""
from __future__ import annotations

from domain.engine import event
from domain.engine.text import T, joined

from .city import ANCHORS, block, closed_cells, is_building
from .command_text import district_card_name
from .common import citizen_die, next_player, require
from .data import BUILDINGS, DISTRICT_CARDS, DISTRICTS
from .effects import effect_gains, tracks_of


def eligible_cards(state: dict, kinds: set) -> list[str]:
    """Face-up district cards with gold left whose two kinds are both in `kinds` (district.gold-card)."""
    return [c["id"] for c in state["district_cards"]
            if c["gold"] > 0 and set(DISTRICT_CARDS[c["id"]]["needs"]) <= kinds]


def check_close(state: dict, player: dict, payload: dict) -> None:
    """district.block-filled, district.tiles-free, district.citizen-die, district.gold-card (in this order)."""
    anchor, die_id, card = payload.get("anchor"), payload.get("die"), payload.get("card")
    cells = block(anchor)
    require(cells is not None, "district.block-filled",
            T("Name the top-left cell of a 2×2 block of your city (A1 to D4)."))
    city = player["city"]
    require(all(c in city for c in cells), "district.block-filled",
            T("All four cells of the {anchor} block must hold tiles.", anchor=anchor))
    require(not set(cells) & closed_cells(player), "district.tiles-free",
            T("A tile of that block already belongs to a closed district."))
    require(citizen_die(player, die_id) is not None, "district.citizen-die",
            T("Only a citizen die in one of your stands can close a district."))
    eligible = eligible_cards(state, {city[c]["kind"] for c in cells})
    if eligible:
        require(card in eligible, "district.gold-card",
                T("Name one district card this block fulfils: {items}.", items=joined(map(district_card_name, eligible))))
    else:
        require(card is None, "district.gold-card", T("No face-up card with gold matches this block; name none."))


def close_candidates(state: dict, player: dict) -> list:
    """Every legal close_district payload of the player."""
    out = []
    closed = closed_cells(player)
    for anchor in ANCHORS:
        cells = block(anchor)
        if not all(c in player["city"] for c in cells) or set(cells) & closed:
            continue
        eligible = eligible_cards(state, {player["city"][c]["kind"] for c in cells})
        for die in player["dice"]:
            for card in eligible or [None]:
                out.append({"anchor": anchor, "die": die["id"], "card": card})
    return out


def close_events(state: dict, pid: str, payload: dict) -> list:
    """Check and return district_closed, one effect_applied per activated building, turn_ended."""
    player = state["players"][pid]
    check_close(state, player, payload)
    cells = block(payload["anchor"])
    die = citizen_die(player, payload["die"])
    card = payload["card"]
    events = [event("district_closed", player=pid, anchor=payload["anchor"], cells=cells, die=die["id"],
                    die_colour=die["colour"], die_value=die["value"], vp=DISTRICTS["vp"], card=card,
                    gold=DISTRICTS["gold_taken"] if card else 0)]
    tracks = tracks_of(player)
    for cell in cells:
        entry = player["city"][cell]
        if not is_building(entry):
            continue
        spec = BUILDINGS[entry["building"]]
        if spec["colour"] == die["colour"] or spec.get("every_district"):
            gains = effect_gains(entry["building"], cell, player["city"], tracks)
            events.append(event("effect_applied", player=pid, tile=entry["tile"], trigger="district",
                                gains=gains))
    events.append(event("turn_ended", player=pid, next=next_player(state)))
    return events
