"""The match page by keyboard and without misclicks, in Chromium against the real server: the first Tab is a
skip link to the actions, a pass asks first in the page (Escape goes back, nothing sent), the focus stays on the
board after acting there and near the actions after a button; the log is one Tab stop, its arrows go from move
to move. Screenshots of what a newcomer sees go to test-artifacts/ (table-<game>-<lang>-<width>.png)."""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from tests.e2e.browser_kit import browser, open_match, screenshot, signed_in  # noqa: F401  (browser: a fixture)
from tests.e2e.browser.sites import UNDO_SEED, seeded_match, started
from tests.e2e.processes import Api
from tests.waiting import wait_for

pytestmark = pytest.mark.browser


def furnish(site: dict, redis_url: str) -> dict:
    """A fresh match of Origins and of Uchronia between Ann and Bob (and one of Origins from UNDO_SEED that only the
    undo test plays)."""
    matches = {game: started(site, game) for game in ("origins", "uchronia")}
    matches["origins-seeded"] = seeded_match(redis_url, "origins", [site["ann"]["id"], site["bob"]["id"]], UNDO_SEED)
    return {"matches": matches}


@contextmanager
def open_as(browser, site, who: str, game: str, width: int = 1280, lang: str = "en"):
    """A page of `who`, signed in, on the match page of `game`, live; closed at the end."""
    with signed_in(browser, site["base"], site["users"][who]["token"], width, lang) as page:
        open_match(page, site["base"], site["matches"][game])
        page.wait_for_timeout(300)  # going live refreshes the sections once: a click meanwhile could hit an old button
        yield page


def to_move(site, game: str) -> str:
    """The name of the player the match waits for (one at a time in these openings)."""
    api = Api(site["base"], site["users"]["Ann"]["token"])
    active = api.get(f"/api/matches/{site['matches'][game]}")[1]["active_players"]
    return next(name for name, user in site["users"].items() if user["id"] == active[0])


def version(page) -> int:
    return int(page.get_attribute("[data-match-version]", "data-match-version"))


def focused(page, selector: str) -> bool:
    return page.evaluate("s => !!(document.activeElement && document.activeElement.closest(s))", selector)


def test_the_first_tab_is_a_skip_link_to_the_actions(browser, site):
    with open_as(browser, site, "Ann", "origins") as page:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.skipToActions") == "", "the first Tab stop"
        box = page.locator("[data-skip-to-actions]").bounding_box()
        assert box and box["y"] >= 0 and box["height"] > 20, "shown while focused"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "actions-title"
        page.keyboard.press("Tab")
        assert focused(page, "#actions-card"), "the next Tab is in the actions"


def test_a_pass_asks_first_in_the_page_and_escape_goes_back(browser, site):
    who = to_move(site, "origins")
    with open_as(browser, site, who, "origins") as page:
        screenshot(page, "table-origins-en")
        before = version(page)
        assert page.locator("button.action.primary").count() <= 1
        passing = page.locator("[data-kind=pass] button.action")
        assert passing.count() == 1 and "primary" not in (passing.get_attribute("class") or "")
        if not passing.is_visible():  # a closed group of buttons: open it as a person would
            page.locator("[data-kind=pass] summary").click()
        passing.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#confirm-step:not([hidden])")
        assert re.search("cannot be taken back|can take it back", page.text_content("#confirm-question"))
        assert page.evaluate("document.activeElement.hasAttribute('data-confirm-no')"), "the safe answer has the focus"
        page.keyboard.press("Escape")
        assert page.locator("#confirm-step").is_hidden()
        assert page.evaluate("document.activeElement.closest('[data-kind=pass]') !== null"), "back on the pass"
        page.wait_for_timeout(300)
        assert version(page) == before, "nothing was sent"
        passing.click()
        page.click("[data-confirm-yes]")
        page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")
        wait_for(lambda: focused(page, "#actions-card"), 5, "the focus near the actions after the pass",
                 interval=0.1)


def test_acting_on_the_board_keeps_the_focus_on_the_board(browser, site):
    who = to_move(site, "uchronia")
    with open_as(browser, site, who, "uchronia") as page:
        before = version(page)
        place = page.locator("#board [data-command][tabindex]").first
        place.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")
        page.wait_for_timeout(300)  # the live update and the refresh both land
        assert focused(page, "#board"), page.evaluate("document.activeElement.outerHTML.slice(0, 120)")


def test_the_log_is_one_tab_stop_and_its_arrows_go_from_move_to_move(browser, site):
    with open_as(browser, site, "Ann", "uchronia") as page:
        entries = page.locator(".log li[data-event-version]")
        assert entries.count() >= 2
        tabbable = page.eval_on_selector_all(".log li[data-event-version] button", "els => els.filter(e => e.tabIndex >= 0).length")
        assert tabbable <= 2, "only the current entry's controls are Tab stops"
        first = entries.nth(0).locator("button.seek")
        first.focus()
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.closest('li[data-event-version]').dataset.eventVersion") == \
            entries.nth(1).get_attribute("data-event-version")
        page.keyboard.press("ArrowUp")
        assert page.evaluate("document.activeElement.closest('li[data-event-version]').dataset.eventVersion") == \
            entries.nth(0).get_attribute("data-event-version")


@pytest.mark.parametrize("width, lang", [(390, "ru"), (1280, "ru"), (390, "en")])
def test_what_a_newcomer_sees_is_screenshotted(browser, site, width, lang):
    for game in ("origins", "uchronia"):
        with open_as(browser, site, to_move(site, game), game, width, lang) as page:
            assert page.locator("[data-your-turn]").count() == 1 and page.locator("[data-why]").count() == 1
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            screenshot(page, f"table-{game}-{lang}")


def test_a_move_that_may_be_taken_back_offers_an_undo_for_a_few_seconds(browser, site):
    who = to_move(site, "origins-seeded")
    with open_as(browser, site, who, "origins-seeded") as page:
        before = version(page)
        page.locator("#section-actions button.action:not([data-ask]):visible").first.click()  # it reveals nothing
        page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")
        undo = page.wait_for_selector("#message [data-undo-now]")
        assert page.locator("[data-undo-row]").is_visible(), "the take-back row too"
        taken = version(page)
        undo.click()
        page.wait_for_selector(f"[data-match-version]:not([data-match-version='{taken}'])")
        page.wait_for_selector(".log li.reverted-takeback")
        assert page.locator("#message [data-undo-now]").count() == 0
