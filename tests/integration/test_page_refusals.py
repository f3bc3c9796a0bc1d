"""A page's refused action that is not a game's own words (a stale version, a finished match) is said in the page's
language by its code; an English page keeps the detailed message, and the API stays English."""
from __future__ import annotations

import re

from tests.integration.test_bots_seated import fast_bots, run_jobs  # noqa: F401 (a fixture)
from tests.integration.test_game_words_pages import CYRILLIC, EN, RU, _match
from tests.integration.test_pages_lobby import sign_up


def _csrf(client, path: str) -> str:
    html = client.get(path, headers=RU).get_data(as_text=True)
    return (re.search(r'name="csrf-token" content="([^"]+)"', html) or re.search(r'data-csrf="([^"]+)"', html)).group(1)


def test_a_stale_move_and_a_finished_match_are_refused_in_the_pages_language(client, fast_bots):
    token = re.search(r"data-new-token>([^<]+)<", sign_up(client, "Rosa")).group(1)
    path = _match(client, "origins")
    run_jobs(fast_bots)
    mid = path.rsplit("/", 1)[1]
    legal = client.get(f"/api/matches/{mid}/legal", headers={"Authorization": f"Bearer {token}"}).get_json()
    stale = {**legal["commands"][0], "expected_version": 1, "command_id": "page-stale"}
    csrf = _csrf(client, path)
    ru = client.post(f"{path}/act/command", json=stale, headers={**RU, "X-CSRF-Token": csrf})
    assert ru.status_code == 409 and ru.get_json()["error"]["code"] == "version_conflict"
    assert ru.get_json()["error"]["message"].startswith("Кто-то сходил раньше"), ru.get_json()
    en = client.post(f"{path}/act/command", json={**stale, "command_id": "page-stale-en"},
                     headers={**EN, "X-CSRF-Token": csrf})
    assert en.status_code == 409 and not CYRILLIC.search(en.get_json()["error"]["message"])
    assert client.post(f"{path}/act/concede", json={}, headers={**RU, "X-CSRF-Token": csrf}).status_code in (200, 201)
    again = client.post(f"{path}/act/concede", json={}, headers={**RU, "X-CSRF-Token": csrf})
    assert again.status_code == 409 and CYRILLIC.search(again.get_json()["error"]["message"]), again.get_json()
    api = client.post(f"/api/matches/{mid}/commands", json={k: v for k, v in stale.items() if k != "command_id"},
                      headers={**RU, "Authorization": f"Bearer {token}"})
    assert api.status_code == 409 and not CYRILLIC.search(api.get_json()["error"]["message"]), api.get_json()
