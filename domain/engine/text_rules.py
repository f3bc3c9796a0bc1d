"""Which characters a piece of player text may hold: one scan shared by names and chat, each with its own policy."""
from __future__ import annotations

import unicodedata


def first_refused(text: str, categories: frozenset, keep: frozenset = frozenset(),
                  also: frozenset = frozenset()) -> str | None:
    """The first character of `text` in one of the Unicode `categories` (unless in `keep`) or in `also`; None
    when there is none."""
    for ch in text:
        if ch in also or (unicodedata.category(ch) in categories and ch not in keep):
            return ch
    return None
