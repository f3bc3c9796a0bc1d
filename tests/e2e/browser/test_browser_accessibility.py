"""axe-core (served from the axe-playwright-python wheel, no CDN) finds no serious or critical violation
on the lobby, the welcome page, one match page per game, a replay, a finished match and an error page;
replay pauses the actions and a log click seeks; every such page is screenshotted at 390 and 1280 px."""
from __future__ import annotations

import random
import re

import pytest

from tests.e2e import browser_kit
from tests.e2e.browser_kit import ARGS, CHROMIUM
from tests.e2e.processes import Api
from tests.waiting import wait_for

pytestmark = pytest.mark.browser
ARTIFACTS = browser_kit.ARTIFACTS / "pages"
GAMES = ("uchronia", "merchant-of-venus", "ti4-exploration", "origins")
WIDTHS = (390, 1280)
BLOCKING = ("serious", "critical")


def furnish(site: dict, redis_url: str) -> dict:
    """A match of every game between Ann and Bob a few moves in, and a finished one."""
    ann, bob = site["ann"], site["bob"]
    apis = {ann["id"]: Api(site["base"], ann["token"]), bob["id"]: Api(site["base"], bob["token"])}
    return {"matches": {game: start(apis, ann, bob, game, moves=6) for game in GAMES},
            "finished": start(apis, ann, bob, "ti4-exploration", moves=None)}


def start(apis: dict, ann: dict, bob: dict, game: str, moves: int | None) -> str:
    """A match of Ann and Bob with `moves` random legal moves played (None: played to the end)."""
    status, match = apis[ann["id"]].post("/api/matches", {"game": game, "players": [ann["id"], bob["id"]],
                                                          "turn_deadline_hours": 24})
    assert status == 201, match
    if match.get("status") == "invited":
        apis[bob["id"]].post(f"/api/matches/{match['id']}/accept")
    chooser = random.Random(7)
    played = 0
    while moves is None or played < moves:
        summary = apis[ann["id"]].get(f"/api/matches/{match['id']}")[1]
        if summary["status"] != "active" or not summary["active_players"]:
            break
        api = apis[summary["active_players"][0]]
        commands = api.get(f"/api/matches/{match['id']}/legal")[1]["commands"]
        status, answer = api.post(f"/api/matches/{match['id']}/commands", chooser.choice(commands))
        assert status == 201, answer
        played += 1
        assert played < 2000, "the playout did not finish"
    return match["id"]


@pytest.fixture(scope="module")
def ann_page(site):
    """Ann's browser, signed in with her token through the sign-in form."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="America/New_York")
        context.set_default_timeout(15000)
        page = context.new_page()
        page.failed = []
        page.on("response", lambda r: page.failed.append(r.url) if r.status >= 400 and "/static/" in r.url
                or r.url.endswith("favicon.ico") and r.status != 200 else None)
        page.goto(site["base"] + "/")
        page.fill("#signin-form input[name=token]", site["ann"]["token"])
        page.click("#signin-form button[type=submit]")
        page.wait_for_selector("#your-move")
        yield page
        browser.close()


def check(page, name: str) -> None:
    """No serious or critical axe violation on the page; screenshots at both widths."""
    from axe_playwright_python.sync_playwright import Axe
    results = Axe().run(page)
    blocking = [v for v in results.response["violations"] if v.get("impact") in BLOCKING]
    summary = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in blocking]
    assert not blocking, f"{name}: {summary}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


# the focused element is a visible, enabled control (not the body) in the actions when some are left, else in
# the actions' card (its heading, made focusable with tabindex=-1) or on the board
FOCUS_KEPT = """() => { const a = document.activeElement;
    if (!a || a === document.body || a.disabled || !a.checkVisibility() || !a.matches(':focus')) { return false; }
    const left = [...document.querySelectorAll('#section-actions [data-command]')].some(b => b.checkVisibility());
    return left ? !!a.closest('#section-actions') : !!a.closest('#actions-card, #board'); }"""
FOCUSED = """() => { const a = document.activeElement; return a === document.body ? 'body' :
    a.outerHTML.slice(0, 200) + (a.disabled ? ' (disabled)' : '') + (a.isConnected ? '' : ' (detached)'); }"""


def open_match(page, base: str, match_id: str) -> None:
    page.goto(f"{base}/matches/{match_id}")
    page.wait_for_selector("#live-indicator.on")


def test_lobby_and_error_pages_pass_axe(site, ann_page):
    page = ann_page
    page.goto(site["base"] + "/")
    check(page, "lobby")
    page.goto(site["base"] + "/no/such/page")
    assert page.locator("h1").text_content() == "This page does not exist"
    check(page, "not-found")
    assert not page.failed, page.failed


@pytest.mark.parametrize("game", GAMES)
def test_each_games_match_page_passes_axe(site, ann_page, game):
    page = ann_page
    open_match(page, site["base"], site["matches"][game])
    times = page.eval_on_selector_all("li[data-event-version] time", "els => els.map(e => e.textContent)")
    assert times and not any("UTC" in t for t in times), "log times are shown in the viewer's zone"
    assert page.locator(".deadline [data-countdown]").count() == 1, "the turn deadline counts down"
    check(page, f"match-{game}")


def test_replay_pauses_the_actions_and_a_log_click_seeks(site, ann_page):
    page = ann_page
    open_match(page, site["base"], site["matches"]["uchronia"])
    head = int(page.get_attribute("[data-match-version]", "data-match-version"))
    target = page.eval_on_selector_all("li[data-event-version]", "els => els.map(e => +e.dataset.eventVersion)")[-3]
    page.click(f"li[data-event-version='{target}'] .text")
    page.wait_for_selector(f"#board[data-board-version='{target}']")
    assert page.is_visible("#replay-note")
    assert page.eval_on_selector("#actions-card", "el => el.inert") is True
    check(page, "replay")
    page.click("#replay-note [data-back-to-live]")
    page.wait_for_selector(f"#board[data-board-version='{head}']")
    assert page.eval_on_selector("#actions-card", "el => el.inert") is False


def test_a_finished_match_shows_standings_and_passes_axe(site, ann_page):
    page = ann_page
    open_match(page, site["base"], site["finished"])
    winners = page.text_content("[data-winners]")
    assert re.match(r"^(Ann|Bob|Ann and Bob|Bob and Ann) won", winners), winners
    assert page.locator("table.standings tbody tr").count() == 2
    assert page.locator("#takeback, [data-dispute-version]").count() == 0
    assert page.locator("li.match_finished").count() <= 1
    check(page, "finished")


def test_moves_since_the_last_visit_are_new_and_the_title_says_your_move(site, ann_page):
    page, ann, bob = ann_page, site["ann"], site["bob"]
    apis = {ann["id"]: Api(site["base"], ann["token"]), bob["id"]: Api(site["base"], bob["token"])}
    match_id = site["matches"]["origins"]
    chooser = random.Random(3)

    def play_until(waiting: str) -> None:
        for _ in range(60):
            active = apis[ann["id"]].get(f"/api/matches/{match_id}")[1]["active_players"]
            if active == [waiting]:
                return
            commands = apis[active[0]].get(f"/api/matches/{match_id}/legal")[1]["commands"]
            apis[active[0]].post(f"/api/matches/{match_id}/commands", chooser.choice(commands))
        raise AssertionError(f"{waiting} never came to move")

    play_until(bob["id"])
    open_match(page, site["base"], match_id)
    page.goto(site["base"] + "/")
    play_until(ann["id"])  # Bob moves while Ann is away
    open_match(page, site["base"], match_id)
    fresh = page.eval_on_selector_all("li.is-new", "els => els.map(e => e.dataset.actor)")
    assert fresh and ann["id"] not in fresh, fresh
    assert page.title().startswith("Your move · "), page.title()
    before = int(page.get_attribute("[data-match-version]", "data-match-version"))
    page.evaluate("() => { window.__samePage = true; }")
    page.locator("#section-actions [data-command]:visible").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")
    page.wait_for_selector("#message.ok:not([hidden])")  # the move's answer came (and the refresh it starts)
    assert page.evaluate("() => window.__samePage === true"), "the page updated in place"
    # the focus stays in the actions while Ann has some left (the match's seed decides whether her move ends
    # her turn), else it rests on a control near them (the actions' heading, the board): never on the body
    try:
        wait_for(lambda: page.evaluate(FOCUS_KEPT), 5, "the focus kept near the actions after the move", interval=0.1)
    except AssertionError as lost:
        raise AssertionError(f"{lost}; it is on {page.evaluate(FOCUSED)}") from None
    page.wait_for_timeout(500)  # a late live update must not drop it either
    assert page.evaluate(FOCUS_KEPT), page.evaluate(FOCUSED)
    assert page.locator("#message[aria-live]").count() == 1


def test_chat_arrives_live_escaped_and_the_writer_keeps_the_focus(site, ann_page):
    page = ann_page
    match_id = site["matches"]["ti4-exploration"]
    open_match(page, site["base"], match_id)
    status, _ = Api(site["base"], site["bob"]["token"]).post(f"/api/matches/{match_id}/chat",
                                                             {"text": "<i>hello</i> Ann"})
    assert status == 201
    page.wait_for_selector("#section-chat li:has-text('hello')")
    assert page.locator("#section-chat i").count() == 0, "chat text is escaped"
    page.fill("#chat-text", "hi Bob, good game")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#section-chat li.mine:has-text('hi Bob, good game')")
    assert page.evaluate("() => document.activeElement.id") == "chat-text"
    check(page, "chat")


def test_the_pages_pass_axe_in_russian_too(site, ann_page):
    """The lobby, each game's match page and a finished match, in Russian (the switch's cookie): axe finds no
    serious or critical violation, and the page says it is Russian (`<html lang="ru">`)."""
    page = ann_page
    page.context.add_cookies([{"name": "lang", "value": "ru", "url": site["base"]}])
    try:
        page.goto(site["base"] + "/")
        assert page.get_attribute("html", "lang") == "ru"
        check(page, "lobby-ru")
        for game in GAMES:
            open_match(page, site["base"], site["matches"][game])
            check(page, f"match-{game}-ru")
        open_match(page, site["base"], site["finished"])
        check(page, "finished-ru")
    finally:
        page.context.add_cookies([{"name": "lang", "value": "en", "url": site["base"]}])


def test_a_new_browser_of_the_account_marks_new_what_the_account_was_not_shown(site, ann_page):
    """Ann saw the match on one browser; Bob moved; on a browser she never used, Bob's moves since are new (the
    account remembers what it was shown, not each browser)."""
    page, ann, bob = ann_page, site["ann"], site["bob"]
    apis = {ann["id"]: Api(site["base"], ann["token"]), bob["id"]: Api(site["base"], bob["token"])}
    match_id = start(apis, ann, bob, "merchant-of-venus", moves=2)  # a match the account was never shown
    with page.expect_response(lambda r: r.url.endswith(f"/matches/{match_id}/act/seen") and r.ok):
        open_match(page, site["base"], match_id)  # shown here: the account is told
    shown = int(page.get_attribute("[data-match-version]", "data-match-version"))
    page.goto(site["base"] + "/")
    chooser, bob_moved = random.Random(5), False
    for _ in range(40):  # both play on until Bob has moved at least once
        active = apis[ann["id"]].get(f"/api/matches/{match_id}")[1]["active_players"]
        if bob_moved and active == [ann["id"]]:
            break
        commands = apis[active[0]].get(f"/api/matches/{match_id}/legal")[1]["commands"]
        assert apis[active[0]].post(f"/api/matches/{match_id}/commands", chooser.choice(commands))[0] == 201
        bob_moved = bob_moved or active[0] == bob["id"]
    assert bob_moved, "Bob never came to move"
    other = page.context.browser.new_context(viewport={"width": 390, "height": 900})
    try:
        fresh_page = other.new_page()
        fresh_page.goto(site["base"] + "/")
        fresh_page.fill("#signin-form input[name=token]", ann["token"])
        fresh_page.click("#signin-form button[type=submit]")
        fresh_page.wait_for_selector("#your-move")
        open_match(fresh_page, site["base"], match_id)
        new = fresh_page.eval_on_selector_all("li.is-new", "els => els.map(e => [+e.dataset.eventVersion, "
                                                           "e.dataset.actor || ''])")
    finally:
        other.close()
    assert new and all(v > shown for v, _actor in new) and bob["id"] in {a for _v, a in new}, (shown, new)
    assert ann["id"] not in {a for _v, a in new}, new
