"""Read-only queries on the game state: map adjacency, planet values, ownership, scoring."""
from __future__ import annotations

import json

from .data import CONST, HOME_SYSTEMS, PLANETS, RELICS, SYSTEMS, card_type, is_card

CROWN = "the-crown-of-emphidia"
SHARD = "shard-of-the-throne"
DYNAMIS = "dynamis-core"
NANO_FORGE = "nano-forge"
MAW = "maw-of-worlds"
DET = "dark-energy-tap"
SARWEEN = "sarween-tools"


def clone(value):
    """A fast deep copy of a plain JSON value (a JSON round trip: faster than a recursive copy)."""
    return json.loads(json.dumps(value))


def seat_order_from(state: dict, first: str) -> list:
    """The players in seat order, starting with `first`."""
    order = state["order"]
    i = order.index(first)
    return order[i:] + order[:i]


def planets_in(state: dict, system: str) -> list:
    """The planets (on the map now) of a system, in data order."""
    return [pid for pid, p in state["planets"].items() if p["system"] == system]


def has_wormhole(state: dict, system: str) -> bool:
    """Whether a system holds a gamma wormhole or the ion storm token."""
    return bool(state["systems"][system]["wormhole"])


def neighbours(state: dict, system: str) -> list:
    """Systems adjacent to `system`: the map list plus wormhole links (movement.wormholes)."""
    result = list(SYSTEMS[system]["adjacent"])
    if has_wormhole(state, system):
        result += [s for s in state["systems"] if s != system and s not in result and has_wormhole(state, s)]
    return result


def ships(state: dict, system: str, player: str) -> int:
    """How many ships `player` has in `system`."""
    return state["systems"][system]["ships"].get(player, 0)


def space_forces(state: dict, system: str, player: str) -> int:
    """How many ground forces `player` has in the space area of `system`."""
    return state["systems"][system]["space_ground_forces"].get(player, 0)


def other_ships(state: dict, system: str, player: str) -> bool:
    """Whether another player has ships in `system`."""
    return any(n > 0 and p != player for p, n in state["systems"][system]["ships"].items())


def planet_forces(state: dict, planet: str, player: str) -> int:
    """How many ground forces `player` has on `planet`."""
    return state["planets"][planet]["ground_forces"].get(player, 0)


def attachment_bonus(attachment: str, key: str) -> int:
    """The resources or influence an attachment (exploration card or relic) adds."""
    if is_card(attachment):
        return card_type(attachment).get("bonus", {}).get(key, 0)
    return RELICS.get(attachment, {}).get("bonus", {}).get(key, 0)


def planet_value(state: dict, planet: str, key: str) -> int:
    """A planet's resources or influence, attachments included."""
    base = PLANETS[planet][key]
    return base + sum(attachment_bonus(a, key) for a in state["planets"][planet]["attachments"])


def has_dmz(state: dict, planet: str) -> bool:
    """Whether demilitarized-zone is attached to the planet (invasion.dmz)."""
    return any(is_card(a) and card_type(a).get("blocks_ground_forces") for a in state["planets"][planet]["attachments"])


def controlled(state: dict, player: str) -> list:
    """The planets `player` controls."""
    return [pid for pid, p in state["planets"].items() if p["controller"] == player]


def relic_entry(state: dict, player: str, relic: str):
    """The player's {id, exhausted} entry for a relic, or None."""
    for entry in state["players"][player]["relics"]:
        if entry["id"] == relic:
            return entry
    return None


def commodity_value(state: dict, player: str) -> int:
    """The commodity value, +2 with dynamis-core (relics.dynamis)."""
    bonus = RELICS[DYNAMIS].get("commodity_bonus", 0) if relic_entry(state, player, DYNAMIS) else 0
    return CONST["commodity_value"] + bonus


def owns_tech(state: dict, player: str, tech: str) -> bool:
    """Whether the player owns a technology."""
    return tech in state["players"][player]["technologies"]


def crown_targets(state: dict, player: str) -> list:
    """Planets the player controls that have a trait (targets of the Crown, relic.crown-explore)."""
    return [pid for pid in controlled(state, player) if PLANETS[pid]["traits"]]


def crown_usable(state: dict, player: str) -> bool:
    """Whether the player holds a ready Crown with at least one target."""
    entry = relic_entry(state, player, CROWN)
    return bool(entry and not entry["exhausted"] and crown_targets(state, player))


def home_of(state: dict, player: str) -> str:
    """The player's home system."""
    return state["players"][player]["home"]


def home_owner(state: dict, system: str):
    """The player whose home is `system`, or None (vacant or not a home)."""
    for pid, p in state["players"].items():
        if p["home"] == system:
            return pid
    return None


def is_home_planet(planet: str) -> bool:
    """Whether a planet lies in one of the four home systems (seated or vacant)."""
    return PLANETS[planet]["system"] in HOME_SYSTEMS


def score(state: dict, player: str) -> dict:
    """The live VP breakdown of a player (scoring.final)."""
    me = state["players"][player]
    planets = influence = 0
    for pid in controlled(state, player):
        influence += planet_value(state, pid, "influence")
        if pid == CONST["mecatol"]:
            planets += CONST["mecatol_vp"]
        elif state["planets"][pid]["system"] != me["home"]:
            planets += CONST["planet_vp"]
    parts = {
        "planets": planets,
        "influence": influence // CONST["influence_per_vp"],
        "relics": me["relics_drawn"] * CONST["relic_drawn_vp"],
        "shard": RELICS[SHARD].get("vp", 1) if relic_entry(state, player, SHARD) else 0,
        "tokens": me["vp_tokens"],
    }
    parts["total"] = sum(parts.values())
    return parts


def ranking(state: dict) -> list:
    """Players best first: VP, then relics drawn, then TG (scoring.tiebreak)."""
    def key(p):
        me = state["players"][p]
        return (-score(state, p)["total"], -me["relics_drawn"], -me["trade_goods"])
    return sorted(state["order"], key=key)


def winners(state: dict) -> list:
    """Everyone tied with the best on all tiebreaks (scoring.tiebreak)."""
    ranked = ranking(state)

    def key(p):
        me = state["players"][p]
        return (score(state, p)["total"], me["relics_drawn"], me["trade_goods"])
    best = key(ranked[0])
    return [p for p in ranked if key(p) == best]
