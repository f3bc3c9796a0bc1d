"""A finished match's standings for people: ranks, names, scores and their breakdown, the winners as a sentence
(sentences are `Text`: the pages say them in the reader's language, service/web/game_words.py)."""
from __future__ import annotations

from domain.engine.text import T, joined

BREAKDOWN_KEYS = ("breakdown", "details")  # where the games put a per-player score breakdown
SCORE_KEYS = ("vp", "score")  # a details column by one of these names may be the score itself


def names_sentence(names: list) -> str:
    """People as a phrase: "Ann", "Ann and Bob", "Ann, Bob and Cy" (names as players wrote them)."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return T("{first} and {last}", first=joined(names[:-1]), last=names[-1])


def winners_sentence(winners: list, names: dict) -> str:
    """"Ann won.", "Ann and Bob won (a shared victory).", or "Nobody won."."""
    people = [names.get(w, w) for w in winners]
    if not people:
        return T("Nobody won.")
    if len(people) == 1:
        return T("{winner} won.", winner=str(people[0]))
    return T("{winners} won (a shared victory).", winners=names_sentence(people))


def _label(key: str) -> str:
    return key.upper() if len(key) <= 2 else key.replace("_", " ").capitalize()


def column_keys(breakdown: dict) -> list:
    """The breakdown's keys by name: one order for every viewer (a fold read back from JSON has its keys sorted,
    a fold kept in memory has them as the game wrote them)."""
    return sorted({k for parts in breakdown.values() if isinstance(parts, dict) for k in parts if k != "total"})


def standings(result: dict | None, players: list, names: dict, column_order=column_keys) -> dict | None:
    """{"sentence", "columns", "keys", "rows": [{rank, player, name, winner, score, parts}]}, best first (why the
    match ended is the game's own words: the match page adds it, service/web/pages/game_over.py).

    `column_order(breakdown) -> keys` names the breakdown's columns in order; in details that are not a sum (no
    "total"), a column equal to the score for every player (Uchronia's "vp") is left out."""
    if not result:
        return None
    scores = result.get("scores") or {}
    winners = list(result.get("winners") or [])
    breakdown = next((result[k] for k in BREAKDOWN_KEYS if isinstance(result.get(k), dict)), {})
    columns = [key for key in column_order(breakdown)
               if not _repeats_score(breakdown, scores, key)]
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
    return {"sentence": winners_sentence(winners, names),
            "columns": [_label(c) for c in columns], "keys": columns, "rows": rows}


def _repeats_score(breakdown: dict, scores: dict, key: str) -> bool:
    """Whether a details column is the score again (Uchronia's "vp"; details that add up to a total never are)."""
    rows = [parts for parts in breakdown.values() if isinstance(parts, dict)]
    return key in SCORE_KEYS and bool(rows) and not any("total" in parts for parts in rows) and \
        all(parts.get(key) == scores.get(player) for player, parts in breakdown.items())


def _number(value) -> float:
    return float(value) if isinstance(value, (int, float)) else float("-inf")
