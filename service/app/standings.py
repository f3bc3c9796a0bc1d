"""A finished match's standings for people: ranks, names, scores and their breakdown, the winners as a sentence."""
from __future__ import annotations

BREAKDOWN_KEYS = ("breakdown", "details")  # where the games put a per-player score breakdown
REASONS = {"draw_pile_empty": "the draw pile ran out", "round_limit": "the last round was played",
           "target": "a player reached the target", "vp_target": "a player reached the victory point target",
           "conceded": "a player conceded"}


def names_sentence(names: list) -> str:
    """People as a phrase: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def winners_sentence(winners: list, names: dict) -> str:
    """"Ann won.", "Ann and Bob won (a shared victory).", or "Nobody won."."""
    people = [names.get(w, w) for w in winners]
    if not people:
        return "Nobody won."
    if len(people) == 1:
        return f"{people[0]} won."
    return f"{names_sentence(people)} won (a shared victory)."


def reason_text(result: dict) -> str | None:
    """Why the match ended, in words, when the game says."""
    reason = result.get("reason")
    if not reason:
        return None
    return REASONS.get(reason, str(reason).replace("_", " "))


def _label(key: str) -> str:
    return key.upper() if len(key) <= 2 else key.replace("_", " ").capitalize()


def standings(result: dict | None, players: list, names: dict) -> dict | None:
    """{"sentence", "reason", "columns", "rows": [{rank, player, name, winner, score, parts}]}, best first."""
    if not result:
        return None
    scores = result.get("scores") or {}
    winners = list(result.get("winners") or [])
    breakdown = next((result[k] for k in BREAKDOWN_KEYS if isinstance(result.get(k), dict)), {})
    columns = []
    for parts in breakdown.values():
        for key in parts if isinstance(parts, dict) else ():
            if key != "total" and key not in columns:
                columns.append(key)
    ranking = list(result.get("ranking") or [])
    seated = ranking + [p for p in players if p not in ranking]
    position = {p: i for i, p in enumerate(seated)}
    conceded = set(result.get("conceded") or [])
    order = sorted(seated, key=lambda p: (p in conceded, p not in winners, -_number(scores.get(p)), position[p]))
    rows, rank = [], 0
    for i, player in enumerate(order):
        previous = order[i - 1] if i else None
        tied = previous is not None and scores.get(player) == scores.get(previous) and \
            (player in winners) == (previous in winners) and (player in conceded) == (previous in conceded)
        rank = rank if tied else i + 1
        parts = breakdown.get(player) if isinstance(breakdown.get(player), dict) else {}
        rows.append({"rank": rank, "player": player, "name": names.get(player, player), "winner": player in winners,
                     "conceded": player in conceded,
                     "score": scores.get(player), "parts": [parts.get(c) for c in columns]})
    return {"sentence": winners_sentence(winners, names), "reason": reason_text(result),
            "columns": [_label(c) for c in columns], "rows": rows}


def _number(value) -> float:
    return float(value) if isinstance(value, (int, float)) else float("-inf")
