"""The browser tests' kit: Debian's chromium, a page at a width in a language signed in as someone, a match page
once live, and screenshots into test-artifacts/ (one at the page's width, or the page's top at 390 and 1280 px)."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from service.web.sessions import SESSION_COOKIE, Sessions
from tests.e2e.processes import ROOT

CHROMIUM = "/usr/bin/chromium"  # Debian's (.ci/run installs it)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = ROOT / "test-artifacts"  # screenshots, looked at by people

LOCALES = {"ru": "ru-RU", "en": "en-GB"}  # what a browser in each language of the service asks for
WIDTHS = (390, 1280)  # a phone and a desktop
PHONE = 600  # narrower is a touch phone


@contextmanager
def chromium():
    """Debian's chromium driven by Playwright, closed at the end."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw, pw.chromium.launch(executable_path=CHROMIUM, args=ARGS) as launched:
        yield launched


@pytest.fixture(scope="module")
def browser():
    """One chromium for a module's tests."""
    with chromium() as launched:
        yield launched


def context_at(browser, width: int = 1280, lang: str | None = None, timeout: float = 15000):
    """A new context `width` px wide (a touch phone below PHONE) whose pages ask for `lang` (None: chromium's)."""
    phone = width < PHONE
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900}, is_mobile=phone,
                                  has_touch=phone, locale=LOCALES.get(lang))
    context.set_default_timeout(timeout)
    return context


def session_context(browser, base: str, redis_client, user_id: str, timeout: float = 20000):
    """A new 1280 px context signed in as `user_id` by a session cookie made in Redis (no sign-in form)."""
    context = context_at(browser, timeout=timeout)
    context.add_cookies([{"name": SESSION_COOKIE, "value": Sessions(redis_client).create(user_id)[0], "url": base}])
    return context


@contextmanager
def signed_in(browser, base: str, token: str, width: int = 1280, lang: str = "en"):
    """A page `width` px wide in `lang`, signed in with `token` on the lobby's form as a person would; its context
    closed at the end."""
    with context_at(browser, width, lang) as context:
        page = context.new_page()
        page.goto(base + "/")
        page.fill("#signin-form input[name=token]", token)
        page.click("#signin-form button[type=submit]")
        page.wait_for_selector("#your-move")
        yield page


def open_match(page, base: str, match_id: str) -> None:
    """Go to a match page and wait until it is live."""
    page.goto(f"{base}/matches/{match_id}")
    page.wait_for_selector("#live-indicator.on")


def screenshot(page, name: str, directory: Path = ARTIFACTS, full_page: bool = True) -> None:
    """The page as it is into directory/<name>-<its width>.png (all of it unless `full_page` is False)."""
    directory.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(directory / f"{name}-{page.viewport_size['width']}.png"), full_page=full_page)


def shoot(page, name: str, directory: Path = ARTIFACTS, height: int = 700) -> None:
    """The page's top at each of WIDTHS into directory/<name>-<width>.png; its viewport put back after."""
    before = page.viewport_size
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, name, directory, full_page=False)
    page.set_viewport_size(before)


def indicator_says(page, text: str, timeout: float = 15000) -> None:
    """Wait until the live indicator shows `text`."""
    page.wait_for_function("t => document.getElementById('live-indicator').textContent.trim() === t", arg=text,
                           timeout=timeout)
