"""The empty state and the opening events (match_set_up, then round_started for round 1)."""
from __future__ import annotations

from domain.engine import event

from .common import random_colour, roll_die, rotated
from .data import (COLOURS, DIAL, DISTRICT_CARDS, DISTRICTS, ORATOR_SLOTS, SITE_IDS, SITES, START,
                   STARTING_TILES, TEMPLES, TILE_IDS, TOKEN_IDS, ZODIAC, CITIZEN_COSTS, DATA)


def initial_state(players: list, options: dict) -> dict:
    """The state before any event: seats and options known, everything else empty."""
    return {
        "status": "setup",
        "seats": list(players),
        "max_rounds": options.get("max_rounds", DATA["options"]["max_rounds"]["default"]),
        "round": 0,
        "order": [],
        "current": None,
        "passed": [],
        "visit": None,
        "sites": {},
        "citizen_row": [],
        "orator_row": [None] * ORATOR_SLOTS,
        "next_die": 1,
        "market": [],
        "stack": [],
        "district_cards": [],
        "zodiac_decks": {t: sorted(c for c, z in ZODIAC.items() if z["temple"] == t) for t in TEMPLES},
        "players": {},
        "result": None,
    }


def starting_city() -> dict:
    """The Palace and Agora a city starts with: {cell: tile id}."""
    return {t["cell"]: t["tile"] for t in STARTING_TILES}


def setup(players: list, options: dict, rng) -> list:
    """Draw the opening layout and return [match_set_up, round_started]."""
    first = rng.choice(players)
    tokens = rng.shuffled(TOKEN_IDS)
    sites = {sid: {"colour": SITES[sid]["colour"], "dial": DIAL["start"], "token": tokens[i]}
             for i, sid in enumerate(SITE_IDS)}
    counter = 1
    citizen_row = []
    for slot in range(1, len(CITIZEN_COSTS) + 1):
        citizen_row.append({"slot": slot, "die": roll_die(rng, f"d{counter}", random_colour(rng))})
        counter += 1
    orator_row = []
    for slot in range(1, ORATOR_SLOTS + 1):
        orator_row.append({"slot": slot, "die": roll_die(rng, f"d{counter}", random_colour(rng))})
        counter += 1
    cards = rng.shuffled(sorted(DISTRICT_CARDS))[:DISTRICTS["cards_dealt"]]
    gold = DISTRICTS["gold_per_player"] * len(players)
    district_cards = [{"id": c, "gold": gold} for c in cards]
    pool = sorted(TILE_IDS)
    market = []
    for _ in range(DATA["market_size"]):
        tile = rng.choice(pool)
        pool.remove(tile)
        market.append(tile)
    seats = {}
    for pid in players:
        colours = list(COLOURS)
        dice = []
        for _ in range(START["citizen_dice"]):
            colour = rng.choice(colours)
            colours.remove(colour)
            dice.append({"id": f"d{counter}", "colour": colour, "value": START["citizen_value"]})
            counter += 1
        seats[pid] = {"dice": dice, "resources": dict(START["resources"]), "city": starting_city()}
    return [
        event("match_set_up", seats=list(players), first_player=first,
              max_rounds=options.get("max_rounds", DATA["options"]["max_rounds"]["default"]),
              sites=sites, citizen_row=citizen_row, orator_row=orator_row, market=market,
              district_cards=district_cards, players=seats),
        event("round_started", round=1, order=rotated(list(players), first), orator_refills=[]),
    ]
