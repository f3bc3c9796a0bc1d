"""The pages in headless Chromium against a real web server and worker: sign in, play, live updates,
replay, rejections, spectators, security; screenshots of each game's page go to test-artifacts/."""
from __future__ import annotations

import json
import re
import time
import urllib.parse

import pytest

from tests.e2e.browser_kit import ARTIFACTS, browser  # noqa: F401 (the module-scoped chromium fixture)
from tests.e2e.processes import Api, start_invited
from tests.waiting import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.site(env={"TURNSTREAM_PUBLIC_URL": "http://127.0.0.1"})]
COLOURS = re.compile(r"\b(yellow|grey|red|blue|brown)\b")


class Player:
    """A browser context signed in as a new player, recording every URL it requests."""

    def __init__(self, browser, base, name):
        self.context = browser.new_context(viewport={"width": 1360, "height": 1000})
        self.context.set_default_timeout(15000)
        self.page = self.context.new_page()
        self.urls = []
        self.page.on("request", lambda req: self.urls.append(req.url))
        self.page.goto(base + "/")
        self.page.fill("#signup-form input[name=name]", name)
        self.page.click("#signup-form button[type=submit]")
        self.id = self.page.text_content("[data-new-user-id]").strip()
        self.token = self.page.text_content("[data-new-token]").strip()

    def version(self) -> int:
        """The match version the page shows."""
        return int(self.page.get_attribute("[data-match-version]", "data-match-version"))


@pytest.fixture(scope="module")
def duel(browser, base):
    """Ann starts an Uchronia match against Bob from the lobby; both pages are open and live."""
    ann, bob = Player(browser, base, "Ann"), Player(browser, base, "Bob")
    ann.page.goto(base + "/")
    card = ann.page.locator("form.game-card[data-game=uchronia]")
    card.locator("input[name=invite]").fill(bob.id)
    card.locator("button[type=submit]").click()
    ann.page.wait_for_url(re.compile(r"/matches/m_[0-9a-f]+$"))
    match_url = ann.page.url
    match_id = match_url.rsplit("/", 1)[1]
    invitation = f"#your-move [data-inbox-match='{match_id}'][data-waiting-for=invitation]"

    def bob_is_invited():
        bob.page.goto(base + "/")
        return bob.page.locator(invitation).count()

    wait_for(bob_is_invited, 5, "the invitation in bob's inbox", interval=0.2)
    bob.page.locator(f"{invitation} [data-accept]").click()
    bob.page.wait_for_url(match_url)
    for p in (ann, bob):
        p.page.wait_for_selector("#live-indicator.on")
    yield ann, bob, match_url
    ann.context.close()
    bob.context.close()


def test_a_click_shows_up_live_on_the_other_players_page(duel):
    ann, bob, _url = duel
    before = bob.version()
    assert ann.version() == before
    button = ann.page.locator("[data-command]").first
    command = json.loads(button.get_attribute("data-command"))
    assert set(command) == {"type", "payload"}
    started = time.monotonic()
    button.click()
    bob.page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")
    latency = time.monotonic() - started
    bob.page.wait_for_selector(f"[data-event-version='{before + 1}']")
    assert bob.version() > before
    assert ann.page.locator(f"[data-event-version='{before + 1}']").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "live-update-latency.txt").write_text(f"click to the other page's update: {latency * 1000:.0f} ms\n")
    print(f"\nclick -> other player's page updated: {latency * 1000:.0f} ms")
    assert latency < 5.0
    ann.page.screenshot(path=str(ARTIFACTS / "uchronia-ann.png"), full_page=True)
    bob.page.screenshot(path=str(ARTIFACTS / "uchronia-bob.png"), full_page=True)


def test_the_replay_slider_shows_an_earlier_board(duel):
    ann, _bob, _url = duel
    live_board = ann.page.inner_html("#board")
    earlier = 3
    ann.page.eval_on_selector("#replay-slider", "(el, v) => { el.value = String(v); "
                                                "el.dispatchEvent(new Event('input', {bubbles: true})); }", earlier)
    ann.page.wait_for_selector(f"#board[data-board-version='{earlier}']")
    assert ann.page.is_visible("#replay-badge")
    assert ann.page.inner_html("#board") != live_board
    ann.page.click("#replay-live")
    ann.page.wait_for_selector(f"#board[data-board-version='{ann.version()}']")
    assert not ann.page.is_visible("#replay-badge")


def test_a_rejection_shows_the_rules_message(duel):
    """A stale or forged command (here a button the page never offered) is refused with the rule's words."""
    ann, _bob, _url = duel
    assert ann.page.locator("#custom-command").count() == 0, "no raw-JSON command form for players"
    bad = {"type": "issue_order", "payload": {"order": "conquer", "colors": ["pink"]}}
    ann.page.evaluate("""cmd => { const b = document.createElement('button'); b.id = 'forged';
        b.dataset.command = JSON.stringify(cmd); b.textContent = 'Forged';
        document.querySelector('#section-actions').appendChild(b); }""", bad)
    version = ann.version()
    ann.page.click("#forged")
    ann.page.wait_for_selector("#message.error")
    text = ann.page.text_content("#message")
    api = Api(ann.page.url.split("/matches/")[0], ann.token)
    status, answer = api.post("/api/matches/" + ann.page.url.rsplit("/", 1)[1] + "/commands", bad)
    assert status == 422
    message = answer["error"]["message"]
    assert (message[0].upper() + message[1:]) in text, text
    assert answer["error"]["rule"] not in text, "the page says the refusal in words, without the rule id"
    assert ann.page.get_attribute("#message", "data-rule") == answer["error"]["rule"], "the rule id stays at hand"
    assert ann.version() == version


def test_a_spectator_sees_no_hidden_information(duel, browser):
    ann, bob, url = duel
    spectator = browser.new_context()
    page = spectator.new_page()
    page.goto(url)
    page.wait_for_selector("[data-spectator]")
    dealt = [int(v) for v in bob.page.eval_on_selector_all(  # a command's entry, or an event folded under one
        "li.cards_dealt", "els => els.map(e => e.dataset.eventVersion || e.dataset.subVersion)")]
    assert dealt, "the log shows the deal"
    own_deal_seen = False
    for version in dealt:
        words = f"[data-event-version='{version}'] > .text, [data-sub-version='{version}'] > .text"
        seen_by_spectator = page.text_content(words)
        assert not COLOURS.search(seen_by_spectator), f"a spectator sees dealt colours: {seen_by_spectator}"
        own_deal_seen |= bool(COLOURS.search(bob.page.text_content(words)))
    assert own_deal_seen, "a player sees the colours of their own deal"
    board_text = page.text_content("#board")
    assert len(re.findall(r"Hand:?\s*\d+ card\(s\)", board_text)) == 2, board_text
    own_board = bob.page.text_content("#board")
    assert len(re.findall(r"Hand:?\s*\d+ card\(s\)", own_board)) == 1
    assert page.locator("[data-command]").count() == 0
    page.screenshot(path=str(ARTIFACTS / "uchronia-spectator.png"), full_page=True)
    spectator.close()


def test_pages_escape_carry_csrf_and_keep_tokens_out_of_urls(duel, browser, base):
    ann, bob, url = duel
    mallory = Player(browser, base, "<img src=x onerror=alert(1)>")
    assert mallory.page.locator("img[src=x]").count() == 0
    assert "&lt;img src=x" in mallory.page.content()
    for player in (ann, bob, mallory):
        for form in player.page.query_selector_all("form[method=post]"):
            assert form.query_selector("input[name=csrf]") is not None
        for seen in player.urls:
            assert player.token not in seen and "token=" not in seen, seen
    status, _ = _post_form(base + "/matches/new", {"game": "uchronia", "seats": "2", "csrf": "forged"},
                           mallory.context)
    assert status == 403
    match_id = url.rsplit("/", 1)[1]
    response = ann.page.request.post(f"{url}/act/command", data={"type": "plot", "payload": {}},
                                     headers={"X-CSRF-Token": "forged"})
    assert response.status == 403
    status, answer = Api(base).post(f"/api/matches/{match_id}/commands", {"type": "plot", "payload": {}})
    assert status == 401, "the JSON API takes Bearer tokens only, not the page cookie"
    state = ann.page.request.get(f"{base}/api/matches/{match_id}/state?token={ann.token}")
    assert state.json()["view"]["players"][ann.id]["hand"] is None, "?token= is accepted only by the stream"
    mallory.context.close()


def _post_form(url, fields, context):
    """POST a urlencoded form with the context's cookies; (status, text)."""
    response = context.request.post(url, data=urllib.parse.urlencode(fields),
                                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    return response.status, response.text()


def test_each_games_page_draws_its_board(browser, base):
    from domain.games import load_games
    from service.web.boards import has_picture
    games_here = load_games()
    host = Player(browser, base, "Host")
    guest = Api(base)
    status, other = guest.post("/api/users", {"name": "Guest"})
    assert status == 201
    status, games = Api(base).get("/api/games")
    drawn = []
    for game in games["games"]:
        status, match = start_invited(Api(base, host.token), {"game": game["id"], "players": [host.id, other["id"]]},
                                      {other["id"]: other["token"]})
        assert status == 201, match
        host.page.goto(f"{base}/matches/{match['id']}")
        host.page.wait_for_selector("#live-indicator.on")
        if has_picture(games_here[game["id"]]):
            assert host.page.locator("#board svg").count() >= 1, game["id"]
            drawn.append(game["id"])
        else:
            assert host.page.locator("#board pre.board-json").count() == 1
        assert host.page.locator("[data-event-version]").count() >= 3
        host.page.screenshot(path=str(ARTIFACTS / f"{game['id']}-page.png"), full_page=True)
    (ARTIFACTS / "boards-drawn.txt").write_text("\n".join(drawn) + "\n")
    assert "uchronia" in drawn
    host.context.close()


def test_the_lobby_lists_your_move_first(duel, base):
    ann, bob, url = duel
    match_id = url.rsplit("/", 1)[1]
    waiting = [p for p in (ann, bob) if p.page.locator("[data-your-turn]").count()]
    assert waiting, "someone must move in the running match"
    page = waiting[0].page
    def lobby_lists_the_match():
        page.goto(base + "/")
        return page.locator(f"#your-move [data-inbox-match='{match_id}']").count()

    wait_for(lobby_lists_the_match, 5, "the inbox projection to list the match", interval=0.2)
    sections = page.eval_on_selector_all("main > section", "els => els.map(e => e.id)")
    assert sections.index("your-move") < sections.index("my-matches") < sections.index("open-matches")
    page.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)
    page.goto(url)
