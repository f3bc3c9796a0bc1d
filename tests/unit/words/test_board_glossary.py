"""Every game's board glossary: each term has its words and explanation in English and Russian (Cyrillic), a
rule it links is one the rules page has, and every term a board shows carries its explanation."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from domain.games import load_games
from domain.table.glossary import LANGS
from service.web.boards import render_board
from service.web.rules_texts import texts_of
from tests.gamekit import start

GAMES = load_games()
CYRILLIC = re.compile("[а-яё]", re.I)


def glossary(game_id: str) -> dict:
    """The terms of a game's board glossary, as its drawing reads them."""
    return GAMES[game_id].table.board.TERMS.terms


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_term_has_english_and_russian_words_and_text(game_id):
    terms = glossary(game_id)
    assert len(terms) >= 15, game_id
    for term_id, entry in terms.items():
        for lang in LANGS:
            assert entry[lang]["term"].strip() and len(entry[lang]["text"]) > 15, (game_id, term_id, lang)
        assert CYRILLIC.search(entry["ru"]["text"]), (game_id, term_id)
        assert entry["en"]["text"] != entry["ru"]["text"], (game_id, term_id)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_linked_rule_is_on_the_rules_page(game_id):
    ids = {rid for group in texts_of(GAMES[game_id], "en")["rules"] for rid, _name, _text in group["entries"]}
    for term_id, entry in glossary(game_id).items():
        assert entry.get("rule") is None or entry["rule"] in ids, (game_id, term_id, entry["rule"])


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_reads_the_glossary_in_its_own_folder(game_id):
    table = GAMES[game_id].table
    path = Path(table.folder) / "text" / "glossary.json"
    assert table.board.TERMS.path == path
    assert json.loads(path.read_text(encoding="utf-8"))["game"] == game_id


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_term_a_board_shows_explains_itself(game_id):
    """Each term element carries its tooltip text; an SVG term also its <title> (hover), an HTML one is focusable."""
    game = GAMES[game_id]
    players = ["ann", "bob"]
    state, *_ = start(game, players)
    root = ET.fromstring(str(render_board(game, game.view(state, "ann"), "ann")))
    terms = [el for el in root.iter() if el.get("data-tip")]
    assert len({el.get("data-term") for el in terms}) >= 8, game_id
    focusable = [el.get("data-term") for el in terms if el.tag == "abbr" and el.get("tabindex") == "0"]
    assert len(focusable) == len(set(focusable)), "each term is one Tab stop"
    assert set(focusable) == {el.get("data-term") for el in terms if el.tag == "abbr"}, "and every term has one"
    for el in terms:
        if el.tag == "abbr":
            assert el.get("title") == el.get("data-tip")
        else:
            assert el.find("{http://www.w3.org/2000/svg}title").text == el.get("data-tip")


def test_a_russian_page_shows_the_rulebooks_terms():
    """Drawn for a Russian page, the terms are the rulebook's and the board's own words are translated."""
    from tests.e2e.board_pages import boards
    label, board = next(boards("uchronia", "ru", steps=0))
    assert "Резиденция" in board and "предел Операций" in board and "раунд" in board, label
    label, board = next(boards("uchronia", "en", steps=0))
    assert "Residence" in board and "operation limit" in board and "Резиденция" not in board, label


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_finished_board_marks_nobody_to_act(game_id):
    """After the end no seat card or area is outlined as the one to act, and no line says so."""
    from tests.gamekit import random_playout
    game = GAMES[game_id]
    state, *_ = random_playout(game, ["ann", "bob"], 2, 5000)
    board = str(render_board(game, game.view(state, "ann"), "ann"))
    assert not re.search(r'class="[^"]*\bto-act\b', board) and not re.search(r"\bto act\b", board), game_id
    assert "turn: -" not in board and "now: -" not in board, f"{game_id}: an empty turn in the header after the end"
