"""The match page tells the truth and keeps the keyboard in hand, in Chromium against the real server: a pass asks
first saying Undo can take it back, and Undo is offered then (and taken back); the log's move text moves the board
in every layout, grouped by round too; after Undo from the keyboard the focus is on a control; the board's glossary
terms are one Tab stop that opens their list; Ctrl+Enter sends chat. Screenshots go to test-artifacts/
(truth-<what>-<lang>-<width>.png)."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.e2e.browser_kit import browser, open_match, screenshot, signed_in  # noqa: F401  (browser: a fixture)
from tests.e2e.browser.sites import UNDO_SEED, seeded_match, started
from tests.e2e.processes import Api

pytestmark = pytest.mark.browser


def furnish(site: dict, redis_url: str) -> dict:
    """A seeded Origins match between Ann and Bob whose opening pass may be taken back, and a Uchronia match."""
    uchronia = started(site, "uchronia")
    return {"matches": {"uchronia": uchronia,
                        "origins": seeded_match(redis_url, "origins", [site["ann"]["id"], site["bob"]["id"]], UNDO_SEED)}}


def api_of(site, name: str) -> Api:
    return Api(site["base"], site["users"][name]["token"])


def to_move(site, game: str) -> str:
    """The name of the player the match waits for."""
    active = api_of(site, "Ann").get(f"/api/matches/{site['matches'][game]}")[1]["active_players"]
    return next(name for name, user in site["users"].items() if user["id"] == active[0])


@contextmanager
def open_as(browser, site, who: str, game: str, width: int = 1280, lang: str = "en"):
    """A page of `who`, signed in, on the match page of `game`, live."""
    with signed_in(browser, site["base"], site["users"][who]["token"], width, lang) as page:
        open_match(page, site["base"], site["matches"][game])
        page.wait_for_timeout(300)  # going live refreshes the sections once
        yield page


def version(page) -> int:
    return int(page.get_attribute("[data-match-version]", "data-match-version"))


def changed(page, before: int) -> None:
    page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")


def pass_button(page):
    """The pass button, its group opened as a person would."""
    passing = page.locator("[data-kind=pass] button.action")
    if not passing.is_visible():
        page.locator("[data-kind=pass] summary").click()
    return passing


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_pass_that_undo_can_take_back_says_so_and_offers_undo(browser, site, lang):
    who = to_move(site, "origins")
    with open_as(browser, site, who, "origins", lang=lang) as page:
        assert page.locator("[data-undo-row]").is_hidden(), "nothing of theirs to take back yet"
        pass_button(page).click()
        page.wait_for_selector("#confirm-step:not([hidden])")
        question = page.text_content("#confirm-question")
        assert ("can take it back" if lang == "en" else "Отменить этот ход можно") in question, question
        screenshot(page, f"truth-pass-asks-{lang}", full_page=False)
        before = version(page)
        page.click("[data-confirm-yes]")
        changed(page, before)
        page.wait_for_selector("[data-undo-row]:not([hidden])")
        page.wait_for_selector("#message [data-undo-now]")
        taken = version(page)
        page.click("#takeback")
        changed(page, taken)
        page.wait_for_selector(".log li.reverted-takeback")
        assert page.locator("[data-undo-row]").is_hidden(), "nothing left to take back"


def long_log(site, commands: int = 16) -> None:
    """Play the Uchronia match on (once) until its log groups by round (more than 12 commands) and its newest round
    holds two moves (the seed decides how many a round has), whoever is to move sending their first legal command."""
    mid = site["matches"]["uchronia"]
    rounds = site.setdefault("uchronia_rounds", [])  # the round each command was played in
    while len(rounds) < commands or rounds[-1] != rounds[-2]:
        assert len(rounds) < commands + 20, f"no round of two moves in {rounds}"
        who = to_move(site, "uchronia")
        rounds.append(api_of(site, who).get(f"/api/matches/{mid}/state")[1]["view"]["round"])
        legal = api_of(site, who).get(f"/api/matches/{mid}/legal")[1]
        status, answer = api_of(site, who).post(f"/api/matches/{mid}/commands", {**legal["commands"][0],
                                                                                "expected_version": legal["version"]})
        assert status == 201, answer


def board_in_view(page) -> bool:
    return page.evaluate("(() => { const r = document.querySelector('.board-card').getBoundingClientRect();"
                         " return r.bottom > 0 && r.top < window.innerHeight; })()")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_moves_text_moves_the_board_also_once_the_log_groups_by_round(browser, site, width):
    long_log(site)
    with open_as(browser, site, "Ann", "uchronia", width) as page:
        assert page.locator(".log details.log-round").count() >= 2, "the log groups by round"
        group = page.locator(".log details.log-round").nth(1)  # an older round, folded: opened as a person would
        if group.get_attribute("open") is None:
            group.locator(":scope > summary").click()
        entry = group.locator("li[data-event-version]").first
        seen = entry.get_attribute("data-event-version")
        entry.locator(":scope > .text").scroll_into_view_if_needed()
        entry.locator(":scope > .text").click()
        page.wait_for_selector(f"#board[data-board-version='{seen}']")
        assert page.locator("#replay-badge").is_visible() and board_in_view(page)
        screenshot(page, "truth-log-seek-en", full_page=False)
        page.click("[data-back-to-live]")
        newest_round = page.locator(".log details.log-round").first.locator("li[data-event-version]")
        assert newest_round.count() >= 2, "the newest round holds a move older than the live one"
        newest = newest_round.nth(1)
        older = newest.get_attribute("data-event-version")
        newest.locator(":scope > .text").scroll_into_view_if_needed()
        newest.locator(":scope > .text").click()
        page.wait_for_selector(f"#board[data-board-version='{older}']")


def focus_on_a_control(page) -> bool:
    """The focus is on something a keyboard user can act with (not the page's body)."""
    return page.evaluate("(() => { const a = document.activeElement;"
                         " return !!a && a !== document.body && a.matches('button, summary, a, [tabindex], textarea, input')"
                         " && a.getClientRects().length > 0; })()")


@pytest.mark.parametrize("undo", ["#takeback", "#message [data-undo-now]"])
def test_undo_from_the_keyboard_leaves_the_focus_on_a_control(browser, site, undo):
    who = to_move(site, "origins")
    with open_as(browser, site, who, "origins") as page:
        pass_button(page).focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#confirm-step:not([hidden])")
        before = version(page)
        page.focus("[data-confirm-yes]")
        page.keyboard.press("Enter")
        changed(page, before)
        page.wait_for_selector(f"{undo}:visible")
        taken = version(page)
        page.focus(undo)
        page.keyboard.press("Enter")
        changed(page, taken)
        page.wait_for_selector(".log li.reverted-takeback")
        page.wait_for_timeout(500)  # the answer and the live update both land
        assert focus_on_a_control(page), page.evaluate("document.activeElement.outerHTML.slice(0, 160)")


def test_glossary_terms_are_one_tab_stop_that_opens_their_list(browser, site):
    with open_as(browser, site, "Ann", "uchronia") as page:
        terms = page.locator("#board [data-tip]").count()
        assert terms > 5, "the board explains its terms"
        stops = page.eval_on_selector_all("#board [data-tip]", "els => els.filter(e => e.tabIndex >= 0 &&"
                                          " !e.matches('[data-command], [data-choice]')).length")
        assert stops == 0, "no term is a Tab stop of its own"
        opener = page.locator("[data-board-terms] > summary")
        assert opener.count() == 1
        opener.focus()
        page.keyboard.press("Enter")
        listed = page.locator("[data-board-terms] li")
        assert listed.count() == len(set(page.eval_on_selector_all("#board [data-tip]", "els => els.map(e => e.dataset.term)")))
        assert listed.first.is_visible() and ":" in listed.first.text_content()
        screenshot(page, "truth-terms-en", full_page=False)


@pytest.mark.parametrize("width, lang", [(390, "ru"), (1280, "en")])
def test_tab_reaches_the_first_action_in_few_stops(browser, site, width, lang):
    """From the page's top, the first action is a few Tab stops away (the header's links, the board's tools and
    terms list, then the board's places): not one stop per glossary term."""
    who = to_move(site, "uchronia")
    with open_as(browser, site, who, "uchronia", width, lang) as page:
        page.evaluate("document.activeElement.blur()")
        for stops in range(1, 60):
            page.keyboard.press("Tab")
            if page.evaluate("!!document.activeElement.closest('[data-command], [data-choice]')"):
                break
        terms = page.eval_on_selector_all("#board [data-tip]", "els => new Set(els.map(e => e.dataset.term)).size")
        assert stops < 25 and stops < terms, f"{stops} Tab stops to the first action ({terms} terms on the board)"


@pytest.mark.parametrize("width, lang", [(390, "ru"), (1280, "en")])
def test_ctrl_enter_sends_chat(browser, site, width, lang):
    with open_as(browser, site, "Bob", "uchronia", width, lang) as page:
        page.locator("#chat-form").scroll_into_view_if_needed()
        screenshot(page, f"truth-chat-{lang}", full_page=False)
        sent = page.locator("#section-chat li").count()
        page.fill("#chat-text", "Ctrl+Enter works")
        page.focus("#chat-text")
        page.keyboard.press("Control+Enter")
        page.wait_for_selector(f"#section-chat li:nth-child({sent + 1})")
        assert page.input_value("#chat-text") == "" and page.evaluate("document.activeElement.id") == "chat-text"
