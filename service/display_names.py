"""What a player's display name may hold: trimmed, 1 to 40 characters, no invisible or control characters."""
from __future__ import annotations

import unicodedata

MAX_LENGTH = 40
# joiners that emoji sequences and some scripts (Persian, Indic) need: format characters, but harmless
ALLOWED_FORMAT = {"\u200c", "\u200d"}
# control (C0, C1), format (bidi overrides, zero-width spaces...), line and paragraph separators, surrogates
REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def display_name(raw: str) -> str:
    """The name to store for `raw` (whitespace at both ends removed), or ValueError saying what is wrong."""
    name = raw.strip()
    if not 1 <= len(name) <= MAX_LENGTH:
        raise ValueError(f"a name has 1 to {MAX_LENGTH} characters, not counting spaces at either end")
    for ch in name:
        if unicodedata.category(ch) in REFUSED_CATEGORIES and ch not in ALLOWED_FORMAT:
            raise ValueError(f"a name may not hold control or invisible characters (U+{ord(ch):04X})")
    return name
