"""Conceding a match: the seated player's command, decided by domain/engine/concede.py."""
from __future__ import annotations

from domain.engine.concede import decide_concede

from service.app.errors import NotSeated


def concede(matches, actor: str, match_id: str) -> dict:
    """`actor` concedes `match_id`: {"version"} after the concession (and the end of the match, when one seat is
    left in play). 403 when not seated; 409 when the match is not active (or paused); 422 once conceded."""
    def decide(match, rng):
        if actor not in match.players:
            raise NotSeated("you are not seated in this match")
        return decide_concede(match, actor)

    return {"version": matches.execute(match_id, actor, decide)["version"]}
