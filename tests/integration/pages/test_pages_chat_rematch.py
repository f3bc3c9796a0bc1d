"""Chat and rematch from the match page (Flask test client): escaped messages beside the log and in the
live sections, spectators read only; the game-over Rematch button makes the invited rematch once."""
from __future__ import annotations

from tests.conftest import drain_projections
from tests.integration.pages.tables import act, page_of


def test_chat_is_escaped_beside_the_log_live_and_read_only_for_spectators(table, wiring):
    t = table
    mid = t["start"]()
    posted = act(t, mid, "chat", {"text": "<b>gg</b> & well played"})
    assert posted.status_code == 201, posted.get_json()
    html = page_of(t, mid)
    chat = html[html.index('id="section-chat"'):html.index('id="chat-form"')]
    assert "&lt;b&gt;gg&lt;/b&gt; &amp; well played" in chat and "<b>gg</b>" not in html
    assert "chat_posted" not in html[html.index('class="log"'):], "chat is not a move in the log"
    live = t["client"].get(f"/matches/{mid}/live").get_json()
    assert "well played" in live["html"]["chat"]
    from service import create_app
    spectator = create_app(wiring=wiring).test_client()
    seen = spectator.get(f"/matches/{mid}").get_data(as_text=True)
    assert "well played" in seen and 'id="chat-form"' not in seen and "Spectators read the chat" in seen
    assert spectator.post(f"/matches/{mid}/act/chat", json={"text": "hi"}).status_code == 401
    assert t["client"].post(f"/api/matches/{mid}/chat", json={"text": "x" * 501}, headers=t["ha"]).status_code in (400, 422)


def test_rematch_from_the_game_over_invites_the_others_once(table, wiring):
    t = table
    mid = t["start"](target=1)
    assert act(t, mid, "command", {"type": "roll", "payload": {}}).status_code == 201
    assert 'id="rematch"' in page_of(t, mid)
    first = act(t, mid, "rematch", {})
    assert first.status_code == 201, first.get_json()
    again = act(t, mid, "rematch", {})
    assert again.get_json()["id"] == first.get_json()["id"], "asking twice answers the same rematch"
    rematch = first.get_json()["id"]
    html = page_of(t, mid)
    assert f'href="/matches/{rematch}"' in html and 'id="rematch"' not in html
    new = wiring.matches.load(rematch)
    assert new.game_id == "dice-race" and new.players == [t["ann"], t["bob"]] and new.options["target"] == 1
    drain_projections(wiring)
    inbox = t["client"].get("/api/users/me/inbox", headers=t["hb"]).get_json()["matches"]
    assert [(m["id"], m["waiting_for"]) for m in inbox if m["id"] == rematch] == [(rematch, "invitation")]


def test_a_dispute_vote_waiting_for_the_player_is_in_the_lobby_in_words(table, wiring):
    t = table
    mid = t["start"]()
    noted = act(t, mid, "command", {"type": "note", "payload": {"text": "mine"}}).get_json()
    opened = t["client"].post(f"/api/matches/{mid}/disputes", json={"version": noted["version"], "reason": "no"},
                              headers=t["hb"])
    assert opened.status_code == 201, opened.get_json()
    drain_projections(wiring)
    lobby = t["client"].get("/").get_data(as_text=True)
    row = lobby[lobby.index(f'data-inbox-match="{mid}"'):]
    assert "Bob disputes your move: vote" in row[:row.index("</li>")]
    lobby_ru = t["client"].get("/", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    row_ru = lobby_ru[lobby_ru.index(f'data-inbox-match="{mid}"'):]
    assert "Bob оспаривает ваш ход: проголосуйте" in row_ru[:row_ru.index("</li>")]
