"""The opening events: seats and homes, frontier tokens in planetless systems (73.4a), round 1 (§4)."""
from __future__ import annotations

from .data import SEAT_HOMES, SYSTEMS


def setup_events(players: list, options: dict) -> list:
    """match_started, 4 x frontier_token_placed, round_started, turn_started (no randomness)."""
    seats = [{"player": p, "seat": i + 1, "home": SEAT_HOMES[i + 1]} for i, p in enumerate(players)]
    events = [{"type": "match_started", "data": {"players": seats, "rounds": int(options.get("rounds", 4))}}]
    for sid, system in SYSTEMS.items():
        if not system["planets"]:
            events.append({"type": "frontier_token_placed", "data": {"system": sid, "source": "setup"}})
    events.append({"type": "round_started", "data": {"round": 1, "order": list(players), "start_player": players[0]}})
    events.append({"type": "turn_started", "data": {"player": players[0]}})
    return events
