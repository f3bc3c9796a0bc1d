"""A Russian newcomer reads no English and no code at the table: every refusal a game gives in seeded playouts (a
legal move of another moment, a move of another player, an unknown move, a move with broken details) said in
Russian has no Latin word, and in neither language a code word (a snake_case id, a quoted id, a command type);
every game's board and its tooltips drawn for a Russian page in a few seeded states has no English word and no
bare code. Allowed Latin: players' names, map and city coordinates ("W1", "B3") and Roman numerals of names."""
from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET

import pytest

from domain.engine.contract_kit import fresh, start
from domain.engine.errors import RuleViolation
from domain.engine.text import Text, name
from domain.games import load_games
from service.web.game_words import render

GAMES = load_games()
PLAYERS = ["Оля", "Катя", "Ёжик"]  # names in Cyrillic: any Latin word left in a refusal is the game's
LATIN = re.compile(r"[A-Za-z][A-Za-z_'’-]*\d*")
COORDINATE = re.compile(r"[A-Z]\d{1,2}")  # a map square or city cell, as drawn on the board
ROMAN = {"I", "II", "III", "IV", "V"}  # in a planet's name ("Изольда II")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b|'[a-z_]+'|\"[a-z_]+\"")


def latin_words(text: str, names=()) -> list:
    """The Latin-letter words of `text` that are neither a name, a coordinate nor a Roman numeral."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [w for w in LATIN.findall(text) if not COORDINATE.fullmatch(w) and w not in ROMAN]


def code_words(game, text: str) -> list:
    """Code words in `text`: snake_case or quoted ids, the game's command types."""
    found = SNAKE.findall(text)
    return found + [t for t in game.command_schemas if re.search(rf"\b{re.escape(t)}\b", text) and "_" in t]


def tries(game, state, player, seen: list) -> list:
    """Commands to refuse now: moves legal at other moments, an unknown move, a seen move with broken details."""
    legal = game.legal_commands(state, player)
    others = [c for c in seen if c not in legal][-12:]
    broken = [{"type": c["type"], "payload": {"x": 1}} for c in seen[-3:]]
    return others + broken + [{"type": "fly_to_the_moon", "payload": {}}]


def refusals(game, seats: int = 3, seed: int = 5, steps: int = 160) -> list:
    """(rule id, Text) of every refusal met in a seeded playout (each command tried by the player to act and by
    another player)."""
    players = PLAYERS[:min(max(seats, game.min_players), game.max_players)]
    state, _events, rng, _ = start(game, players, seed)
    pick, seen, out = random.Random(seed), [], []
    for _step in range(steps):
        active = game.active_players(state)
        if not active or game.result(state):
            break
        player = pick.choice(sorted(active))
        legal = game.legal_commands(state, player)
        seen += [c for c in legal if c not in seen]
        idle = [p for p in players if p not in active][:1]
        for who, command in [(player, c) for c in tries(game, state, player, seen)] + [(p, legal[0]) for p in idle]:
            try:
                game.decide(state, who, copy.deepcopy(command), fresh(rng))
            except RuleViolation as exc:
                out.append((exc.rule_id, exc.message))
        for event in game.decide(state, player, copy.deepcopy(pick.choice(legal)), rng):
            state = game.evolve(state, copy.deepcopy(event))
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_refused_move_says_no_english_and_no_code_in_russian(game_id):
    game = GAMES[game_id]
    found = refusals(game)
    assert len({rule for rule, _ in found}) >= 4, f"{game_id}: too few kinds of refusal to judge"
    for rule, message in found:
        assert isinstance(message, Text), (rule, message)
        russian, english = render(message, "ru"), str(message)
        assert not latin_words(russian), f"{game_id} {rule}: {russian!r}"
        assert re.search("[а-яё]", russian, re.I), f"{game_id} {rule}: not Russian: {russian!r}"
        assert not code_words(game, russian) and not code_words(game, english), f"{game_id} {rule}: {english!r}"


def board_texts(board: str):
    """Every text a board shows or speaks: its elements' text, titles, tooltips and labels."""
    for el in ET.fromstring(board).iter():
        for value in (el.text, el.tail, el.get("title"), el.get("aria-label"), el.get("data-tip")):
            if value and value.strip():
                yield el, value.strip()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_russian_board_and_its_tooltips_show_no_english_word_and_no_code(game_id):
    from tests.e2e.board_pages import NAMES, boards
    shown = 0
    for seed in (2, 7):
        for label, board in boards(game_id, "ru", seed=seed, steps=150, every=30, players=3):
            for el, text in board_texts(board):
                grid = game_id == "origins" and el.tag.endswith("text") and re.fullmatch("[A-E1-5]", text)
                words = [] if grid else latin_words(text, NAMES.values())  # a city's row heading aside
                assert not words, f"{label}: {words} in {text!r}"
                assert not code_words(GAMES[game_id], text), f"{label}: {text!r}"
                shown += 1
        for label, board in boards(game_id, "en", seed=seed, steps=60, every=30, players=3):
            for _el, text in board_texts(board):
                assert not code_words(GAMES[game_id], text), f"{label}: {text!r}"
    assert shown > 200, game_id


def test_uchronia_says_your_move_to_the_player_to_act_and_explains_every_building():
    """The player to act reads "Ваш ход", not "waiting for" herself; every building's power is on both rules pages."""
    from service.web.rules_texts import texts_of
    from tests.e2e.board_pages import boards
    _label, board = next(boards("uchronia", "ru", steps=0))
    header = ET.fromstring(board).find(".//div[@class='board-lines']")
    said = " ".join(header.itertext())
    assert "Ваш ход: нужно" in said and "ещё ждём: bob the Builder" in said and "Ann" not in said, said
    game = GAMES["uchronia"]
    for lang in ("en", "ru"):
        powers = {text for group in texts_of(game, lang)["rules"] for _rid, _name, text in group["entries"]}
        for design in game.table.board.DESIGNS.values():
            shown = render(name(design["text"]), lang)
            assert shown in powers, (lang, design["name"])
            assert lang == "en" or re.search("[а-яё]", shown), design["name"]
