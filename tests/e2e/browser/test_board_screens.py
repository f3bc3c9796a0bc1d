"""The match page of every game on the real service, in English and Russian, at 390 and 1280 px: the page never
scrolls sideways and neither does the board (only a map pans, in its own frame, opened on the player's own
piece); a board term explains itself on tap and on keyboard focus, linking its rule. Screenshots in
test-artifacts/match-board-<game>-<lang>-<width>.png (looked at by people)."""
from __future__ import annotations

import pytest

from domain.games import GAME_PACKAGES
from tests.e2e.browser_kit import browser, open_match, screenshot  # noqa: F401  (browser: a fixture)
from tests.e2e.browser.sites import as_ann, every_game as furnish  # noqa: F401  (the site: a match of each game)

pytestmark = pytest.mark.browser
GAMES = list(GAME_PACKAGES)
WIDE = """() => { const b = document.querySelector('#board');
  return [document.documentElement.scrollWidth, b.scrollWidth - b.clientWidth]; }"""
MINE = """() => { const f = document.querySelector('#board [data-map-frame]'); if (!f) return null;
  const m = f.querySelector('[data-mine]'); const a = f.getBoundingClientRect(), b = m.getBoundingClientRect();
  return b.left >= a.left && b.right <= a.left + f.clientWidth && b.top >= a.top && b.bottom <= a.top + f.clientHeight; }"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_page_or_board_scrolls_sideways_and_a_map_opens_on_ones_own_piece(browser, site, lang, width):
    with as_ann(browser, site, width, lang) as page:
        for game in GAMES:
            open_match(page, site["base"], site["matches"][game])
            page.wait_for_selector("#board .board-set")
            wide, board_overflow = page.evaluate(WIDE)
            assert wide <= width and board_overflow <= 1, (game, wide, board_overflow)
            assert page.evaluate(MINE) in (None, True), game
            assert "Bob" in page.inner_text("#board"), "names as players wrote them"
            screenshot(page, f"match-board-{game}-{lang}")


def test_a_term_explains_itself_on_tap_and_on_keyboard_focus(browser, site):
    with as_ann(browser, site, 390, "ru") as page:
        open_match(page, site["base"], site["matches"]["uchronia"])
        term = page.locator("#board abbr.term[data-term='operation-limit']").first
        assert term.inner_text() == "предел Операций"
        term.tap()
        tip = page.locator("#board-tip")
        tip.wait_for(state="visible")
        assert "2 плюс 1" in tip.inner_text()
        assert tip.locator("a").get_attribute("href") == "/games/uchronia/rules#rule-operations.limit"
        box = tip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the tip stays on the screen"
        page.keyboard.press("Escape")
        tip.wait_for(state="hidden")
        page.locator("#board abbr.term[data-term='residence']").first.focus()
        tip.wait_for(state="visible")
        assert tip.inner_text().startswith("Резиденция")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_term_on_the_map_explains_itself_on_tap(browser, site):
    """A hazard fee on the Merchant of Venus map ("!c30") shows its explanation when tapped on a phone."""
    with as_ann(browser, site, 390, "en") as page:
        open_match(page, site["base"], site["matches"]["merchant-of-venus"])
        page.locator("#board svg .term[data-term='hazard']").first.tap()
        tip = page.locator("#board-tip")
        tip.wait_for(state="visible")
        assert tip.inner_text().startswith("hazard fee: !c20: stop on this square")
        assert tip.locator("a").get_attribute("href") == "/games/merchant-of-venus/rules#rule-hazard.fee"
