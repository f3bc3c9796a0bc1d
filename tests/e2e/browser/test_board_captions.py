"""A board place's words (its tooltip, the SVG <title>) can be read on a phone: a tap or keyboard focus on a place
shows them in a caption under the board (aria-live), in the page's language; a tap on a place to act on still acts;
a tap on empty board or Escape hides it. On a Uchronia match page at 390 px in English and Russian (a building's
power), and on every game's board. Screenshots in test-artifacts/board-captions/ at 390 and 1280 px."""
from __future__ import annotations

import pytest

from tests.e2e import browser_kit
from tests.e2e.board_pages import GAMES, boards, page as board_page
from tests.e2e.browser_kit import browser, context_at, open_match, screenshot  # noqa: F401 (browser: fixture)
from tests.e2e.browser.sites import as_ann, started

pytestmark = pytest.mark.browser
ARTIFACTS = browser_kit.ARTIFACTS / "board-captions"
CAPTION = "[data-board-caption]"
# the centre of each titled group in view that no other titled group or term covers there: [title, x, y]
UNCOVERED = """() => {
  const titled = [...document.querySelectorAll('#board g')].filter(g => g.querySelector(':scope > title'));
  const inside = (r, x, y) => x > r.left && x < r.right && y > r.top && y < r.bottom;
  const view = g => (g.closest('[data-map-frame]') || document.documentElement).getBoundingClientRect();
  return titled.filter(g => !g.closest('[data-tip]')).map(g => {
    const r = g.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const seen = inside(view(g), x, y) && x > 0 && y > 0 && x < innerWidth && y < innerHeight;
    const covered = titled.some(o => o !== g && !o.contains(g) && inside(o.getBoundingClientRect(), x, y));
    return seen && !covered ? [g.querySelector(':scope > title').textContent, x, y] : null; }).filter(Boolean); }"""
# every text the caption showed, from now on (a move's redraw may change it right after)
RECORD = """() => { const c = document.querySelector('[data-board-caption]'); window.captionSaid = [];
  new MutationObserver(() => window.captionSaid.push(c.textContent))
    .observe(c, {childList: true, subtree: true, characterData: true}); }"""


def furnish(site: dict, redis_url: str) -> dict:
    """Two Uchronia matches between Ann and Bob: one only looked at, one Ann moves in."""
    return {"looked": started(site, "uchronia"), "played": started(site, "uchronia")}


def tap_centre(page, locator) -> None:
    """A finger on the middle of `locator` (a place nobody may act on takes no pointer events of its own)."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_tapped_building_shows_its_power_on_a_phone(browser, site, lang):
    with as_ann(browser, site, 390, lang) as page:
        open_match(page, site["base"], site["looked"])
        caption = page.locator(CAPTION)
        assert caption.get_attribute("aria-live") == "polite"
        assert not caption.is_visible(), "no caption before a tap"
        building = page.locator("#board [data-place^='building:']").first
        words = building.locator(":scope > title").text_content()
        name, power = words.split(": ", 1)
        assert len(power) > 20, words
        tap_centre(page, building)
        caption.wait_for(state="visible")
        assert caption.text_content() == words and caption.locator("strong").text_content() == name
        assert "place-shown" in building.get_attribute("class")
        box = caption.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, f"building-{lang}", ARTIFACTS, full_page=False)
        page.set_viewport_size({"width": 1280, "height": 900})
        building.scroll_into_view_if_needed()
        assert caption.is_visible() and caption.text_content() == words
        screenshot(page, f"building-{lang}", ARTIFACTS, full_page=False)
        page.keyboard.press("Escape")
        caption.wait_for(state="hidden")
        assert building.get_attribute("class") in (None, "")


def test_a_tap_on_empty_board_or_on_the_caption_hides_it_and_a_term_keeps_its_own_tip(browser, site):
    with as_ann(browser, site, 390, "ru") as page:
        open_match(page, site["base"], site["looked"])
        caption = page.locator(CAPTION)
        residence = page.locator("#board [data-place^='residence:']").first
        tap_centre(page, residence)
        caption.wait_for(state="visible")
        assert caption.text_content() == residence.locator(":scope > title").text_content()
        assert "Резиденция" in caption.text_content()
        page.locator("#board abbr.term[data-term='residence']").first.tap()
        page.locator("#board-tip").wait_for(state="visible")
        assert "Резиденция" in caption.text_content(), "a term explains itself in its tip; the caption stays"
        tap_centre(page, page.locator("#board .board-lines").first)
        caption.wait_for(state="hidden")
        tap_centre(page, residence)
        caption.wait_for(state="visible")
        caption.tap()
        caption.wait_for(state="hidden")  # a tap on the caption uncovers what it hid


def test_a_tap_on_a_place_to_act_on_acts_and_shows_its_words(browser, site):
    with as_ann(browser, site, 390, "en") as page:
        open_match(page, site["base"], site["played"])
        chip = page.locator("#board .place-live[data-command]").first
        key, words = chip.get_attribute("data-place"), chip.locator(":scope > title").text_content()
        before = page.get_attribute("#match-version", "data-match-version")
        page.evaluate(RECORD)
        tap_centre(page, chip)
        page.wait_for_function("v => document.getElementById('match-version').dataset.matchVersion !== v",
                               arg=before)
        assert page.evaluate("window.captionSaid")[0] == words, "the tapped place's words, as the move is sent"
        again = page.locator(f"#board [data-place='{key}']")
        shown = again.locator(":scope > title").text_content() if again.count() else ""
        page.wait_for_function("s => document.querySelector('[data-board-caption]').textContent === s", arg=shown)


def test_keyboard_focus_on_a_place_shows_its_words(browser, site):
    with as_ann(browser, site, 1280, "en") as page:
        open_match(page, site["base"], site["looked"])
        caption = page.locator(CAPTION)
        page.evaluate("document.activeElement.blur()")
        for _stop in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("!!document.activeElement.closest('#board [data-place]')"):
                break
        words = page.evaluate("document.activeElement.querySelector(':scope > title').textContent")
        caption.wait_for(state="visible")
        assert caption.text_content() == words
        page.keyboard.press("Escape")
        caption.wait_for(state="hidden")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_games_places_say_their_words_on_a_tap(browser, game_id, lang):
    _label, html = next(boards(game_id, lang, steps=0))
    with context_at(browser, 390, lang) as context:
        tab = context.new_page()
        tab.set_content(board_page(html, lang))
        caption = tab.locator(CAPTION)
        places = tab.evaluate(UNCOVERED)
        assert len(places) >= 2, f"{game_id}: a board with titled places"
        for words, x, y in places[:3]:
            tab.touchscreen.tap(x, y)
            caption.wait_for(state="visible")
            assert caption.text_content() == words, (game_id, x, y)
        screenshot(tab, f"{game_id}-{lang}", ARTIFACTS, full_page=False)
        tab.keyboard.press("Escape")
        caption.wait_for(state="hidden")
