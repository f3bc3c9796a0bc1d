"""A board place's words (its tooltip, the SVG <title>) can be read on a phone: a tap or keyboard focus on a place
shows them in a caption under the board (aria-live), in the page's language; a tap on a place to act on still acts;
a tap on empty board or Escape hides it. On a Uchronia match page at 390 px in English and Russian (a building's
power), and on every game's board. A keyboard reaches every place's words: the board's places are one Tab stop and
the arrow keys move among all of them, a live update keeping the place moved to. Screenshots in
test-artifacts/board-captions/ at 390 and 1280 px."""
from __future__ import annotations

import pytest

from tests.e2e import browser_kit
from tests.e2e.board_pages import GAMES, boards, page as board_page
from tests.e2e.browser_kit import browser, context_at, open_match, screenshot  # noqa: F401 (browser: fixture)
from tests.e2e.browser.sites import as_ann, started
from tests.e2e.processes import Api

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
# the focused board place: its key, words, whether one may act on it, its centre's height, a keyboard's focus
FOCUSED = """() => { const a = document.activeElement, r = a.getBoundingClientRect();
  const board = document.getElementById('board'), title = a.querySelector && a.querySelector(':scope > title');
  return {place: board.contains(a) && a !== board ? a.getAttribute('data-place') : null,
          words: title ? title.textContent : null, live: a.matches('.place-live'), y: r.top + r.height / 2,
          keyboard: a.matches(':focus-visible')}; }"""
PLACES = "#board [data-place]"


def furnish(site: dict, redis_url: str) -> dict:
    """Three Uchronia matches between Ann and Bob: one only looked at, one Ann moves in, one Bob moves in."""
    return {name: started(site, "uchronia") for name in ("looked", "played", "moved")}


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


def tab_to_a_place(page) -> dict:
    """Tab from the page's top until the focus is on a board place; that place."""
    page.evaluate("document.activeElement.blur()")
    for _stop in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED)["place"]:
            break
    return page.evaluate(FOCUSED)


def shows_a_buildings_words(page, focused: dict) -> None:
    """The keyboard's focus is on a Great Work nobody may act on, and the caption says its words."""
    assert focused["place"].startswith("building:") and not focused["live"] and focused["keyboard"], focused
    page.locator(CAPTION).wait_for(state="visible")
    assert page.locator(CAPTION).text_content() == focused["words"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_arrow_keys_reach_every_place_and_tab_leaves_the_board_in_one_step(browser, site, lang):
    with as_ann(browser, site, 1280, lang) as page:
        open_match(page, site["base"], site["looked"])
        caption = page.locator(CAPTION)
        entry = tab_to_a_place(page)
        assert entry["live"], "the board's Tab stop is its first place to act on"
        assert page.eval_on_selector_all(PLACES, "els => els.filter(e => e.tabIndex >= 0).length") == 1
        page.keyboard.press("ArrowUp")  # the Great Works are above Ann's hand
        shows_a_buildings_words(page, page.evaluate(FOCUSED))
        screenshot(page, f"arrows-{lang}", ARTIFACTS, full_page=False)
        page.set_viewport_size({"width": 390, "height": 844})
        page.keyboard.press("Home")
        shows_a_buildings_words(page, page.evaluate(FOCUSED))
        box = caption.bounding_box()
        assert box["y"] + box["height"] <= 844 and page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, f"arrows-{lang}", ARTIFACTS, full_page=False)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.keyboard.press("Home")
        walked = [page.evaluate(FOCUSED)]
        for _place in range(page.locator(PLACES).count()):
            page.keyboard.press("ArrowRight")
            walked.append(page.evaluate(FOCUSED))
        keys = [f["place"] for f in walked]
        assert set(keys) == set(page.eval_on_selector_all(PLACES, "els => els.map(e => e.dataset.place)"))
        assert len(set(keys)) == len(keys) - 1 and keys[-1] == keys[-2], f"Right stops at the last place: {keys}"
        page.keyboard.press("Home")
        page.keyboard.press("ArrowDown")
        assert page.evaluate(FOCUSED)["y"] > walked[0]["y"], "Down goes to a place lower down"
        assert caption.text_content() == page.evaluate(FOCUSED)["words"]
        page.keyboard.press("Tab")
        assert page.evaluate("!document.getElementById('board').contains(document.activeElement)"), "one Tab leaves"
        page.keyboard.press("Shift+Tab")
        back = page.evaluate(FOCUSED)
        assert back["place"] and back["place"] != entry["place"], "back on the place moved to, the board's stop now"
        assert not back["live"], back
        page.keyboard.press("Escape")
        caption.wait_for(state="hidden")
        assert page.evaluate(FOCUSED)["place"] == back["place"]
        page.keyboard.press("Enter")  # on a place nobody may act on: its words again, nothing else
        caption.wait_for(state="visible")
        assert caption.text_content() == back["words"] and page.evaluate(FOCUSED)["place"] == back["place"]


def test_a_live_update_keeps_the_focus_on_the_place_moved_to(browser, site):
    with as_ann(browser, site, 1280, "en") as page:
        open_match(page, site["base"], site["moved"])
        tab_to_a_place(page)
        page.keyboard.press("Home")
        building = page.evaluate(FOCUSED)
        shows_a_buildings_words(page, building)
        page.evaluate("document.activeElement.classList.add('drawn-before')")
        bob = Api(site["base"], site["bob"]["token"])
        command = bob.get(f"/api/matches/{site['moved']}/legal")[1]["commands"][0]
        assert bob.post(f"/api/matches/{site['moved']}/commands", command)[0] == 201
        page.wait_for_function("key => !document.querySelector('.drawn-before') && "
                               "document.activeElement.getAttribute('data-place') === key", arg=building["place"])
        assert page.locator(CAPTION).text_content() == building["words"]
