"""The result a match records: the game's own, or, once players conceded, the result after their concessions
(the last seat in play wins at once; a finished game's result ranks every conceding player last)."""
from __future__ import annotations

REASON = "conceded"


def match_result(game, state: dict | None, conceded=(), players=()) -> dict | None:
    """The result a match records for `state` (None while it goes on): the game's own, or, once players conceded,
    the result after their concessions. What `match_finished` holds, and what a re-check derives again."""
    if conceded:
        return result_after_concessions(game, state, list(conceded), list(players))
    return game.result(state) if state is not None else None


def result_after_concessions(game, state: dict, conceded: list, players: list) -> dict | None:
    """The result once players conceded: the last seat in play wins at once (None while more are in play and
    the game goes on); a finished game's own result with the conceding players ranked last."""
    in_play = [p for p in players if p not in conceded]
    result = game.result(state) if state is not None else None
    if result is None:
        if len(in_play) > 1:
            return None
        return {"winners": in_play, "conceded": list(conceded), "reason": REASON}
    return ranked_last(result, conceded, players)


def ranked_last(result: dict, conceded: list, players: list) -> dict:
    """The game's result with the conceding players ranked last: never among the winners (when a stand-in
    won for one, the best of the others by score win), listed in `conceded`."""
    winners = [w for w in result.get("winners") or [] if w not in conceded]
    if not winners and result.get("winners"):
        scores = result.get("scores") or {}
        others = [p for p in players if p not in conceded]
        best = max((points(scores.get(p)) for p in others), default=None)
        winners = [p for p in others if best is not None and points(scores.get(p)) == best]
    return {**result, "winners": winners, "conceded": list(conceded)}


def points(value) -> float:
    """The number a score stands for: itself, its "total" (or "vp"), else 0."""
    if isinstance(value, dict):
        value = value.get("total", value.get("vp", 0))
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0
