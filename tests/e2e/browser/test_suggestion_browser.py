"""Learning by playing in Chromium against the real server and worker: against the greedy bot, "Suggest a move"
shows the bot's move and why in the page's language and highlights its button, which is then played. Screenshots go
to test-artifacts/ (suggestion-<game>-<lang>-<width>.png)."""
from __future__ import annotations

import re

import pytest

from tests.e2e.browser_kit import browser, open_match, screenshot, signed_in  # noqa: F401  (browser: a fixture)
from tests.e2e.processes import Api
from tests.waiting import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.site(people=("Ann",))]
GAMES = ("uchronia", "merchant-of-venus", "ti4-exploration", "origins")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def furnish(site: dict, redis_url: str) -> dict:
    """Ann's API client and a match of each game where she plays the greedy bot."""
    api = Api(site["base"], site["ann"]["token"])
    matches = {}
    for game in GAMES:
        status, match = api.post("/api/matches", {"game": game, "players": [site["ann"]["id"]], "bots": ["greedy"]})
        assert status == 201, match
        matches[game] = match["id"]
    return {"api": api, "matches": matches}


def anns_move(site, game: str) -> None:
    """Wait until the bot has handed the move to Ann."""
    mid = site["matches"][game]
    wait_for(lambda: site["ann"]["id"] in site["api"].get(f"/api/matches/{mid}")[1]["active_players"], 30,
             f"Ann to move in {game}")


def version(page) -> int:
    return int(page.get_attribute("[data-match-version]", "data-match-version"))


def ask(page) -> str:
    """Press "Suggest a move"; the label of the highlighted button."""
    page.click("[data-suggest]")
    page.wait_for_selector("#suggestion:not([hidden])")
    suggested = page.locator("#section-actions button.action.suggested")
    assert suggested.count() == 1 and suggested.is_visible()
    assert page.text_content("[data-suggestion-why]").strip()
    return suggested.get_attribute("aria-label") or suggested.text_content()


@pytest.mark.parametrize("game, width, lang", [(g, 390, "ru") for g in GAMES] + [(g, 1280, "en") for g in GAMES]
                         + [("uchronia", 390, "en"), ("uchronia", 1280, "ru")])
def test_the_suggested_move_is_shown_highlighted_and_played(browser, site, game, width, lang):
    anns_move(site, game)
    with signed_in(browser, site["base"], site["ann"]["token"], width, lang) as page:
        open_match(page, site["base"], site["matches"][game])
        page.wait_for_selector("[data-suggest]")
        label = ask(page)
        text = page.text_content("[data-suggestion-text]")
        assert label.replace("★", "").strip() == text.strip()
        words = page.text_content("#suggestion")
        assert bool(CYRILLIC.search(words)) == (lang == "ru")
        page.locator("[data-suggest]").scroll_into_view_if_needed()
        screenshot(page, f"suggestion-{game}-{lang}", full_page=False)
        if width == 1280 and lang == "en":
            before = version(page)
            page.click("#section-actions button.action.suggested")
            if page.locator("#confirm-step:not([hidden])").count():
                page.click("[data-confirm-yes]")
            page.wait_for_selector(f"[data-match-version]:not([data-match-version='{before}'])")
            page.wait_for_selector("#suggestion:not([hidden]), .suggested", state="detached")
