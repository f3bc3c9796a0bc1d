"""Chat: a seated player's message, a `chat_posted` platform event (audit trail, never game state)."""
from __future__ import annotations

from . import platform_events as pe
from .aggregate import new_event
from .errors import RuleViolation
from .text_rules import first_refused
from .text import T

MAX_LENGTH = 500
KEPT_CONTROLS = frozenset("\n\t")  # a message may have lines
# bidirectional embeddings, overrides and isolates: they can make a message read backwards on every screen
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def refused_in_message(text: str) -> str | None:
    """The first character a player's message (chat, a dispute's reason) may not hold: a control character
    other than a line break or tab, or a direction override; None when there is none."""
    return first_refused(text, frozenset({"Cc"}), keep=KEPT_CONTROLS, also=BIDI_CONTROLS)


def decide_chat(match, player: str, text: str) -> list[dict]:
    """`chat_posted {text}` for a seated player of a match that was not cancelled (before the start, during
    and after the end); the text is stripped, non-empty, at most MAX_LENGTH, and
    free of control characters (but line breaks and tabs) and direction overrides."""
    if player not in match.players:
        raise RuleViolation("platform:chat.not-seated", T("only seated players may chat; spectators read"))
    if match.status == "cancelled":
        raise RuleViolation("platform:chat.cancelled", T("this match was cancelled: nobody will read it here"))
    text = (text or "").replace("\r\n", "\n").strip()  # a client's CRLF line breaks are line breaks
    if not text:
        raise RuleViolation("platform:chat.empty", T("say something"))
    if len(text) > MAX_LENGTH:
        raise RuleViolation("platform:chat.too-long", T("a chat message has at most {max_length} characters",
                                                        max_length=MAX_LENGTH))
    bad = refused_in_message(text)
    if bad is not None:
        raise RuleViolation("platform:chat.invisible-character",
                            T("a chat message may not hold control characters or direction overrides (U+{ord:04X})",
                              ord=ord(bad)))
    return [new_event(pe.CHAT_POSTED, text=text)]
