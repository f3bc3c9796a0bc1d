"""What a player's display name may hold: trimmed, 1 to 40 characters, no invisible or control characters."""
from __future__ import annotations

from domain.engine.text_rules import first_refused

MAX_LENGTH = 40
# joiners that emoji sequences and some scripts (Persian, Indic) need: format characters, but harmless
ALLOWED_FORMAT = frozenset("\u200c\u200d")
# control (C0, C1), format (bidi overrides, zero-width spaces...), line and paragraph separators, surrogates
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def display_name(raw: str) -> str:
    """The name to store for `raw` (whitespace at both ends removed), or ValueError saying what is wrong."""
    name = raw.strip()
    if not 1 <= len(name) <= MAX_LENGTH:
        raise ValueError(f"a name has 1 to {MAX_LENGTH} characters, not counting spaces at either end")
    bad = first_refused(name, REFUSED_CATEGORIES, keep=ALLOWED_FORMAT)
    if bad is not None:
        raise ValueError(f"a name may not hold control or invisible characters (U+{ord(bad):04X})")
    return name
