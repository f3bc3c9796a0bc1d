"""The platform invariant platform:match.someone-may-act: an active match always has someone who may act."""
from __future__ import annotations

from .disputes import voters

RULE = "platform:match.someone-may-act"


def stuck_reason(match) -> str | None:
    """Why an active match has nobody who may act, or None when the invariant holds.

    Holds when the match is not active; when a dispute is open and some voter has yet to vote; or when
    the game is not over, someone is to move and every player to move has a legal command."""
    if match.status != "active":
        return None
    dispute = match.open_dispute()
    if dispute is not None:
        if any(p not in dispute["votes"] for p in voters(match, dispute)):
            return None
        return f"dispute {dispute['id']} is open but every voter has voted"
    if match.game.result(match.game_state) is not None:
        return "the game is over but the match is still active"
    active = match.active_players()
    if not active:
        return "nobody is to move"
    for player in active:
        if player not in match.players:
            return f"{player} is to move but is not seated"
        if not match.game.legal_commands(match.game_state, player):
            return f"{player} is to move but has no legal command"
    return None
