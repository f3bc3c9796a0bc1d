"""A visitor who hits a limit on a page gets a 429 page in the page's language saying how long to wait: no English
detail line (the limit's own terms) on a Russian page."""
from __future__ import annotations

import re

from tests.integration.api.processes import process
from tests.integration.pages.russian import RU, english_words

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
PAGE = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}  # as a browser asks for a page
RU_PAGE = {**RU, **PAGE}


def refused_page(answer, language: str) -> str:
    """The HTML of a 429 page in `language`, checked for its Retry-After."""
    assert answer.status_code == 429 and answer.mimetype == "text/html"
    assert int(answer.headers["Retry-After"]) >= 1
    html = answer.get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    return html


def test_a_sign_up_past_its_limit_answers_a_russian_page_in_russian(wiring, games):
    browser = process(wiring, games, account_rate_limit="1/minute")
    csrf = CSRF.search(browser.get("/", headers=RU_PAGE).get_data(as_text=True)).group(1)
    assert browser.post("/signup", data={"name": "Аня", "csrf": csrf}, headers=RU_PAGE).status_code == 303
    other = process(wiring, games, account_rate_limit="1/minute")
    csrf = CSRF.search(other.get("/", headers=RU_PAGE).get_data(as_text=True)).group(1)
    answer = other.post("/signup", data={"name": "Катя", "csrf": csrf}, headers=RU_PAGE)
    html = refused_page(answer, "ru")
    assert f"Слишком много запросов: подождите {answer.headers['Retry-After']} секунд" in html
    assert english_words(html) == [], "no English word, nor the limit's terms ('1 per 1 minute')"
    english = other.post("/signup", data={"name": "Kate", "csrf": csrf}, headers={**PAGE, "Accept-Language": "en"})
    html = refused_page(english, "en")
    assert f"Too many requests: wait {english.headers['Retry-After']} seconds" in html and "per 1 minute" not in html


def test_sign_in_mails_past_their_limit_answer_in_russian(wiring, games):
    browser = process(wiring, games, signin_rate_limit="1/hour")
    csrf = CSRF.search(browser.get("/sign-in", headers=RU_PAGE).get_data(as_text=True)).group(1)
    form = {"email": "anya@example.com", "csrf": csrf}
    assert browser.post("/sign-in", data=form, headers=RU_PAGE).status_code == 202
    html = refused_page(browser.post("/sign-in", data=form, headers=RU_PAGE), "ru")
    assert "Слишком много запросов: подождите" in html and english_words(html) == []
    assert re.search(r"подождите (60|59) минут", html), "an hour's wait in minutes"
