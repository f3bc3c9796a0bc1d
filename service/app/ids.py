"""What a match or user id may look like, wherever one comes from (a URL, an imported backup).

Ids as the service makes them (m_ + 16 hex; u_ + 12 hex; bot:<level>:<n>), with room for imported ones: never a
brace, a colon in a match id, a space or anything else that could make a Redis key name other than its own."""
from __future__ import annotations

import re

ID_SHAPES = {"match_id": re.compile(r"[A-Za-z0-9_\-]{1,64}"), "user_id": re.compile(r"[A-Za-z0-9_\-:]{1,64}")}


def id_refusal(kind: str, value) -> str | None:
    """Why `value` cannot be a `kind` ("match_id" or "user_id"), or None when it can."""
    if isinstance(value, str) and ID_SHAPES[kind].fullmatch(value):
        return None
    what = kind.removesuffix("_id")
    return f"{value!r} is not a {what} id (1-64 letters, digits, _ or -{', :' if what == 'user' else ''})"
