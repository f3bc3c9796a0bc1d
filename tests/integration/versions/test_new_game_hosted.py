"""A fifth game from `turnstream new-game` alone is hosted: the lobby offers it, its rules page reads in English and
Russian, its match page speaks Russian, and random, greedy and MCTS bots play it to the end through the real command
path and RQ jobs; nothing outside its package was written."""
from __future__ import annotations

import random
import re

import pytest

from service.bootstrap import build
from service.cli import main
from service.cli.game import load_game
from tests.integration.workers.jobs import run_jobs
from tests.integration.pages.forms import csrf_of, new_match, sign_up


@pytest.fixture
def hosted(tmp_path, settings, redis_client, games):
    """The service hosting the four games and a freshly scaffolded stone-pile; (wiring, client)."""
    import dataclasses

    from service import create_app
    from workers import context
    assert main(["new-game", "stone-pile", "--root", str(tmp_path)]) == 0
    written = {p.relative_to(tmp_path).parts[:3] for p in tmp_path.rglob("*") if p.is_file()}
    assert written == {("domain", "games", "stone_pile"), ("tests", "unit", "stone_pile")}, written
    pile = load_game(str(tmp_path / "domain" / "games" / "stone_pile"))
    w = build(dataclasses.replace(settings, bot_ms=20.0), games=dict(games, **{pile.id: pile}))
    context.use(w)
    yield w, create_app(wiring=w).test_client()
    context.use(None)
    w.live.stop()
    w.users.cache.close()


def user(client, name):
    """A new player; (id, auth headers)."""
    made = client.post("/api/users", json={"name": name}).get_json()
    return made["id"], {"Authorization": f"Bearer {made['token']}"}


def test_the_lobby_and_the_rules_page_offer_it_in_both_languages(hosted):
    """The new-match form lists it with its options; its rules page exists in English and Russian."""
    _w, client = hosted
    _ann, headers = user(client, "ann")
    assert any(g["id"] == "stone-pile" for g in client.get("/api/games").get_json()["games"])
    english = client.get("/games/stone-pile/rules", headers={"Accept-Language": "en"})
    russian = client.get("/games/stone-pile/rules", headers={"Accept-Language": "ru"})
    assert english.status_code == russian.status_code == 200
    assert "whoever takes the last stone wins" in english.get_data(as_text=True)
    assert "кто возьмёт последний камень, тот побеждает" in russian.get_data(as_text=True)
    assert 'id="rule-take.max"' in russian.get_data(as_text=True)


@pytest.mark.parametrize("level", ["random", "greedy", "mcts"])
def test_each_bot_level_plays_it_to_the_end(hosted, level):
    """ann against a bot of `level`: every move through the API or a bot job, to a winner."""
    w, client = hosted
    ann, headers = user(client, "ann")
    made = client.post("/api/matches", json={"game": "stone-pile", "players": [ann], "bots": [level]},
                       headers=headers)
    assert made.status_code == 201, made.get_json()
    mid, chooser = made.get_json()["id"], random.Random(level)
    for _ in range(100):
        run_jobs(w)
        summary = client.get(f"/api/matches/{mid}").get_json()
        if summary["status"] == "finished":
            break
        if ann in summary["active_players"]:
            legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()
            command = dict(chooser.choice(legal["commands"]), expected_version=legal["version"])
            assert client.post(f"/api/matches/{mid}/commands", json=command, headers=headers).status_code == 201
    assert summary["status"] == "finished" and summary["result"]["winners"], summary


def test_a_russian_player_starts_and_reads_it_from_the_lobby(hosted):
    """A Russian browser signs up, starts a stone-pile match against a bot from the lobby's form, and reads its buttons,
    log and board in Russian: the game's own words (text/words.ru.po), nothing of the English."""
    _w, client = hosted
    client.set_cookie("lang", "ru")
    sign_up(client, "Аня")
    lobby = client.get("/").get_data(as_text=True)
    assert 'data-game="stone-pile"' in lobby
    made = new_match(client, csrf_of(lobby), "stone-pile", seats="2", bots="random")
    assert made.status_code == 303, made.get_data(as_text=True)[:300]
    page = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "раздающий насыпал" in page.lower(), "the log in Russian"
    assert "Взять 1 камень" in page and "взять камни из кучи" in page.lower(), "its buttons and what they do"
    assert re.search(r"остал(ся|ось) \d+ кам", page), "its board"
    seen = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S))
    for english in ("stones left", "the dealer piled", "Take 1 stone", "take_stones", "take stones"):
        assert english not in seen, english


def test_bots_are_named_in_the_page_language(hosted):
    """A Russian page names the bot of a match in Russian; the English page and the API keep its stored name."""
    w, client = hosted
    ann, headers = user(client, "ann")
    mid = client.post("/api/matches", json={"game": "stone-pile", "players": [ann], "bots": ["greedy"]},
                      headers=headers).get_json()["id"]
    client.set_cookie("lang", "ru")
    assert "Жадный бот" in client.get(f"/matches/{mid}").get_data(as_text=True)
    client.set_cookie("lang", "en")
    assert "Greedy bot" in client.get(f"/matches/{mid}").get_data(as_text=True)
    assert w.users.names(["bot:greedy:1"]) == {"bot:greedy:1": "Greedy bot"}
