"""Building effects: the gains a face-up tile gives when placed or activated by a district closing."""
from __future__ import annotations

from .city import count_kind, neighbours
from .common import lowest_temple, zero_gains
from .data import BUILDINGS, TEMPLE_TOP, WAR


def tracks_of(player: dict) -> dict:
    """A scratch copy of the capped tracks (war, temples) that successive effects use up."""
    return {"war": player["war"], "temples": dict(player["temples"])}


def effect_gains(kind: str, cell: str, city: dict, tracks: dict) -> dict:
    """The gains of one application of `kind`'s effect at `cell`; caps at the track tops (effect.track-top).

    `tracks` is updated so that a following effect in the same closing sees the new positions."""
    eff = BUILDINGS[kind]["effect"]
    gains = zero_gains()
    gains["vp"] = eff.get("vp", 0) + eff.get("vp_per_farm", 0) * count_kind(city, "farm")
    gains["stone"] = eff.get("stone", 0)
    gains["wisdom"] = eff.get("wisdom", 0)
    farms_around = sum(1 for n in neighbours(cell) if n in city and city[n]["kind"] == "farm")
    gains["food"] = eff.get("food", 0) + eff.get("food_per_adjacent_farm", 0) * farms_around
    war = min(eff.get("war", 0), WAR["max"] - tracks["war"])
    tracks["war"] += war
    gains["war"] = war
    for _ in range(eff.get("lowest_temple", 0)):
        temple = lowest_temple(tracks["temples"])
        if temple is None:
            break
        tracks["temples"][temple] = min(TEMPLE_TOP, tracks["temples"][temple] + 1)
        gains["temples"][temple] = gains["temples"].get(temple, 0) + 1
    return gains


def apply_gains(player: dict, gains: dict) -> None:
    """Add an effect's gains to the player (evolve side)."""
    player["vp"] += gains.get("vp", 0)
    for res in ("stone", "food", "wisdom"):
        player["resources"][res] += gains.get(res, 0)
    player["war"] += gains.get("war", 0)
    for temple, steps in gains.get("temples", {}).items():
        player["temples"][temple] += steps
