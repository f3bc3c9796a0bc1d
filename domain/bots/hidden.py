"""Per game: re-draw every part of a state that one seat cannot see, from the pool it cannot tell apart.

Each resampler returns a new state whose view for `player` equals the original's; the hidden parts
are drawn from canonically ordered pools, so the result depends only on that view and the rng.
"""
from __future__ import annotations

import json


def _copy(state: dict) -> dict:
    return json.loads(json.dumps(state))


def _shuffled(items, rng) -> list:
    pool = sorted(items)
    rng.shuffle(pool)
    return pool


def resample_uchronia(state: dict, player: str, rng) -> dict:
    """Other players' hands and the draw pile are one pool of unseen cards; the building deck's order."""
    s = _copy(state)
    others = [p for p in s["turn_order"] if p != player]
    unseen = list(s["draw_pile"])
    for p in others:
        unseen += [color for color, n in sorted(s["hands"][p].items()) for _ in range(n)]
    pool = _shuffled(unseen, rng)
    for p in others:
        size = sum(s["hands"][p].values())
        hand = {color: 0 for color in s["hands"][p]}
        for color in pool[:size]:
            hand[color] += 1
        s["hands"][p], pool = hand, pool[size:]
    s["draw_pile"] = pool
    s["building_deck"] = _shuffled(s["building_deck"], rng)
    return s


def resample_merchant_of_venus(state: dict, player: str, rng) -> dict:
    """The culture tokens of systems neither revealed nor observed by `player`, and the set-aside one."""
    s = _copy(state)
    if not s.get("placement"):
        return s
    mine = s["pl"].get(player, {}).get("observed", {})
    unknown = sorted(sid for sid in s["placement"] if sid not in s["revealed"] and sid not in mine)
    cultures = [s["placement"][sid] for sid in unknown] + ([s["set_aside"]] if s.get("set_aside") else [])
    pool = _shuffled(cultures, rng)
    for sid, culture in zip(unknown, pool):
        s["placement"][sid] = culture
    if s.get("set_aside"):
        s["set_aside"] = pool[-1]
    for pid, p in s["pl"].items():
        if pid != player:
            p["observed"] = {sid: s["placement"][sid] for sid in p["observed"]}
    s.get("options", {}).pop("fixed_cultures", None)
    return s


def resample_ti4_exploration(state: dict, player: str, rng) -> dict:
    """Only the orders of the draw piles and the relic deck are hidden."""
    s = _copy(state)
    for deck in s.get("decks", {}).values():
        deck["draw"] = _shuffled(deck["draw"], rng)
    s["relic_deck"] = _shuffled(s.get("relic_deck", []), rng)
    return s


def resample_origins(state: dict, player: str, rng) -> dict:
    """Other players' zodiac cards and each temple's deck are one pool per temple; the tile stack's order."""
    s = _copy(state)
    for temple in sorted(s["zodiac_decks"]):
        held = [z for pid, p in sorted(s["players"].items()) if pid != player
                for z in p["zodiac"] if z["temple"] == temple]
        pool = _shuffled(s["zodiac_decks"][temple] + [z["card"] for z in held], rng)
        for z in held:
            z["card"] = pool.pop()
        s["zodiac_decks"][temple] = sorted(pool)
    s["stack"] = _shuffled(s["stack"], rng)
    return s


RESAMPLERS = {
    "uchronia": resample_uchronia,
    "merchant-of-venus": resample_merchant_of_venus,
    "ti4-exploration": resample_ti4_exploration,
    "origins": resample_origins,
}
