"""The match page on a 390 px touch screen: 44 px tap targets, a not-yet-started match without a half-filled
board, the take-back button only when there is a move to take back, the footer off the screen edges; and the
1280 px desktop page keeps its compact controls."""
from __future__ import annotations

import pytest

from tests.e2e.browser.sites import started
from tests.e2e.processes import Api
from tests.e2e.browser_kit import browser  # noqa: F401  (the module-scoped chromium fixture)

pytestmark = pytest.mark.browser
CONTROLS = "button, a.button, summary, input[type=range], label.check"


def furnish(site: dict, redis_url: str) -> dict:
    """A running Uchronia match between Ann and Bob, and one still waiting for Bob."""
    ann, bob = site["ann"], site["bob"]
    status, invited = Api(site["base"], ann["token"]).post("/api/matches", {"game": "uchronia",
                                                                            "players": [ann["id"], bob["id"]]})
    assert status == 201, invited
    return {"running": started(site, "uchronia"), "invited": invited["id"]}


def _page(browser, site, width, who="ann"):
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900},
                                  is_mobile=phone, has_touch=phone)
    context.set_default_timeout(15000)
    page = context.new_page()
    page.goto(site["base"] + "/")
    page.fill("#signin-form input[name=token]", site[who]["token"])
    page.click("#signin-form button[type=submit]")
    return context, page


def _small_controls(page, least=44):
    return page.eval_on_selector_all(CONTROLS, """(els, least) => els.filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.tagName, (e.textContent || e.type).trim().slice(0, 30), r.width, r.height]; })
        .filter(c => c[3] < least)""", least)


def test_every_control_is_a_44px_tap_target_on_a_phone(browser, site):
    context, page = _page(browser, site, 390)
    page.goto(f"{site['base']}/matches/{site['running']}")
    page.wait_for_selector("#live-indicator.on")
    page.wait_for_selector("#board .board-set")
    assert page.locator("details.action-group summary").count() >= 1
    assert _small_controls(page) == []
    narrow = page.eval_on_selector_all("button", """els => els.filter(e => e.offsetParent !== null)
        .filter(e => e.getBoundingClientRect().width < 44).map(e => e.textContent)""")
    assert narrow == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    foot = page.eval_on_selector(".foot", "el => [parseFloat(getComputedStyle(el).paddingLeft), "
                                          "parseFloat(getComputedStyle(el).paddingRight)]")
    assert min(foot) >= 12
    page.goto(site["base"] + "/")
    assert _small_controls(page) == []
    assert page.eval_on_selector(".topbar button.link", "el => el.getBoundingClientRect().height") < 60
    context.close()


def test_the_desktop_page_keeps_compact_controls(browser, site):
    ann = site["ann"]
    status, match = Api(site["base"], ann["token"]).post("/api/matches", {"game": "merchant-of-venus",
                                                                          "players": [ann["id"]], "bots": ["random"]})
    assert status == 201, match
    context, page = _page(browser, site, 1280)
    page.goto(f"{site['base']}/matches/{match['id']}")  # a map: the zoom controls are its own
    page.wait_for_selector(".board-tools [data-zoom-fit]")
    assert page.eval_on_selector(".board-tools [data-zoom-fit]", "el => el.getBoundingClientRect().height") < 40
    context.close()


def test_a_match_waiting_for_invitations_shows_no_half_filled_board(browser, site):
    context, page = _page(browser, site, 390)
    page.goto(f"{site['base']}/matches/{site['invited']}")
    page.wait_for_selector("[data-invited]")
    assert page.is_visible("[data-board-waiting]")
    assert not page.is_visible("#board") and not page.is_visible("#replay-slider")
    shown = page.inner_text("main")
    assert "None" not in shown and "nobody" not in shown, shown
    assert not page.is_visible("#takeback")
    context.close()


def test_take_back_shows_only_after_a_move_of_ones_own(browser, site):
    context, page = _page(browser, site, 390)
    page.goto(f"{site['base']}/matches/{site['running']}")
    page.wait_for_selector("#live-indicator.on")
    assert not page.is_visible("#takeback"), "no move of Ann's yet: nothing to take back"
    version = page.get_attribute("#match-version", "data-match-version")
    page.locator("button.action").first.click()
    page.wait_for_selector(f"#match-version:not([data-match-version='{version}'])")
    page.wait_for_selector("#takeback", state="visible")
    box = page.locator("#takeback").bounding_box()
    assert box["height"] >= 44
    context.close()


def test_declining_an_invitation_asks_first(browser, site):
    """Decline cancels the match for everyone, so the lobby asks; dismissing the question changes nothing."""
    ann, bob = site["ann"], site["bob"]
    status, invite = Api(site["base"], ann["token"]).post("/api/matches", {"game": "origins",
                                                                            "players": [ann["id"], bob["id"]]})
    assert status == 201
    context, page = _page(browser, site, 390, who="bob")
    row = page.locator(f"[data-inbox-match='{invite['id']}']")
    assert "v1" not in row.inner_text() and "since" in row.inner_text()
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    row.locator("[data-decline]").click()
    page.wait_for_timeout(300)
    assert asked and "cancelled" in asked[0]
    assert Api(site["base"]).get(f"/api/matches/{invite['id']}")[1]["status"] == "invited"
    page.once("dialog", lambda dialog: dialog.accept())
    row.locator("[data-decline]").click()
    page.wait_for_url(site["base"] + "/")
    assert Api(site["base"]).get(f"/api/matches/{invite['id']}")[1]["status"] == "cancelled"
    context.close()


@pytest.mark.parametrize("game", ["merchant-of-venus", "ti4-exploration"])
def test_a_board_wider_than_the_phone_opens_on_the_players_own_piece(browser, site, game):
    """Merchant of Venus's ship and TI4's home system may lie off screen at 390 px: the map's frame opens
    scrolled to them (the board marks the viewer's piece with data-mine); the page itself never pans sideways."""
    ann = site["ann"]
    status, match = Api(site["base"], ann["token"]).post("/api/matches", {"game": game, "players": [ann["id"]],
                                                                          "bots": ["random"]})
    assert status == 201, match
    context, page = _page(browser, site, 390)
    page.goto(f"{site['base']}/matches/{match['id']}")
    page.wait_for_selector("#board [data-mine]", state="attached")
    inside = page.evaluate("""() => { const b = document.querySelector('#board [data-map-frame]');
        const f = b.getBoundingClientRect();
        const m = b.querySelector('[data-mine]').getBoundingClientRect();
        return [b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight,
                m.left >= f.left && m.right <= f.right && m.top >= f.top && m.bottom <= f.bottom]; }""")
    assert inside == [True, True], inside
    context.close()
