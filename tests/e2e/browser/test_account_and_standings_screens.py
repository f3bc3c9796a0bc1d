"""The account, player, leaderboard, audit, welcome and sign-in pages in Russian on a 390 px phone and a 1280 px
desktop: the page in Russian, axe clean, no sideways scroll on the phone; screenshots of each in test-artifacts/
(looked at by people)."""
from __future__ import annotations

import pytest

from tests.e2e.browser.sites import started
from tests.e2e.processes import Api
from tests.e2e.browser_kit import ARTIFACTS, browser  # noqa: F401  (the module-scoped chromium fixture)
from tests.waiting import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.site(people=("Аня", "Борис Константинопольский-Длинный"))]
GAME = "origins"


def finish(base: str, mid: str, people: list) -> None:
    """One move by whoever may act, then the second player concedes: the match is over."""
    for who in people:
        api = Api(base, who["token"])
        status, legal = api.get(f"/api/matches/{mid}/legal")
        if status == 200 and legal["commands"]:
            command = legal["commands"][0]
            status, answer = api.post(f"/api/matches/{mid}/commands", {**command,
                                                                       "expected_version": legal["version"]})
            assert status == 201, answer
            break
    status, answer = Api(base, people[1]["token"]).post(f"/api/matches/{mid}/concede")
    assert status == 201, answer


def furnish(site: dict, redis_url: str) -> dict:
    """One finished match where Аня beat Борис, rated."""
    match = started(site, GAME)
    finish(site["base"], match, [site["ann"], site["bob"]])
    wait_for(lambda: Api(site["base"]).get(f"/api/games/{GAME}/leaderboard")[1]["ratings"], 10,
             "the worker to rate the match")
    return {"match": match}


@pytest.fixture
def russian(browser, request):
    """A fresh browser context asking for Russian at the test's width; its page."""
    width = request.node.callspec.params["width"]
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900}, is_mobile=phone,
                                  has_touch=phone, locale="ru-RU")
    context.set_default_timeout(15000)
    ARTIFACTS.mkdir(exist_ok=True)
    yield context.new_page()
    context.close()


def shoot(page, name: str, width: int) -> None:
    """A full-page screenshot of a Russian page, which axe finds no serious or critical fault in; on a phone,
    the page must not scroll sideways."""
    from axe_playwright_python.sync_playwright import Axe
    assert page.get_attribute("html", "lang") == "ru"
    blocking = [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in Axe().run(page).response["violations"]
                if v.get("impact") in ("serious", "critical")]
    assert not blocking, f"{name}: {blocking}"
    page.screenshot(path=str(ARTIFACTS / f"{name}-ru-{width}.png"), full_page=True)
    if width < 600:
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} is {wide} px wide at {width} px"


@pytest.mark.parametrize("width", [390, 1280])
def test_account_and_standings_pages_in_russian(russian, site, width):
    page = russian
    page.goto(site["base"] + "/")
    page.fill("#signin-form input[name=token]", site["ann"]["token"])
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#your-move")
    pages = {"account": "/account", "player": f"/users/{site['bob']['id']}",
             "leaderboard": f"/games/{GAME}/leaderboard", "audit": f"/matches/{site['match']}/audit"}
    for name, path in pages.items():
        page.goto(site["base"] + path)
        if name == "audit":
            page.click("summary")  # the figures, open
        shoot(page, name, width)


@pytest.mark.parametrize("width", [390, 1280])
def test_welcome_and_sign_in_pages_in_russian(russian, site, width):
    """A new player's welcome page (the token shown once) and the sign-in-by-mail page, signed out."""
    page = russian
    page.goto(site["base"] + "/sign-in")
    shoot(page, "sign-in", width)
    page.goto(site["base"] + "/")
    page.fill("#signup-form input[name=name]", f"Вера {width}")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("[data-new-token]")
    shoot(page, "welcome", width)
