"""Pure: the match-list row and the inbox changes of a folded match."""
from __future__ import annotations

from domain.engine import platform_events as pe
from domain.engine import rules_upgrade
from domain.engine.disputes import voters


TURN = "turn"
INVITATION = "invitation"
DISPUTE_VOTE = "dispute_vote"
RULES_VOTE = "rules_vote"


def waiting_for(match) -> dict:
    """{player: what they must do now}: accept an invitation, vote on the open dispute, vote on the proposed rules
    (before their turn: a quick answer the others wait for), or take their turn."""
    if match.status == "invited":
        return {p: INVITATION for p in match.invited}
    dispute = match.open_dispute() if match.status == "active" else None
    if dispute is not None:
        return {p: DISPUTE_VOTE for p in voters(match, dispute) if p not in dispute["votes"]}
    reasons = {p: TURN for p in match.active_players()}
    proposal = rules_upgrade.open_proposal(match) if match.status == "active" else None
    if proposal is not None:
        reasons.update((p, RULES_VOTE) for p in rules_upgrade.voters(match, proposal) if p not in proposal["votes"])
    return reasons


def match_row(match, updated_at: str) -> dict:
    """The match-list row of a match at its current version."""
    return {"id": match.id, "game": match.game_id, "status": match.status, "seats": match.seats,
            "players": list(match.players), "version": match.version,
            "active_players": match.active_players(), "result": match.result,
            "created_by": match.created_by, "updated_at": updated_at, "invited": list(match.invited),
            "waiting_for": waiting_for(match), "rematch": match.rematch}


def waits(row: dict) -> dict:
    """{player: reason} of a row (rows written before `waiting_for` existed: the active players' turns)."""
    if "waiting_for" in row:
        return row["waiting_for"]
    return {p: TURN for p in row.get("active_players", [])}


def waited_for(row: dict | None) -> dict:
    """{player: reason} of a row's waits (rows written before `waiting_for` existed: every wait a turn)."""
    row = row or {}
    return row["waiting_for"] if "waiting_for" in row else {p: TURN for p in row.get("waiting", {})}


def clock(row: dict, player: str, reason: str) -> str:
    """Which clock `player`'s wait in `row` runs on: their turn's while they are to move (a rules vote asked of
    them meanwhile does not start another), else the reason's own."""
    if reason == RULES_VOTE and player in row.get("active_players", []):
        return TURN
    return reason


def waiting(previous: dict | None, row: dict, at: str, last_acted: dict | None = None) -> dict:
    """{player: waiting_since} for the players who must act in `row`: an earlier start time is kept
    unless the player has acted since or now waits on another clock (then the wait starts at `at`)."""
    before = (previous or {}).get("waiting", {})
    reasons_before = waited_for(previous)
    acted = last_acted or {}
    out = {}
    for p, reason in waits(row).items():
        since = before.get(p)
        same = p in reasons_before and clock(previous, p, reasons_before[p]) == clock(row, p, reason)
        out[p] = since if since is not None and same and acted.get(p, "") <= since else at
    return out


def last_actions(envelopes, players, lookback: int = 500) -> dict:
    """{player: time of their latest event} among the last `lookback` envelopes; a turn that timed out
    counts as the player's (so their next turn starts afresh and gets its own deadline)."""
    out = {}
    for env in reversed(envelopes[-lookback:]):
        actor = env.get("actor")
        if env.get("type") == pe.TURN_TIMED_OUT:
            actor = (env.get("data") or {}).get("player")
        if actor in players and actor not in out and env.get("type") not in pe.NOT_ACTIONS:
            out[actor] = env["at"]
            if len(out) == len(players):
                break
    return out


def waits_started(previous: dict | None, row: dict) -> dict:
    """{player: waiting_since} for every wait (turn, invitation, dispute or rules vote) begun between two rows, and
    for a player to move whose reason changed on the same clock (asked to vote on rules, or back to the move)."""
    was = (previous or {}).get("waiting", {})
    reasons_before, reasons = waited_for(previous), waited_for(row)
    return {p: since for p, since in row.get("waiting", {}).items()
            if was.get(p) != since or reasons_before.get(p) != reasons.get(p)}


def turns_started(previous: dict | None, row: dict) -> dict:
    """{player: waiting_since} for the players whose turn began between two rows of a match (a turn begun while a
    rules vote is asked of the player counts; the vote's end, on the same clock, does not)."""
    was = (previous or {}).get("waiting", {})
    reasons = waits(row)
    return {p: since for p, since in row.get("waiting", {}).items()
            if was.get(p) != since and clock(row, p, reasons.get(p)) == TURN}


def inbox_changes(previous: dict | None, row: dict) -> tuple[dict, list]:
    """(players to add with their waiting-since, players to remove) between two rows of a match."""
    now = row.get("waiting", {})
    removes = [p for p in (previous or {}).get("waiting", {}) if p not in now]
    return waits_started(previous, row), removes
