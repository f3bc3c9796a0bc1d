"""Hypothesis: after any play, no endpoint shows a viewer what is hidden from them (drawn cards, hands,
deck orders), whoever asks: the other player, a spectator, a signed-in stranger."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from service import create_app
from tests.invites import start_http


def auth(user) -> dict:
    return {"Authorization": f"Bearer {user['token']}"} if user else {}


def readable_urls(app, match_id: str, version: int, viewer) -> list:
    """Every read endpoint that shows something of this match, for this viewer."""
    rules = {r.rule for r in app.url_map.iter_rules()}
    urls = [f"/api/matches/{match_id}", f"/api/matches/{match_id}/state", f"/api/matches/{match_id}/events?after=0",
            "/api/matches?status=active", f"/matches/{match_id}"]
    if viewer:
        urls += [f"/api/matches/{match_id}/legal", "/api/users/me/inbox", f"/api/matches?player={viewer['id']}"]
    for path, url in (("/api/matches/<match_id>/replay", f"/api/matches/{match_id}/replay?version={{v}}"),):
        if path in rules:
            urls += [url.format(v=v) for v in range(0, version + 1)]
    urls += [f"/api/matches/{match_id}/{extra}" for extra in ("audit", "disputes")
             if f"/api/matches/<match_id>/{extra}" in rules]
    if "/matches/<match_id>/board" in rules:
        urls.append(f"/matches/{match_id}/board")
    return urls


def fetch_all(client, app, match_id: str, version: int, viewer) -> list:
    """(url, response text) of every readable endpoint; each answers 200, 403 or 404 with JSON or HTML."""
    texts = []
    for url in readable_urls(app, match_id, version, viewer):
        resp = client.get(url, headers=auth(viewer))
        assert resp.status_code < 500, (url, resp.status_code)
        texts.append((url, resp.get_data(as_text=True)))
    return texts


def forms(values: list) -> list:
    """The ways a list of ints can be written in a JSON or HTML answer."""
    return [json.dumps(values), json.dumps(values, separators=(",", ":")), ", ".join(map(str, values))]


def assert_hidden(texts: list, secrets: list, who: str) -> None:
    for url, text in texts:
        for secret in secrets:
            for form in forms(secret):
                assert form not in text, f"{url} shows {who} the hidden {secret}"


@given(seed=st.integers(0, 10 ** 6), moves=st.integers(4, 14))
@settings(max_examples=12, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_dice_race_cards_and_deck_stay_hidden_from_everyone_else(wiring, seed, moves):
    """Random plays of roll/draw/note: the deck order, and a player's drawn cards (two or more), never
    appear in what the other player, a spectator or a stranger is shown, until the match is over."""
    app = create_app(wiring=wiring)
    client = app.test_client()
    ann, bob, eve = (client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob", "eve"))
    mid = start_http(client, auth(ann), {"game": "dice-race", "players": [ann["id"], bob["id"]],
                                         "options": {"target": 100}}, auth(bob))
    chooser = random.Random(seed)
    for _ in range(moves):
        state = client.get(f"/api/matches/{mid}/state", headers=auth(ann)).get_json()
        mover = ann if state["active_players"] == [ann["id"]] else bob
        kind = chooser.choice(["draw", "draw", "roll", "note"])
        body = {"type": kind, "payload": {"text": "hm"} if kind == "note" else {}}
        assert client.post(f"/api/matches/{mid}/commands", json=body, headers=auth(mover)).status_code == 201
    match = wiring.matches.load(mid)
    assert not match.finished
    hands = match.game_state["hands"]
    deck = match.game_state["deck"]
    for viewer, owner in ((bob, ann["id"]), (ann, bob["id"]), (eve, None), (None, None)):
        hidden = [deck] if len(deck) >= 2 else []
        hidden += [h for p, h in hands.items() if p != (viewer or {}).get("id") and len(h) >= 2]
        if viewer is not None and viewer["id"] in hands and len(hands[viewer["id"]]) >= 2:
            own = client.get(f"/api/matches/{mid}/state", headers=auth(viewer))
            assert own.get_json()["view"]["hands"][viewer["id"]] == hands[viewer["id"]], "a player cannot see their cards"
            assert any(form in own.get_data(as_text=True) for form in forms(hands[viewer["id"]])), \
                "the matcher does not recognise a hand as the API writes it"
        assert_hidden(fetch_all(client, app, mid, match.version, viewer), hidden, (viewer or {}).get("name", "a spectator"))


@given(seed=st.integers(0, 10 ** 6), moves=st.integers(3, 25))
@settings(max_examples=6, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_a_uchronia_hand_stays_hidden_from_the_other_players(wiring, seed, moves):
    """Random legal Uchronia plays: no read endpoint shows a player another player's hand colours (the
    view gives them no hand and the events no drawn colours), nor the draw pile's order."""
    app = create_app(wiring=wiring)
    client = app.test_client()
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob", "cid")]
    by_id = {u["id"]: u for u in users}
    mid = start_http(client, auth(users[0]), {"game": "uchronia", "players": [u["id"] for u in users]},
                     *[auth(u) for u in users[1:]])
    chooser = random.Random(seed)
    for _ in range(moves):
        active = client.get(f"/api/matches/{mid}", headers=auth(users[0])).get_json()["active_players"]
        if not active:
            break
        mover = by_id[chooser.choice(sorted(active))]
        legal = client.get(f"/api/matches/{mid}/legal", headers=auth(mover)).get_json()["commands"]
        command = chooser.choice(legal)
        assert client.post(f"/api/matches/{mid}/commands", json=command, headers=auth(mover)).status_code == 201
    match = wiring.matches.load(mid)
    if match.finished:
        return
    for viewer in users + [None]:
        vid = viewer["id"] if viewer else None
        state = client.get(f"/api/matches/{mid}/state", headers=auth(viewer)).get_json()["view"]
        for pid, seat in state["players"].items():
            assert (seat["hand"] is not None) == (pid == vid), f"{pid}'s hand shown to {vid}"
        assert "draw_pile" not in state
        events = client.get(f"/api/matches/{mid}/events?after=0", headers=auth(viewer)).get_json()["events"]
        for ev in events:
            if ev["type"] in ("cards_dealt", "cards_drawn") and ev["data"] and ev["data"].get("player") != vid:
                assert "colors" not in ev["data"], f"{ev['data'].get('player')}'s drawn colours shown to {vid}"
            if ev["type"] == "decks_shuffled":
                assert "resource_order" not in (ev["data"] or {}), f"the deck order shown to {vid}"
        pile = match.game_state["draw_pile"]
        texts = fetch_all(client, app, mid, match.version, viewer)
        for url, text in texts:
            assert json.dumps(pile[:8]) not in text and json.dumps(pile[:8], separators=(",", ":")) not in text, \
                f"{url} shows the draw pile's order"
