""""New since your last visit" per account: the page tells the account what it showed, the next page of the same
account (another browser) starts from there; the version only moves forward, never past the match's, and bad
input changes nothing."""
from __future__ import annotations

import re

from tests.integration.pages.tables import act, page_of


def seen_attr(html: str) -> str:
    """The page's data-seen-version (empty before the account's first visit)."""
    return re.search(r'data-seen-version="([^"]*)"', html).group(1)


def test_another_browser_of_the_account_starts_from_what_the_first_was_shown(table):
    t = table
    mid = t["start"]()
    assert seen_attr(page_of(t, mid)) == ""  # never shown: a first visit marks nothing new
    version = t["client"].get(f"/api/matches/{mid}").get_json()["version"]
    told = act(t, mid, "seen", {"version": version})
    assert told.status_code == 200 and told.get_json() == {"match": mid, "seen": version}
    moved = t["client"].post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=t["ha"])
    assert moved.status_code == 201
    assert seen_attr(page_of(t, mid)) == str(version)  # the move after it is new, on any browser of Ann's


def test_the_seen_version_only_moves_forward_and_never_past_the_match(table):
    t = table
    mid = t["start"]()
    client = t["client"]
    version = client.get(f"/api/matches/{mid}").get_json()["version"]
    post = lambda v: client.post(f"/api/matches/{mid}/seen", json={"version": v}, headers=t["ha"])  # noqa: E731
    assert post(10 ** 6).get_json()["seen"] == version
    assert post(0).get_json()["seen"] == version  # an old tab cannot take it back
    assert seen_attr(page_of(t, mid)) == str(version)


def test_bad_input_is_refused_and_changes_nothing(table):
    t = table
    mid = t["start"]()
    client = t["client"]
    cases = [({"version": -1}, t["ha"], 400), ({"version": "3"}, t["ha"], 400), ({}, t["ha"], 400),
             ({"version": 1}, {}, 401)]
    for payload, headers, status in cases:
        answer = client.post(f"/api/matches/{mid}/seen", json=payload, headers=headers)
        assert answer.status_code == status and "error" in answer.get_json(), (payload, answer.get_json())
    missing = client.post("/api/matches/nope/seen", json={"version": 1}, headers=t["ha"])
    assert missing.status_code == 404
    assert act(t, mid, "seen", {"version": 1}).status_code == 200
    no_csrf = client.post(f"/matches/{mid}/act/seen", json={"version": 2})
    assert no_csrf.status_code in (401, 403)
    assert seen_attr(page_of(t, mid)) == "1"
