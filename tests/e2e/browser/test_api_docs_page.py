"""/api/docs renders the interactive reference in headless Chromium with every request not aimed at the
service blocked (no CDN): the operations of /api/openapi.json are listed and one expands."""
from __future__ import annotations

import pytest

from tests.e2e.browser_kit import ARGS, CHROMIUM
from tests.e2e.processes import ROOT, service

pytestmark = pytest.mark.browser


def test_api_docs_render_offline(redis_url, tmp_path):
    """Every request the page makes goes to the service; the reference lists the operations and expands one."""
    from playwright.sync_api import sync_playwright
    blocked, served = [], []
    with service(redis_url, tmp_path, worker=False) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for width in (390, 1280):
                context = browser.new_context(viewport={"width": width, "height": 900})

                def route(r):
                    if r.request.url.startswith(base + "/"):
                        served.append(r.request.url)
                        r.continue_()
                    else:
                        blocked.append(r.request.url)
                        r.abort()
                context.route("**/*", route)
                page = context.new_page()
                page.goto(base + "/")
                page.click("a[data-api-docs]")
                page.wait_for_selector(".opblock-summary-path", timeout=20000)
                paths = page.locator(".opblock-summary-path").all_text_contents()
                assert any("/api/matches/{match_id}/commands" in p for p in paths), paths
                assert page.locator(".opblock").count() >= 20
                page.locator(".opblock-post .opblock-summary").first.click()
                page.wait_for_selector(".opblock.is-open .responses-table")
                page.screenshot(path=str(ROOT / "test-artifacts" / f"api-docs-{width}.png"), full_page=False)
                context.close()
        finally:
            browser.close()
    assert not blocked, blocked
    assert any(u.endswith("/api/openapi.json") for u in served)


def test_api_docs_pass_axe_at_both_widths_in_both_languages(redis_url, tmp_path):
    """axe finds no serious or critical violation on /api/docs (no low contrast, no control inside an operation's
    button) with an operation open and its 'Try it out' form shown, at 390 and 1280 px, in English and Russian."""
    from axe_playwright_python.sync_playwright import Axe
    from tests.e2e.browser_kit import chromium, context_at, screenshot
    with service(redis_url, tmp_path, worker=False) as base, chromium() as browser:
        for lang in ("en", "ru"):
            for width in (390, 1280):
                with context_at(browser, width, lang) as context:
                    page = context.new_page()
                    page.goto(base + "/api/docs")
                    page.wait_for_selector(".opblock-summary-path", timeout=20000)
                    assert page.locator(f'html[lang="{lang}"] main h1').count() == 1
                    page.locator(".opblock-post .opblock-summary-control").first.click()
                    page.locator(".opblock.is-open .try-out__btn").click()
                    page.wait_for_selector(".opblock.is-open .execute")
                    results = Axe().run(page)
                    blocking = [(v["id"], [n["target"] for n in v["nodes"][:3]])
                                for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
                    assert not blocking, (lang, width, blocking)
                    page.evaluate("window.scrollTo(0, 0)")
                    screenshot(page, f"api-docs-axe-{lang}", ROOT / "test-artifacts" / "pages", full_page=False)
