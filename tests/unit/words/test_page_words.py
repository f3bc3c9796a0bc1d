"""A game's page wording lives in its package (domain/games/<pkg>/words.py, reached through `game.table.words`):
its tables name its own moves and options, the pages say them in English and Russian as before, a game that declares
no words is shown by its command types and names made readable, and the web modules that read them name no game."""
from __future__ import annotations

import importlib
import inspect
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from flask import Flask
from flask_babel import Babel

from domain.games import GAME_PACKAGES, load_games
from domain.games.dice_race import GAME as RACE
from service.web.pages import action_help, game_over, lobby_form, page_words
from service.web.i18n import TRANSLATIONS, choose_language
from service.web.openapi import schema_json

GAMES = load_games()
NAMES = {"a": "Ann", "b": "Bob"}
TIED = [{"player": "a", "score": 5, "winner": True, "conceded": False},
        {"player": "b", "score": 5, "winner": False, "conceded": False}]


@contextmanager
def page_in(lang: str):
    """A request of a page in `lang` of an app hosting the games, its words translated as the web app does."""
    app = Flask(__name__)
    Babel(app, locale_selector=choose_language, default_translation_directories=str(TRANSLATIONS))
    app.extensions["turnstream"] = SimpleNamespace(games=GAMES)  # the wiring's games (service/web/http.py)
    with app.test_request_context(headers={"Accept-Language": lang}):
        yield


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_games_words_name_its_own_moves_options_and_columns(game_id):
    game = GAMES[game_id]
    words = game.table.words
    kinds = set(game.command_schemas)
    assert set(words.STEPS) == kinds, "every move has a phrase"
    assert {k for k, (_phrase, rule) in words.STEPS.items() if rule is None} == set(getattr(words, "OWN_WORDS", {}))
    asked = getattr(words, "ASK_FIRST", frozenset())
    assert asked <= words.GIVING_UP <= kinds
    options = set(schema_json(game.options_schema)["properties"])
    assert set(words.OPTION_LABELS) == options
    assert set(getattr(words, "CHOICE_NAMES", {})) <= options
    assert all(context == "standings" for context, _heading in getattr(words, "COLUMNS", {}).values())
    with page_in("en"):
        assert all(action_help.explanation(game, kind, "en") for kind in kinds), "every move is explained"


def test_the_pages_say_a_games_words_in_english_and_russian():
    uchronia, mov, ti4, origins = (GAMES[g] for g in ("uchronia", "merchant-of-venus", "ti4-exploration", "origins"))
    with page_in("en"):
        assert action_help.phrase(uchronia, "issue_order") == "play cards to issue an order"
        assert action_help.explanation(ti4, "end_turn", "en") == "Ends your turn; the next player moves."
        assert game_over.column_label(origins, "gold") == "Gold"
        assert game_over.reason_sentence(mov, {"reason": "round_limit"}) == \
            "The last round was played, so the match ended."
        fields = {f["name"]: f for f in lobby_form.option_fields(mov)}
        assert fields["races"]["label"] == "Races" and ("whynom", "Whynom") in fields["races"]["choices"]
    with page_in("ru"):
        assert action_help.phrase(uchronia, "issue_order") == "разыграть карты и отдать Приказ"
        assert action_help.explanation(ti4, "pass", "ru") == \
            "До конца раунда вы больше не действуете; остальные играют, пока все не спасуют."
        assert [game_over.column_label(origins, k) for k in ("vp", "gold")] == ["ПО за игру", "Золото"]
        assert game_over.reason_sentence(origins, {"reason": "gold_taken"}) == \
            "Всё золото с карт районов разобрано, и партия закончилась."
        view = {"player_states": {"a": {"cash": 3}, "b": {"cash": 1}}}
        assert game_over.tiebreak_sentence(mov, {}, view, TIED, NAMES) == "У игроков Ann и Bob поровну очков (5); " \
            "ничью разрешил дополнительный показатель — кредиты: у Ann 3 против 1."
        fields = {f["name"]: f for f in lobby_form.option_fields(mov)}
        assert fields["races"]["label"] == "Расы" and ("whynom", "Вайномы") in fields["races"]["choices"]
        assert [f["label"] for f in lobby_form.option_fields(uchronia)] == ["Цель по ПО", "Наибольшее число раундов"]


def test_a_game_without_words_is_shown_by_its_command_types_and_names():
    assert RACE.table is None
    with page_in("ru"):
        assert action_help.todo(RACE, [{"type": "note"}, {"type": "roll"}]) == "note или roll"
        assert action_help.phrase(RACE, "draw") == "draw"
        assert not action_help.gives_up(RACE, "roll") and not action_help.asks_first(RACE, "roll")
        assert action_help.explanation(RACE, "roll", "ru") is None and action_help.rule_anchor(RACE, "roll") is None
        assert game_over.column_keys(RACE, {"a": {"zeta": 1, "vp": 2, "total": 3}}) == ["vp", "zeta"]
        assert game_over.column_label(RACE, "vp") == "VP" and game_over.column_label(RACE, "fast_laps") == "Fast laps"
        assert game_over.tiebreak_sentence(RACE, {}, {}, TIED, NAMES) == \
            "У игроков Ann и Bob поровну очков (5); по порядку игры первым идёт Ann."
        assert game_over.ending(RACE, {}, {"round": 2, "max_rounds": 5}) is None
        assert game_over.reason_sentence(RACE, {"reason": "max_rounds"}) == \
            "Сыгран последний раунд, и партия закончилась."
        assert [(f["label"], f["choices"]) for f in lobby_form.option_fields(RACE)] == [("Target", [])]


def test_the_web_modules_reading_the_words_name_no_game_and_the_words_import_their_package_relatively():
    for module in (action_help, game_over, lobby_form, page_words):
        source = inspect.getsource(module)
        assert "domain.games" not in source, module.__name__
        assert not [g for g in GAME_PACKAGES if f'"{g}"' in source], module.__name__
    for package in GAME_PACKAGES.values():
        source = inspect.getsource(importlib.import_module(f"{package}.words"))
        assert "domain.games" not in source, package
