"""Final scoring (score.final) and the winner with its tie-break (score.tie)."""
from __future__ import annotations

from .city import count_kind, is_building
from .data import DATA, ZODIAC


def zodiac_points(player: dict, card: str) -> int:
    """End-game VP of one zodiac card for its holder."""
    rule = ZODIAC[card]["score"]
    vp = rule["vp"]
    city = player["city"].values()
    if "per_building_colour" in rule:
        return vp * sum(1 for e in city if is_building(e) and e["kind"] == rule["per_building_colour"])
    if "lowest_temple_at_least" in rule:
        return vp if min(player["temples"].values()) >= rule["lowest_temple_at_least"] else 0
    if rule.get("per_stand_die"):
        return vp * len(player["dice"])
    if rule.get("per_farm"):
        return vp * count_kind(player["city"], "farm")
    if "per_resources" in rule:
        return vp * (sum(player["resources"].values()) // rule["per_resources"])
    if rule.get("per_district"):
        return vp * len(player["districts"])
    if rule.get("per_gold"):
        return vp * player["gold"]
    if "per_war" in rule:
        return vp * (player["war"] // rule["per_war"])
    return 0


def score_player(player: dict) -> dict:
    """{total, vp, gold, temples, districts, zodiac} for one player."""
    counted = sorted(player["temples"].values())[:DATA["scoring"]["temples_counted"]]
    parts = {
        "vp": player["vp"],
        "gold": DATA["scoring"]["gold_vp"] * player["gold"],
        "temples": sum(DATA["temple_vp"][v] for v in counted),
        "districts": sum(d["die"]["value"] for d in player["districts"]),
        "zodiac": sum(zodiac_points(player, z["card"]) for z in player["zodiac"]),
    }
    return dict(parts, total=sum(parts.values()))


def winners(state: dict, scores: dict) -> list:
    """Highest total; ties broken by war position; still tied players share the win."""
    def _key(pid):
        return scores[pid]["total"], state["players"][pid]["war"]
    best = max(_key(pid) for pid in state["seats"])
    return [pid for pid in state["seats"] if _key(pid) == best]
