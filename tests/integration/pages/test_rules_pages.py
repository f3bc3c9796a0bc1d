"""How to play: GET /games/<id>/rules per game in English and Russian, an anchor for every rule id the
game's code can raise, the match page's link, a refusal's rule found on the page, the learning match."""
from __future__ import annotations

import re

import pytest

from domain.games import GAME_PACKAGES
from tests.integration.pages.forms import csrf_of, sign_up
from tests.rule_ids import raised_rule_ids

GAMES = list(GAME_PACKAGES)
RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}


def rules_html(client, game, headers=None) -> str:
    answer = client.get(f"/games/{game}/rules", headers=headers or {})
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return answer.get_data(as_text=True)


def test_the_scan_finds_the_rules_that_the_code_raises():
    ids = raised_rule_ids("uchronia")
    assert {"command.joker", "operations.limit", "construction.start"} <= ids  # literal, and returned by a check
    assert "73.2d" in raised_rule_ids("ti4-exploration") and "relics.nano-forge" in raised_rule_ids("ti4-exploration")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("headers, lang", [({"Accept-Language": "en-GB,en;q=0.8"}, "en"), (RU, "ru")])
def test_every_rule_the_code_raises_has_an_anchor_in_both_languages(client, game, headers, lang):
    html = rules_html(client, game, headers)
    assert f'<html lang="{lang}">' in html
    anchors = set(re.findall(r'id="rule-([^"]+)"', html))
    missing = raised_rule_ids(game) - anchors
    assert not missing, f"{game} ({lang}) explains no rule {sorted(missing)}"
    for section in ("goal", "turn", "actions", "scoring", "end", "rules"):
        assert f'id="{section}"' in html
    for rid in anchors:  # each entry explains its rule in words
        entry = html[html.index(f'id="rule-{rid}"'):]
        text = re.sub(r"<[^>]+>", " ", entry[:entry.index("</dd>")])
        assert len(text.replace(rid, "").split()) >= 6, (game, lang, rid)


def test_the_russian_page_uses_the_rulebooks_words(client):
    uchronia = rules_html(client, "uchronia", RU)
    for word in ("Приказ", "Форум", "Склад", "Резиденци", "Дракониас", "Монополи"):
        assert word in uchronia
    venus = rules_html(client, "merchant-of-venus", RU)
    for word in ("Кубик", "Навигаци", "Первого Контакта", "Собственный Капитал", "Грузов"):
        assert word in venus
    assert "жетон пограничья" in rules_html(client, "ti4-exploration", RU).lower()
    assert "кубик" in rules_html(client, "origins", RU) and "ферм" in rules_html(client, "origins", RU)


def test_an_unknown_game_has_no_rules_page(client):
    answer = client.get("/games/chess/rules", headers={"Accept": "text/html"})
    assert answer.status_code == 404 and "<html" in answer.get_data(as_text=True)


def test_the_match_page_links_the_rules_and_a_refusal_names_a_rule_that_is_there(client, make_user):
    sign_up(client, "Ann")
    csrf = csrf_of(client.get("/").get_data(as_text=True))
    made = client.post("/matches/new", data={"csrf": csrf, "game": "uchronia", "bots": "random", "seats": "2"})
    assert made.status_code == 303
    match_id = made.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'href="/games/uchronia/rules" data-rules-link' in page
    assert 'data-rules-url="/games/uchronia/rules"' in page and 'data-game-id="uchronia"' in page
    refused = client.post(f"/matches/{match_id}/act/command", headers={"X-CSRF-Token": csrf},
                          json={"type": "issue_order", "payload": {"order": "trade", "colors": ["blue", "red"]}})
    assert refused.status_code == 422, refused.get_json()
    rule = refused.get_json()["error"]["rule"]
    game, _, bare = rule.partition(":")
    assert game == "uchronia" and f'id="rule-{bare}"' in rules_html(client, game)


@pytest.mark.parametrize("game", GAMES)
def test_play_against_bots_to_learn_starts_a_match_at_once(client, wiring, game):
    signed_out = rules_html(client, game)
    assert "data-learn" in signed_out and 'action="/matches/new"' not in signed_out
    sign_up(client, "Learner")
    page = rules_html(client, game)
    form = page[page.index("data-learn-form"):page.index("</form>", page.index("data-learn-form"))]
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    assert fields["game"] == game and fields["bots"]
    started = client.post("/matches/new", data=fields)
    assert started.status_code == 303, started.get_data(as_text=True)[:800]
    match = wiring.matches.load(started.headers["Location"].rsplit("/", 1)[1])
    assert match.status == "active" and len(match.players) == wiring.games[game].min_players
