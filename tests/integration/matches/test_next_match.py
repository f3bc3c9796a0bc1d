"""Every match page links the next match where it is the player's move (the inbox's longest-waiting one), and the
invitation name suggestions list the player's recent opponents first."""
from __future__ import annotations

from tests.conftest import drain_projections
from tests.invites import start_http
from tests.integration.pages.forms import browser_of


def test_the_match_page_links_the_longest_waiting_other_match(wiring, client, make_user):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    oldest = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    drain_projections(wiring)
    newer = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    done = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    assert client.post(f"/api/matches/{done}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    drain_projections(wiring)
    browser = browser_of(client, wiring, ann)
    page = browser.get(f"/matches/{done}").get_data(as_text=True)
    assert f'href="/next?from={done}" data-next-match' in page and "Next match where it's my move" in page
    assert browser.get(f"/next?from={done}").headers["Location"].endswith(f"/matches/{oldest}")
    assert browser.get(f"/next?from={oldest}").headers["Location"].endswith(f"/matches/{newer}")
    for mid in (oldest, newer):
        assert client.post(f"/api/matches/{mid}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    drain_projections(wiring)
    assert browser.get(f"/next?from={done}").headers["Location"] == "/", "nothing waits: the lobby"
    anonymous = client.application.test_client()
    assert "data-next-match" not in anonymous.get(f"/matches/{done}").get_data(as_text=True)
    assert anonymous.get("/next").headers["Location"] == "/"


def test_name_suggestions_list_recent_opponents_first(wiring, client, make_user):
    ann, ha = make_user("ann")
    older, ho = make_user("Bea")
    recent, hr = make_user("Bertha")
    stranger, _hs = make_user("Ben")
    start_http(client, ha, {"game": "dice-race", "players": [ann, older]}, ho)
    drain_projections(wiring)
    start_http(client, ha, {"game": "dice-race", "players": [ann, recent]}, hr)
    drain_projections(wiring)
    api = client.get("/api/users?name=be", headers=ha).get_json()["users"]
    assert [u["id"] for u in api] == [recent, older, stranger]
    assert [u["recent"] for u in api] == [True, True, False]
    anonymous = client.get("/api/users?name=be").get_json()["users"]
    assert [u["name"] for u in anonymous] == ["Bea", "Ben", "Bertha"], "without a caller: name order"
    page = browser_of(client, wiring, ann).get("/users/suggest?name=BE").get_json()["users"]
    assert [u["id"] for u in page] == [recent, older, stranger]
    assert client.application.test_client().get("/users/suggest?name=").get_json() == {"users": []}
