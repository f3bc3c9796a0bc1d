"""Learning by playing: GET /api/matches/<id>/suggestion answers the greedy bot's move for the caller in a match
against bots (a legal move, accepted when sent, with its button's words and why in English and Russian); a match
with another person, a caller not seated, a finished match and a caller not to move are refused."""
from __future__ import annotations

import re

import pytest

from domain.bots.greedy import Advice
from service.web.suggestion_words import why
from tests.integration.workers.jobs import run_jobs
from tests.invites import start_http

GAMES = ["uchronia", "merchant-of-venus", "ti4-exploration", "origins"]
EN = {"Accept-Language": "en"}
RU = {"Accept-Language": "ru-RU,ru;q=0.9"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def against_a_bot(client, me: str, headers, game: str) -> str:
    """A match of the caller against the greedy bot."""
    answer = client.post("/api/matches", json={"game": game, "players": [me], "bots": ["greedy"]}, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def my_move(client, wiring, mid: str, me: str) -> None:
    """Let the bot play until it is the caller's move."""
    for _ in range(20):
        if me in client.get(f"/api/matches/{mid}").get_json()["active_players"]:
            return
        run_jobs(wiring)
    raise AssertionError("the bot never handed the move over")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_suggests_a_legal_move_in_english_and_russian(client, make_user, fast_bots, game):  # noqa: F811
    me, headers = make_user("ann")
    mid = against_a_bot(client, me, headers, game)
    for turn in range(3):
        my_move(client, fast_bots, mid, me)
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()
        english = client.get(f"/api/matches/{mid}/suggestion", headers={**headers, **EN})
        russian = client.get(f"/api/matches/{mid}/suggestion", headers={**headers, **RU})
        assert english.status_code == russian.status_code == 200, (english.get_json(), russian.get_json())
        en, ru = english.get_json(), russian.get_json()
        assert en["command"] == ru["command"] and en["command"] in legal["commands"]
        assert en["version"] == legal["version"]
        assert en["text"] and en["why"].endswith(".") and not CYRILLIC.search(en["why"] + en["text"])
        assert CYRILLIC.search(ru["text"]) and CYRILLIC.search(ru["why"])
        assert not LATIN_WORD.search(ru["why"]), ru["why"]
        sent = client.post(f"/api/matches/{mid}/commands", headers=headers,
                           json={**en["command"], "expected_version": en["version"]})
        assert sent.status_code == 201, sent.get_json()
        if client.get(f"/api/matches/{mid}").get_json()["status"] == "finished":
            break


def test_a_match_with_another_person_gives_no_suggestions(client, make_user):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "uchronia", "players": [ann, bob]}, hb)
    for headers in (ha, hb):
        answer = client.get(f"/api/matches/{mid}/suggestion", headers=headers)
        assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "suggestions_off"


def test_someone_not_seated_gets_no_suggestion(client, make_user):
    _ann, ha = make_user("ann")
    _eve, he = make_user("eve")
    mid = against_a_bot(client, _ann, ha, "uchronia")
    answer = client.get(f"/api/matches/{mid}/suggestion", headers=he)
    assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "not_seated"
    assert client.get(f"/api/matches/{mid}/suggestion").status_code == 401
    assert client.get("/api/matches/m_nosuchmatch/suggestion", headers=ha).status_code == 404


def test_a_finished_match_and_another_seats_move_give_no_suggestion(client, make_user, fast_bots):  # noqa: F811
    me, headers = make_user("ann")
    mid = against_a_bot(client, me, headers, "uchronia")
    my_move(client, fast_bots, mid, me)
    client.post(f"/api/matches/{mid}/commands", headers=headers,
                json=client.get(f"/api/matches/{mid}/suggestion", headers=headers).get_json()["command"])
    if me not in client.get(f"/api/matches/{mid}").get_json()["active_players"]:
        waiting = client.get(f"/api/matches/{mid}/suggestion", headers=headers)
        assert waiting.status_code == 409 and waiting.get_json()["error"]["code"] == "not_your_move"
    assert client.post(f"/api/matches/{mid}/concede", headers=headers).status_code == 201
    answer = client.get(f"/api/matches/{mid}/suggestion", headers=headers)
    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "match_finished"


def test_the_page_asks_through_its_session_and_hears_refusals_in_its_language(client, make_user, redis_client):
    """The match page's "Suggest a move" goes through /act/suggestion (session and CSRF): a refusal in Russian."""
    from service.web.sessions import SESSION_COOKIE, Sessions
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "uchronia", "players": [ann, bob]}, hb)
    session, csrf = Sessions(redis_client).create(ann)
    client.set_cookie(SESSION_COOKIE, session)
    answer = client.post(f"/matches/{mid}/act/suggestion", json={}, headers={"X-CSRF-Token": csrf, **RU})
    assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "suggestions_off"
    assert CYRILLIC.search(answer.get_json()["error"]["message"])
    assert client.post(f"/matches/{mid}/act/suggestion", json={}, headers=RU).status_code == 403  # no CSRF token


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("now, after, words", [
    (None, None, {"en": "only legal move", "ru": "единственный"}),
    ((0, 1.0), (1, 3.0), {"en": "wins", "ru": "выигрываете"}),
    ((0, 2.0), (0, 5.0), {"en": "from 2 points to 5 points", "ru": "было 2 очка, станет 5 очков"}),
    ((0, 0.0), (0, 1.0), {"en": "1 point ahead", "ru": "на 1 очко"}),
    ((0, -3.0), (0, 2.5), {"en": "3 points behind to 2.5 points ahead", "ru": "на 3 очка, а станете впереди на 2,5"}),
    ((0, -3.0), (0, 0.0), {"en": "level with the leader", "ru": "догоните лидера"}),
    ((0, -3.0), (0, -1.04), {"en": "from 3 points to 1 point", "ru": "было 3 очка, станет 1 очко"}),
    ((0, 2.0), (0, 2.04), {"en": "no move improves", "ru": "ни один ход"}),
    ((0, 2.0), (0, -21.0), {"en": "you trail the leader by 21 points", "ru": "на 21 очко"}),
])
def test_why_says_the_change_of_the_lead(app_context_in, lang, now, after, words):
    """The reason names where the player stood and stands, in points, with the right plural in each language."""
    with app_context_in(lang):
        assert words[lang] in why(Advice({"type": "pass", "payload": {}}, now, after))


@pytest.fixture
def app_context_in(wiring):
    """A request context of the app whose page language is `lang`."""
    from contextlib import contextmanager

    from service import create_app

    app = create_app(wiring=wiring)

    @contextmanager
    def entered(lang):
        with app.test_request_context("/", headers={"Accept-Language": lang}):
            yield

    return entered


def test_the_match_page_offers_a_suggestion_only_where_one_is_given(client, make_user, redis_client, fast_bots):  # noqa: F811
    """"Suggest a move" is on the page of a player to move against bots, not against a person, nor while waiting."""
    from service.web.sessions import SESSION_COOKIE, Sessions
    me, headers = make_user("ann")
    bob, hb = make_user("bob")
    client.set_cookie(SESSION_COOKIE, Sessions(redis_client).create(me)[0])
    bots = against_a_bot(client, me, headers, "uchronia")
    my_move(client, fast_bots, bots, me)
    assert "data-suggest " in client.get(f"/matches/{bots}", headers=RU).get_data(as_text=True)
    people = start_http(client, headers, {"game": "uchronia", "players": [me, bob]}, hb)
    pages = []
    for seat in (me, bob):  # whoever is to move: their page offers moves but no suggestion
        client.set_cookie(SESSION_COOKIE, Sessions(redis_client).create(seat)[0])
        pages.append(client.get(f"/matches/{people}").get_data(as_text=True))
    assert not any("data-suggest " in page for page in pages)
    assert any("data-command=" in page for page in pages)
