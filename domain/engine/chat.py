"""Chat: a seated player's message, a `chat_posted` platform event (audit trail, never game state)."""
from __future__ import annotations

from . import platform_events as pe
from .aggregate import new_event
from .errors import RuleViolation

MAX_LENGTH = 500


def decide_chat(match, player: str, text: str) -> list[dict]:
    """`chat_posted {text}` for a seated player; the text is stripped, non-empty and at most MAX_LENGTH."""
    if player not in match.players:
        raise RuleViolation("platform:chat.not-seated", "only seated players may chat; spectators read")
    text = (text or "").strip()
    if not text:
        raise RuleViolation("platform:chat.empty", "say something")
    if len(text) > MAX_LENGTH:
        raise RuleViolation("platform:chat.too-long", f"a chat message has at most {MAX_LENGTH} characters")
    return [new_event(pe.CHAT_POSTED, text=text)]
