"""Match chat: a seated player's message appended as a `chat_posted` platform event."""
from __future__ import annotations

from domain.engine.chat import decide_chat

from service.app.errors import NotSeated


def post(matches, actor: str, match_id: str, text: str) -> dict:
    """Append the caller's chat message; answer {"version"} (spectators may read, never post)."""
    def decide(match, rng):
        if actor not in match.players:
            raise NotSeated("only seated players may chat; spectators read")
        return decide_chat(match, actor, text)

    return {"version": matches.execute(match_id, actor, decide)["version"]}
