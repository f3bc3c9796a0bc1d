"""Ann's browser at a dice-race table (the `table` fixture of tests/integration/conftest.py): what the match page's
script sends, and the match page it shows."""
from __future__ import annotations


def act(t, match_id, action, body):
    """What the page's script sends: session cookie + X-CSRF-Token."""
    return t["client"].post(f"/matches/{match_id}/act/{action}", json=body, headers={"X-CSRF-Token": t["csrf"]})


def page_of(t, match_id) -> str:
    return t["client"].get(f"/matches/{match_id}").get_data(as_text=True)
