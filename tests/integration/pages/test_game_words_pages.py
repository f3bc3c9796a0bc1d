"""A match page in Russian says the games' own words in Russian: the action buttons, the move log and a refused move
(the API keeps its English message); player names are shown as written; in English the words are unchanged."""
from __future__ import annotations

import html as markup
import re

import pytest

from domain.games import GAME_PACKAGES
from tests.integration.workers.jobs import run_jobs
from tests.integration.pages.forms import bot_match, sign_up
from tests.integration.pages.russian import CYRILLIC, EN, RU

# a word each game's buttons or log say in Russian at the start of a match (the rulebooks' terms)
EXPECTED = {"uchronia": "Форум", "merchant-of-venus": "движение", "ti4-exploration": "Активировать",
            "origins": "Обсерватория"}


def _buttons(html: str) -> list:
    return [markup.unescape(re.sub(r"<[^>]+>", "", b)).strip()
            for b in re.findall(r"<button[^>]*data-command=[^>]*>(.*?)</button>", html, re.S)]


def _log(html: str) -> str:
    """The move log's sentences, one a line."""
    return "\n".join(markup.unescape(t).strip() for t in re.findall(r'<span class="text">(.*?)</span>', html, re.S))


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_a_russian_match_page_shows_russian_buttons_and_log(client, fast_bots, game):
    sign_up(client, "Аня O'Neil")
    path = bot_match(client, game)
    run_jobs(fast_bots)  # the bot moves first when it has the first turn
    ru = client.get(path, headers=RU).get_data(as_text=True)
    buttons = _buttons(ru)
    assert buttons, f"{game}: no action button on the page"
    assert all(CYRILLIC.search(b) for b in buttons), f"{game}: English buttons {[b for b in buttons if not CYRILLIC.search(b)][:5]}"
    assert EXPECTED[game] in ru, f"{game}: {buttons[:4]}"
    lines = _log(ru).splitlines()
    english = [line for line in lines if not CYRILLIC.search(line)]
    assert lines and not english, f"{game}: English log lines {english[:5]}"
    assert any("Аня O'Neil" in line for line in lines), "a player's name is shown as written"
    en = client.get(path, headers=EN).get_data(as_text=True)
    assert not any(CYRILLIC.search(b) for b in _buttons(en)), f"{game}: Russian buttons on an English page"


def test_a_refused_move_on_a_russian_page_is_russian_and_the_api_stays_english(client, fast_bots):
    token = re.search(r"data-new-token>([^<]+)<", sign_up(client, "Rosa")).group(1)
    path = bot_match(client, "uchronia")
    run_jobs(fast_bots)
    html = client.get(path, headers=RU).get_data(as_text=True)
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', html) or re.search(r'data-csrf="([^"]+)"', html)
    bad = {"type": "discard_to_forum", "payload": {"color": "purple"}}
    refused = client.post(f"{path}/act/command", json={**bad, "command_id": "page-x1"},
                          headers={**RU, "X-CSRF-Token": csrf.group(1)})
    assert refused.status_code == 422, refused.get_data(as_text=True)[:300]
    error = refused.get_json()["error"]
    assert error["rule"].startswith("uchronia:") and CYRILLIC.search(error["message"]), error
    api = client.post(f"/api/matches/{path.rsplit('/', 1)[1]}/commands", json=bad,
                      headers={**RU, "Authorization": f"Bearer {token}"})
    assert api.status_code == 422 and not CYRILLIC.search(api.get_json()["error"]["message"]), api.get_json()


def test_the_lobby_and_the_log_say_who_won_in_russian(client, fast_bots):
    sign_up(client, "Rosa")
    path = bot_match(client, "origins")
    run_jobs(fast_bots)
    html = client.get(path, headers=RU).get_data(as_text=True)
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', html) or re.search(r'data-csrf="([^"]+)"', html)
    conceded = client.post(f"{path}/act/concede", json={}, headers={**RU, "X-CSRF-Token": csrf.group(1)})
    assert conceded.status_code in (200, 201), conceded.get_data(as_text=True)[:300]
    run_jobs(fast_bots)  # the lobby's rows are projected
    lobby = client.get("/", headers=RU).get_data(as_text=True)
    assert "Победа: Случайный бот." in lobby, "the lobby says who won in the page's language, the bot named in it too"
    log = _log(client.get(path, headers=RU).get_data(as_text=True))
    assert "Rosa сдаётся" in log
