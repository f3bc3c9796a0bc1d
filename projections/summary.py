"""Pure: the match-list row and the inbox changes of a folded match."""
from __future__ import annotations


def match_row(match, updated_at: str) -> dict:
    """The match-list row of a match at its current version."""
    return {"id": match.id, "game": match.game_id, "status": match.status, "seats": match.seats,
            "players": list(match.players), "version": match.version,
            "active_players": match.active_players(), "result": match.result,
            "created_by": match.created_by, "updated_at": updated_at}


def waiting(previous: dict | None, row: dict, at: str) -> dict:
    """{player: waiting_since} for the players who must act in `row`, keeping earlier start times."""
    before = (previous or {}).get("waiting", {})
    return {p: before.get(p, at) for p in row["active_players"]}


def inbox_changes(previous: dict | None, row: dict) -> tuple[dict, list]:
    """(players to add with their waiting-since, players to remove) between two rows of a match."""
    now = row.get("waiting", {})
    was = (previous or {}).get("waiting", {})
    adds = {p: since for p, since in now.items() if was.get(p) != since}
    removes = [p for p in was if p not in now]
    return adds, removes
