"""Every game's board, in a real browser at 390 and 1280 px, in English and Russian, at several points of a
random playout: no label covers another label, a square or a marker; no text is cut at its picture's edge;
nothing scrolls sideways; the places a player may tap on a map are at least 44×44 px and a tap in the middle
of any live place reaches it; a map opens on the player's own piece. Screenshots in
test-artifacts/board-layout-<game>-<lang>-<width>.png."""
from __future__ import annotations

import pytest

from tests.e2e.board_pages import GAMES, PROBLEMS, boards, page
from tests.e2e.browser_kit import ARTIFACTS, browser  # noqa: F401  (the module-scoped chromium fixture)

pytestmark = pytest.mark.browser
WIDTHS = (390, 1280)
TARGETS = """() => [...document.querySelectorAll('#board svg.board-map .place-live')].map(p => {
  const r = p.getBoundingClientRect(); return [p.getAttribute('data-place'), r.width, r.height]; })"""
MISSED = """() => [...document.querySelectorAll('#board .place-live')].filter(p => {
  p.scrollIntoView({block: 'center', inline: 'center'});
  const r = p.getBoundingClientRect(); const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(el && p.contains(el)); }).map(p => p.getAttribute('data-place'))"""
MINE_IN_VIEW = """() => { const f = document.querySelector('[data-map-frame]'); const m = f.querySelector('[data-mine]');
  const a = f.getBoundingClientRect(), b = m.getBoundingClientRect();
  return [f.scrollWidth > f.clientWidth, b.left >= a.left && b.right <= a.left + f.clientWidth &&
          b.top >= a.top && b.bottom <= a.top + f.clientHeight]; }"""


def _check(browser, label: str, html: str, lang: str, width: int, shot: bool = False) -> list:
    """The layout problems of one board at one width (and its screenshot when asked)."""
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900}, is_mobile=phone,
                                  has_touch=phone)
    try:
        tab = context.new_page()
        tab.set_content(page(html, lang))
        assert tab.locator("#board .board-set svg").count() > 0, f"{label}: no picture (did the renderer fail?)"
        assert "bob the Builder" in tab.inner_text("#board"), "names as players wrote them"
        found = [[label, width] + p for p in tab.evaluate(PROBLEMS)]
        found += [[label, width, "small target", *t] for t in tab.evaluate(TARGETS) if min(t[1], t[2]) < 43.5]
        if shot:
            ARTIFACTS.mkdir(exist_ok=True)
            tab.screenshot(path=str(ARTIFACTS / f"board-layout-{label.rsplit('-', 1)[0]}-{width}.png"), full_page=True)
        return found + [[label, width, "a tap in its middle misses it", key] for key in tab.evaluate(MISSED)]
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_no_label_covers_another_label_a_square_or_a_marker(browser, game_id, lang):
    problems = []
    for label, html in boards(game_id, lang, seed=3, steps=60, every=20):
        for width in WIDTHS:
            problems += _check(browser, label, html, lang, width, shot=label.endswith("step20"))
    assert problems == []


def test_three_ships_on_one_square_cover_nothing(browser):
    """Merchant of Venus with three players: the ships that start together stand apart, off every label."""
    problems = []
    for label, html in boards("merchant-of-venus", "en", seed=5, steps=30, every=10, players=3):
        problems += _check(browser, label, html, "en", 1280)
    assert problems == []


def test_a_third_seats_markers_cover_no_system_name_in_russian(browser):
    """TI4 with three players, in Russian (the longest names): the third seat's ground forces and fleets, drawn
    under their planets, cover no name of the systems below."""
    problems = []
    for label, html in boards("ti4-exploration", "ru", seed=6, steps=90, every=30, players=3):
        for width in WIDTHS:
            problems += _check(browser, label, html, "ru", width)
    assert problems == []


@pytest.mark.parametrize("game_id", ["merchant-of-venus", "ti4-exploration"])
def test_a_map_opens_on_the_players_own_piece_on_a_phone(browser, game_id):
    """The map pans inside its frame at 390 px and opens with the viewer's ship or home system in view."""
    for _label, html in boards(game_id, "en", seed=4, steps=40, every=20):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        try:
            tab = context.new_page()
            tab.set_content(page(html))
            assert tab.evaluate(MINE_IN_VIEW) == [True, True]
        finally:
            context.close()


def test_an_open_explanation_survives_a_live_redraw(browser):
    """A live update redraws the board: the open tip stays on the same term of the new drawing."""
    _label, html = next(boards("uchronia", "en", steps=0))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        tab = context.new_page()
        tab.set_content(page(html))
        tab.locator("#board abbr[data-term='residence']").nth(1).tap()
        tab.wait_for_selector("#board-tip", state="visible")
        tab.evaluate("b => { const el = document.querySelector('#board'); el.innerHTML = el.innerHTML; }", None)
        tab.wait_for_timeout(100)
        assert tab.is_visible("#board-tip")
        assert tab.evaluate("() => document.querySelectorAll('#board [data-term=residence]')[1]"
                            ".getAttribute('aria-describedby')") == "board-tip"
    finally:
        context.close()
