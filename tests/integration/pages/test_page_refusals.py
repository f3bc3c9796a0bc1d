"""A page's refused action that is not a game's own words (a stale version, a finished match) is said in the page's
language by its code; an English page keeps the detailed message, and the API stays English."""
from __future__ import annotations

import re

from tests.integration.workers.jobs import run_jobs
from tests.integration.pages.forms import bot_match, sign_up
from tests.integration.pages.russian import CYRILLIC, EN, RU


def _csrf(client, path: str) -> str:
    html = client.get(path, headers=RU).get_data(as_text=True)
    return (re.search(r'name="csrf-token" content="([^"]+)"', html) or re.search(r'data-csrf="([^"]+)"', html)).group(1)


def test_a_stale_move_and_a_finished_match_are_refused_in_the_pages_language(client, fast_bots):
    token = re.search(r"data-new-token>([^<]+)<", sign_up(client, "Rosa")).group(1)
    path = bot_match(client, "origins")
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


def test_the_new_match_form_speaks_the_pages_language(client):
    """On a Russian lobby the games' options are labelled in Russian, and a refused form (an unknown invitee, a
    bad number) is refused in Russian naming what to check; in English the detailed message stays."""
    from tests.integration.pages.forms import csrf_of
    sign_up(client, "Rosa")
    lobby = client.get("/", headers=RU).get_data(as_text=True)
    assert "Наибольшее число раундов" in lobby and "Max rounds" not in lobby
    csrf = csrf_of(lobby)
    form = {"csrf": csrf, "game": "uchronia", "invite": "Nobody Here", "seats": "2"}
    ru = client.post("/matches/new", data=form, headers=RU).get_data(as_text=True)
    assert "Проверьте приглашённых игроков: Nobody Here." in ru
    en = client.post("/matches/new", data=form, headers=EN).get_data(as_text=True)
    assert "nobody is called" in en
    bad = client.post("/matches/new", data={**form, "invite": "", "opt_uchronia_max_rounds": "9999"},
                      headers=RU).get_data(as_text=True)
    assert "Проверьте эти настройки: Наибольшее число раундов." in bad, re.findall(r'class="flash[^"]*"[^>]*>([^<]*)', bad)
