"""The match page through the Flask test client: log times, dispute from a log entry (the quote, the
vote deadline, a dispute revert told apart from a take-back), the game over (standings, one finish
entry, no take-back or dispute controls, export)."""
from __future__ import annotations

import re

from tests.integration.pages.tables import act, page_of


def entry(html: str, version: int) -> str:
    """The HTML of one log entry."""
    start = html.index(f'data-event-version="{version}"')
    return html[start:html.index("</li>", start)]


def test_a_move_is_disputed_from_its_log_entry_and_its_revert_is_marked_as_a_dispute(table):
    t = table
    mid = t["start"]()
    client = t["client"]
    assert act(t, mid, "command", {"type": "roll", "payload": {}}).status_code == 201
    bob_roll = client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=t["hb"]).get_json()
    version = bob_roll["version"]
    html = page_of(t, mid)
    bobs = entry(html, version)
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+Z"', bobs), "each entry carries its ISO time"
    quote = re.search(r'data-quote="([^"]+)"', bobs).group(1)
    assert quote.startswith("Bob rolled ") and f'data-dispute-version="{version}"' in bobs
    assert "data-dispute-version" not in entry(html, 1), "platform events are not moves to dispute"

    opened = act(t, mid, "dispute", {"version": version, "reason": "the die fell off the table"})
    assert opened.status_code == 201, opened.get_json()
    html = page_of(t, mid)
    assert "data-dispute-version" not in html, "no second dispute while one is open"
    dispute = html[html.index("data-dispute="):]
    assert quote in dispute and "Votes close" in dispute and "data-countdown" in dispute
    votes = client.get(f"/api/matches/{mid}/disputes").get_json()["disputes"]
    client.post(f"/api/matches/{mid}/disputes/{votes[0]['id']}/votes", json={"accept": True}, headers=t["hb"])
    overturned = entry(page_of(t, mid), version)
    assert "reverted-dispute" in overturned and "overturned by a dispute" in overturned
    assert "taken back" not in overturned


def test_a_take_back_is_marked_differently_from_a_dispute(table):
    t = table
    mid = t["start"]()
    noted = act(t, mid, "command", {"type": "note", "payload": {"text": "hello"}}).get_json()
    assert act(t, mid, "takeback", {}).status_code == 201
    taken = entry(page_of(t, mid), noted["version"])
    assert "reverted-takeback" in taken and "taken back" in taken and "overturned" not in taken


def test_game_over_shows_standings_once_and_no_take_back_or_dispute(table):
    t = table
    mid = t["start"](target=1)
    client = t["client"]
    assert client.get(f"/matches/{mid}/export", headers={"Accept": "text/html"}).status_code == 409
    assert act(t, mid, "command", {"type": "roll", "payload": {}}).status_code == 201
    html = page_of(t, mid)
    over = html[html.index("data-game-over"):]
    assert "Ann won." in over and "<table" in over
    assert re.search(r"<td[^>]*>1</td>\s*<th scope=\"row\">Ann", over) and re.search(r"<td[^>]*>2</td>\s*<th scope=\"row\">Bob", over)
    log = html[html.index('class="log"'):]
    assert log.count("The match is over") + log.count("match finished") == 1
    assert 'id="takeback"' not in html and "data-dispute-version" not in html
    for link in (f"/matches/{mid}/audit", f"/matches/{mid}/export"):
        assert f'href="{link}"' in over and client.get(link).status_code == 200
    export = client.get(f"/matches/{mid}/export")
    assert "attachment" in export.headers["Content-Disposition"] and export.get_json()["seed"]


def test_an_open_dispute_is_told_to_each_voter_in_words(table, wiring):
    from service.web.pages.match_log import dispute_vote_note
    t = table
    mid = t["start"]()
    noted = act(t, mid, "command", {"type": "note", "payload": {"text": "mine"}}).get_json()
    names = {t["ann"]: "Ann", t["bob"]: "Bob"}
    assert wiring.matches.read(mid, lambda m: dispute_vote_note(m, t["ann"], names)) is None
    opened = t["client"].post(f"/api/matches/{mid}/disputes", json={"version": noted["version"], "reason": "no"},
                              headers=t["hb"])
    assert opened.status_code == 201, opened.get_json()
    assert wiring.matches.read(mid, lambda m: dispute_vote_note(m, t["ann"], names)) == "Bob disputes your move: vote"
