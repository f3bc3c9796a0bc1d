"""The rules page and a match page of every game, in Russian and English, on a 390 px phone and a 1280 px
desktop: no sideways scroll on the phone, the page in the language asked for, the match page linking its
rules and a refused move linking its rule; screenshots of each in test-artifacts/ (looked at by people)."""
from __future__ import annotations

import pytest

from domain.games import GAME_PACKAGES
from tests.e2e.browser_kit import browser, open_match, screenshot, signed_in  # noqa: F401  (browser: a fixture)
from tests.e2e.browser.sites import as_ann, every_game as furnish  # noqa: F401  (the site: a match of each game)

pytestmark = pytest.mark.browser
GAMES = list(GAME_PACKAGES)


def _no_sideways_scroll(page, width):
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{page.url} is {wide} px wide at {width} px"


def _screens(browser, site, width, lang, games):
    with as_ann(browser, site, width, lang) as page:
        for game in games:
            page.goto(f"{site['base']}/games/{game}/rules")
            assert page.get_attribute("html", "lang") == lang
            assert page.locator("[data-learn]").count() == 1
            if width < 600:
                _no_sideways_scroll(page, width)
            screenshot(page, f"rules-{game}-{lang}")
            open_match(page, site["base"], site["matches"][game])
            assert page.get_attribute("html", "lang") == lang
            assert page.get_attribute("[data-rules-link]", "href") == f"/games/{game}/rules"
            if width < 600:
                _no_sideways_scroll(page, width)
            screenshot(page, f"match-{game}-{lang}")


@pytest.mark.parametrize("game", GAMES)
def test_rules_and_match_pages_in_russian_on_a_phone(browser, site, game):
    _screens(browser, site, 390, "ru", [game])


@pytest.mark.slow
@pytest.mark.parametrize("width, lang", [(390, "en"), (1280, "ru"), (1280, "en")])
def test_every_game_in_both_languages_at_both_widths(browser, site, width, lang):
    _screens(browser, site, width, lang, GAMES)


def test_a_refused_move_links_its_rule_and_the_switch_changes_the_language(browser, site):
    with as_ann(browser, site, 390, "ru") as page:
        open_match(page, site["base"], site["matches"]["uchronia"])
        page.evaluate("""() => {  // a move the game refuses, sent the way the page sends its buttons
            const b = document.createElement("button");
            b.id = "forged"; b.dataset.command = JSON.stringify({type: "issue_order",
                payload: {order: "trade", colors: ["blue", "red"]}});
            document.body.appendChild(b); }""")
        page.click("#forged")
        link = page.wait_for_selector("#message a[data-rule-link]")
        assert link.get_attribute("href").startswith("/games/uchronia/rules#rule-")
        assert link.text_content() == "Что гласит это правило?"
        link.click()
        page.wait_for_url("**/games/uchronia/rules#rule-*")
        rule = page.url.split("#", 1)[1]
        assert page.locator(f"[id='{rule}']").is_visible()
        page.click("[data-lang-switch] button[value=en]")
        page.wait_for_url("**/games/uchronia/rules")
        assert page.get_attribute("html", "lang") == "en"
        page.goto(site["base"] + "/")
        assert page.get_attribute("html", "lang") == "en", "the choice is remembered over Accept-Language"
