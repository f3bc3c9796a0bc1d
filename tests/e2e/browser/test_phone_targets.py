"""Every target a thumb presses on a 390 px phone is at least 44 px, on each game's match page in English and
Russian: buttons, the header's and other links on their own, board places to act on (Uchronia's card chips);
during an open dispute the vote buttons lead the actions card (not screens below it); a signed-out visitor of a
match page is offered sign-in there (a mistyped token is refused on that match page, not the lobby), and the pages
it leads to (the mail's notice, the limit's page, the new token's page with the way back) are in the page's
language with 44 px targets. Screenshots at 390 and 1280 px in both languages."""
from __future__ import annotations

import random

import pytest

from tests.e2e import browser_kit
from tests.e2e.browser_kit import browser, context_at, open_match, screenshot, shoot  # noqa: F401 (browser: fixture)
from tests.e2e.browser.sites import started
from tests.e2e.processes import Api

# a sign-in mail asked in each language, then the limit
pytestmark = [pytest.mark.browser, pytest.mark.site(env={"TURNSTREAM_SIGNIN_RATE_LIMIT": "2/hour"})]
ARTIFACTS = browser_kit.ARTIFACTS / "phone-targets"
MISTYPED = {"en": "the token is not valid", "ru": "Такой токен не подходит: проверьте его и попробуйте снова."}
GAMES = ("uchronia", "merchant-of-venus", "ti4-exploration", "origins")
# what a thumb presses: links, controls, and the board's places to act on (a board term explains itself on tap
# but is no target of its own: the terms' list below the board is)
TARGETS = ("a[href], button, summary, input:not([type=hidden]), select, textarea, [role=button], .place-live, "
           "[tabindex]:not([tabindex='-1'])")
SMALL = """(selector) => [...document.querySelectorAll(selector)]
    .filter(e => e.checkVisibility() && !e.closest('.board-tip'))
    .map(e => { const r = e.getBoundingClientRect();
                return [e.tagName, (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 40),
                        Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]; })
    .filter(t => t[2] < 44 || t[3] < 44)"""


def furnish(site: dict, redis_url: str) -> dict:
    """A match of each game between Ann and Bob, and a Uchronia match where Bob disputes Ann's move."""
    ann, bob = site["ann"], site["bob"]
    matches = {game: started(site, game) for game in GAMES}
    matches["disputed"] = started(site, "uchronia")
    apis = {ann["id"]: Api(site["base"], ann["token"]), bob["id"]: Api(site["base"], bob["token"])}
    return {"matches": matches, "dispute": dispute_a_move(apis, matches["disputed"], bob["id"])}


def dispute_a_move(apis: dict, match_id: str, by: str) -> int:
    """Play a legal move of whoever is to act other than `by`, and `by` disputes it; its version."""
    summary = apis[by].get(f"/api/matches/{match_id}")[1]
    mover = next(p for p in summary["active_players"] if p != by)
    command = random.Random(3).choice(apis[mover].get(f"/api/matches/{match_id}/legal")[1]["commands"])
    status, answer = apis[mover].post(f"/api/matches/{match_id}/commands", command)
    assert status == 201, answer
    version = answer["version"]
    status, opened = apis[by].post(f"/api/matches/{match_id}/disputes", {"version": version, "reason": "no"})
    assert status == 201, opened
    return version


def player_page(browser, site, who: str, width: int, lang: str):
    """A page `width` px wide in `lang` signed in as `who` on the lobby's form; (context, page)."""
    context = context_at(browser, width, lang)
    page = context.new_page()
    page.goto(site["base"] + "/")
    page.fill("#signin-form input[name=token]", site[who]["token"])
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#your-move")
    return context, page


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_every_target_of_a_match_page_is_44px_on_a_phone(browser, site, game, lang):
    context, page = player_page(browser, site, "ann", 390, lang)
    open_match(page, site["base"], site["matches"][game])
    page.wait_for_selector("#board [data-place], #board .board-set")
    if game == "uchronia":
        assert page.locator("#board .place-live").count() >= 1, "the viewer's card chips are places to act on"
    assert page.evaluate(SMALL, TARGETS) == []
    assert page.locator("[data-board-terms] > summary").count() == 1, "the board's terms: one target opening a list"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"{game}-{lang}", ARTIFACTS)
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, f"{game}-{lang}", ARTIFACTS)
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_open_disputes_vote_leads_the_actions_card_on_a_phone(browser, site, lang):
    context, page = player_page(browser, site, "ann", 390, lang)
    open_match(page, site["base"], site["matches"]["disputed"])
    card = page.locator("#actions-card")
    votes = card.locator("[data-vote]")
    assert votes.count() == 2, "accept and reject, in the actions card"
    top = card.bounding_box()["y"]
    for box in (votes.nth(0).bounding_box(), votes.nth(1).bounding_box()):
        assert box["height"] >= 44 and box["y"] - top < 260, (box, top)
    assert page.locator("#section-disputes [data-vote]").count() == 0, "one pair of vote buttons on the page"
    assert page.locator("#section-disputes [data-vote-at-actions]").count() == 1
    assert "Nothing to do" not in card.inner_text() and "Сейчас делать нечего" not in card.inner_text()
    assert page.evaluate(SMALL, TARGETS) == []
    card.evaluate("el => el.scrollIntoView()")
    screenshot(page, f"dispute-{lang}", ARTIFACTS, full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, f"dispute-{lang}", ARTIFACTS, full_page=False)
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_signed_out_phone_is_offered_sign_in_on_the_match_page(browser, site, lang):
    with context_at(browser, 390, lang) as context:
        page = context.new_page()
        open_match(page, site["base"], site["matches"]["uchronia"])
        assert page.is_visible("[data-sign-in-to-play] input[name=token]")
        assert page.is_visible("[data-sign-in-to-play] input[name=email]")
        assert page.evaluate(SMALL, TARGETS) == []
        screenshot(page, f"signed-out-{lang}", ARTIFACTS, full_page=False)
        page.fill("[data-sign-in-to-play] input[name=token]", site["bob"]["token"][:-1])
        page.click("[data-sign-in-token] button[type=submit]")
        refusal = page.wait_for_selector("[data-sign-in-to-play] [data-sign-in-refusal]")
        assert refusal.inner_text() == MISTYPED[lang] and refusal.is_visible()
        assert page.get_attribute("body", "data-match-id") == site["matches"]["uchronia"]
        page.wait_for_url(f"**/matches/{site['matches']['uchronia']}")  # its address: a reload reads the match
        assert page.evaluate(SMALL, TARGETS) == []
        shoot(page, f"sign-in-refused-{lang}", ARTIFACTS)
        page.fill("[data-sign-in-to-play] input[name=token]", site["bob"]["token"])
        with page.expect_navigation(url=f"**/matches/{site['matches']['uchronia']}"):
            page.click("[data-sign-in-token] button[type=submit]")
        page.wait_for_selector("#live-indicator.on")
        assert page.get_attribute("body", "data-viewer") == site["bob"]["id"]
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(page.url)
        screenshot(page, f"signed-in-back-{lang}", ARTIFACTS, full_page=False)


def shot_both(page, name: str) -> None:
    """The page at 390 px (as it is) and at 1280 px, its top, into ARTIFACTS."""
    page.wait_for_load_state("load")  # its style sheet applied: a page measured before is unstyled, its links small
    assert page.evaluate(SMALL, TARGETS) == []
    screenshot(page, name, ARTIFACTS, full_page=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, name, ARTIFACTS, full_page=False)


def ask_sign_in_mail(browser, site, lang: str):
    """A signed-out phone asks for a sign-in mail on the match page; (context, page) on the answer."""
    context = context_at(browser, 390, lang)
    page = context.new_page()
    open_match(page, site["base"], site["matches"]["uchronia"])
    page.fill("[data-sign-in-email] input[name=email]", "ann@example.com")
    page.click("[data-sign-in-email] button[type=submit]")
    page.wait_for_selector("[data-notice], .error-card")
    return context, page


def test_the_sign_in_mail_its_limit_and_the_way_back_on_a_phone(browser, site):
    said = {"en": ("If this address belongs to a player", "Too many requests: wait"),
            "ru": ("Если этот адрес принадлежит игроку", "Слишком много запросов: подождите")}
    for lang in ("en", "ru"):
        context, page = ask_sign_in_mail(browser, site, lang)
        assert said[lang][0] in page.inner_text("main")
        shot_both(page, f"sign-in-mail-asked-{lang}")
        context.close()
    for lang in ("en", "ru"):
        context, page = ask_sign_in_mail(browser, site, lang)
        assert said[lang][1] in page.inner_text("main") and page.is_visible(".error-card")
        shot_both(page, f"sign-in-mail-limit-{lang}")
        context.close()
    for lang in ("en", "ru"):
        context, page = player_page(browser, site, "ann", 390, lang)
        page.goto(f"{site['base']}/welcome?next=/matches/{site['matches']['uchronia']}")
        shot_both(page, f"welcome-back-{lang}")
        page.click("[data-back-to-match]")
        page.wait_for_selector("#live-indicator.on")
        assert page.get_attribute("body", "data-viewer") == site["ann"]["id"]
        context.close()
