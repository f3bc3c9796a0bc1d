"""A proposal to move a running match to newer rules, on the match page in Chromium against the real server: the
player asked sees it with Accept / Decline in English and in Russian, nothing scrolls sideways on a 390 px phone,
and Accept from the page records the vote live. Screenshots go to test-artifacts/ (rules-vote-<lang>-<width>.png).

The server knows one Uchronia version; the proposal is made in this process by a wiring that has a second one
installed (the server only shows it: the vote asked of Ann is not the last one, so no rules are loaded)."""
from __future__ import annotations

import dataclasses

import pytest

from tests.e2e.browser_kit import WIDTHS, browser, open_match, screenshot, signed_in  # noqa: F401  (browser: a fixture)
from service.web.i18n import COOKIE as LANG_COOKIE
from tests.e2e.processes import Api, service, start_invited

pytestmark = pytest.mark.browser
GAME, NEWER = "uchronia", "2099.01"
WORDS = {"en": ("proposes moving this match to rules 2099.01", "Accept rules 2099.01", "Decline"),
         "ru": ("предлагает перевести партию на правила 2099.01", "Принять правила 2099.01", "Отклонить")}


def propose(redis_url: str, match_id: str, by: str) -> None:
    """`by` proposes rules NEWER, from a wiring of this process where the game has them installed."""
    from domain.games import load_games
    from service.app.rules_upgrade import RulesUpgrades
    from service.bootstrap import build
    from service.config import Settings
    games = load_games()
    current, installed = games[GAME], {}
    older = dataclasses.replace(current, rules_versions=(current.rules_version, NEWER), at_version=installed.get)
    installed.update({current.rules_version: older, NEWER: dataclasses.replace(older, rules_version=NEWER)})
    games[GAME] = older
    w = build(Settings(redis_url=redis_url), games=games)
    try:
        assert RulesUpgrades(w.matches).propose(by, match_id, NEWER)["status"] == "open"
    finally:
        w.live.stop()
        w.users.cache.close()


def test_the_player_asked_sees_the_proposal_and_accepts_it_from_the_page(browser, redis_url, tmp_path):
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    with service(redis_url, tmp_path) as base:
        people = {name: Api(base).post("/api/users", {"name": name})[1] for name in ("Ann", "Bob", "Cy")}
        ann, bob, cy = people["Ann"], people["Bob"], people["Cy"]
        status, match = start_invited(Api(base, ann["token"]), {"game": GAME, "players": [ann["id"], bob["id"], cy["id"]]},
                                      {bob["id"]: bob["token"], cy["id"]: cy["token"]})
        assert status == 201, match
        propose(redis_url, match["id"], bob["id"])
        for lang, (says, accept, decline) in WORDS.items():
            for width in WIDTHS:
                with signed_in(browser, base, ann["token"], width, lang) as page:
                    open_match(page, base, match["id"])
                    box = page.locator("[data-rules-proposal]")
                    assert says in box.inner_text() and "Bob" in box.inner_text()
                    assert page.locator("[data-rules-vote][data-accept=true]").inner_text() == accept
                    assert page.locator("[data-rules-vote][data-accept=false]").inner_text() == decline
                    assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scroll"
                    box.scroll_into_view_if_needed()
                    screenshot(page, f"rules-vote-{lang}", full_page=False)
        with signed_in(browser, base, ann["token"], WIDTHS[0], "ru") as page:
            # the language switch's cookie: the shared worker that fetches live updates does not send the locale
            # Chromium emulates here (a real browser's worker sends its own languages)
            page.context.add_cookies([{"name": LANG_COOKIE, "value": "ru", "url": base}])
            open_match(page, base, match["id"])
            page.wait_for_timeout(300)  # going live refreshes the sections once: a click meanwhile could hit an old one
            page.click("[data-rules-vote][data-accept=true]")
            page.wait_for_selector("[data-rules-waiting]")
            assert page.locator("[data-rules-waiting]").inner_text() == "Ждём ответа: Cy."
            assert page.locator("[data-rules-vote]").count() == 0
        proposal = Api(base, ann["token"]).get(f"/api/matches/{match['id']}/state")[1]["rules_proposal"]
        assert (proposal["accepted"], proposal["voters"]) == ([ann["id"]], [ann["id"], cy["id"]])
