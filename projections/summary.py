"""Pure: the match-list row and the inbox changes of a folded match."""
from __future__ import annotations

from domain.engine.platform_events import TURN_TIMED_OUT


def match_row(match, updated_at: str) -> dict:
    """The match-list row of a match at its current version."""
    return {"id": match.id, "game": match.game_id, "status": match.status, "seats": match.seats,
            "players": list(match.players), "version": match.version,
            "active_players": match.active_players(), "result": match.result,
            "created_by": match.created_by, "updated_at": updated_at}


def waiting(previous: dict | None, row: dict, at: str, last_acted: dict | None = None) -> dict:
    """{player: waiting_since} for the players who must act in `row`: an earlier start time is kept
    unless the player has acted since (then their new turn starts at `at`)."""
    before = (previous or {}).get("waiting", {})
    acted = last_acted or {}
    out = {}
    for p in row["active_players"]:
        since = before.get(p)
        out[p] = since if since is not None and acted.get(p, "") <= since else at
    return out


def last_actions(envelopes, players, lookback: int = 500) -> dict:
    """{player: time of their latest event} among the last `lookback` envelopes; a turn that timed out
    counts as the player's (so their next turn starts afresh and gets its own deadline)."""
    out = {}
    for env in reversed(envelopes[-lookback:]):
        actor = env.get("actor")
        if env.get("type") == TURN_TIMED_OUT:
            actor = (env.get("data") or {}).get("player")
        if actor in players and actor not in out:
            out[actor] = env["at"]
            if len(out) == len(players):
                break
    return out


def turns_started(previous: dict | None, row: dict) -> dict:
    """{player: waiting_since} for the players whose turn began between two rows of a match."""
    was = (previous or {}).get("waiting", {})
    return {p: since for p, since in row.get("waiting", {}).items() if was.get(p) != since}


def inbox_changes(previous: dict | None, row: dict) -> tuple[dict, list]:
    """(players to add with their waiting-since, players to remove) between two rows of a match."""
    now = row.get("waiting", {})
    removes = [p for p in (previous or {}).get("waiting", {}) if p not in now]
    return turns_started(previous, row), removes
