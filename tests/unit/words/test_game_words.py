"""The games' own words in Russian: every Text a game produces in seeded random playouts (action buttons, move-log
sentences, refusals, standings reasons) has its template in the `games` catalogue and its printed names in the names
JSON; the English of a Text is what it always was; a page says it in Russian with player names untouched."""
from __future__ import annotations

import copy
import importlib
import json
import random
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from domain.engine.contract_kit import fresh, start
from domain.engine.errors import RuleViolation
from domain.engine.text import NAME, NT, T, Text, joined, name, name_key
from domain.games import GAME_PACKAGES, load_games
from service.app.move_log import describe as log_sentence
from service.app.standings import winners_sentence
from service.web.game_words import TRANSLATIONS, names, names_file, render

PO = TRANSLATIONS / "ru/LC_MESSAGES/games.po"
SEEDS = (0, 1)
BUDGET = 250


def own_names(game) -> dict:
    """The printed names in Russian of a game's own package (text/names.ru.json)."""
    return json.loads(names_file(game, "ru").read_text(encoding="utf-8"))


def _walk(value, found: dict) -> None:
    """Every Text inside `value` (its params and parts too) into found["templates"] / found["names"]."""
    if not isinstance(value, Text):
        return
    if value.context == NAME:
        found["names"].add(name_key(value))
    elif value.parts is not None:
        _walk(value.sep, found)
        for part in value.parts:
            _walk(part, found)
    elif value.template is not None:
        found["templates"].add(value.template)
        for param in value.params.values():
            _walk(param, found)


def _pick(texts: list, where: str, found: dict) -> None:
    for text in texts:
        assert isinstance(text, Text), f"{where}: {text!r} is a plain str, not a Text"
        _walk(text, found)


def game_texts(game) -> dict:
    """The Texts one game produces in seeded random playouts: {"templates", "names"} (plain strs are errors)."""
    found = {"templates": set(), "names": set()}
    def who(pid):
        return f"<{pid}>"
    for seats in sorted({game.min_players, game.max_players}):
        players = [f"p{i}" for i in range(seats)]
        for seed in SEEDS:
            state, events, rng, _ = start(game, players, seed)
            _pick([game.describe(e, who) for e in events], "describe", found)
            pick = random.Random(seed)
            for _step in range(BUDGET):
                active = game.active_players(state)
                if not active or game.result(state):
                    break
                player = pick.choice(active)
                legal = game.legal_commands(state, player)
                _pick([game.describe_command(state, c, who) for c in legal], "describe_command", found)
                for other in players:  # a refusal: someone else tries the first legal command
                    if other != player:
                        try:
                            game.decide(state, other, copy.deepcopy(legal[0]), fresh(rng))
                        except RuleViolation as exc:
                            _pick([exc.message], f"refusal {exc.rule_id}", found)
                command = pick.choice(legal)
                for event in game.decide(state, player, copy.deepcopy(command), rng):
                    _pick([game.describe(event, who)], "describe", found)
                    state = game.evolve(state, copy.deepcopy(event))
            result = game.result(state) or {}
            own_reason = getattr(game.table.words, "REASONS", {}).get(result.get("reason"))  # what the page says
            _pick([t for t in (own_reason and T(own_reason), winners_sentence(result.get("winners") or [], {})) if t],
                  "standings", found)
    return found


def read_catalogue(path) -> dict:
    """{msgid (a plural's singular): message} of one .po file."""
    with open(path, "rb") as f:
        return {(m.id[0] if isinstance(m.id, tuple) else m.id): m for m in read_po(f) if m.id}


def own_words(game) -> dict:
    """A game's own catalogue (its package's text/words.ru.po), what pages consult first."""
    path = Path(game.table.folder) / "text" / "words.ru.po"
    return read_catalogue(path) if path.is_file() else {}


@pytest.fixture(scope="module")
def catalogue() -> dict:
    """The platform's words (games.po) and every game's own."""
    merged = read_catalogue(PO)
    for game in load_games().values():
        merged.update(own_words(game))
    return merged


@pytest.mark.parametrize("package", sorted(GAME_PACKAGES.values()))
def test_every_game_word_has_its_russian(package):
    """Each word a playout of the game says has its Russian in the game's own catalogue, or is the platform's."""
    game = importlib.import_module(package).GAME
    catalogue = {**read_catalogue(PO), **own_words(game)}
    found = game_texts(game)
    assert len(found["templates"]) > 20
    missing = sorted(t for t in found["templates"] if t not in catalogue)
    assert not missing, f"{game.id}: no Russian for {missing[:8]} (docs/translations.md)"
    for template in found["templates"]:
        message = catalogue[template]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, f"{game.id}: {template!r} is untranslated or fuzzy"
    ru_names = own_names(game)
    unnamed = sorted(n for n in found["names"] if n not in ru_names)
    assert not unnamed, f"{game.id}: printed names without Russian in its text/names.ru.json: {unnamed[:12]}"


def test_a_text_is_its_english_and_says_russian_with_player_names_as_written():
    card = NT("a {color} card", "{n} {color} cards", 2, color=name("red"))
    text = T("{player} put {card} into the Forum", player="ann o'Brien", card=card)
    assert text == "ann o'Brien put 2 red cards into the Forum"
    assert render(text, "ru") == "ann o'Brien кладёт 2 карты красного цвета на Форум" or \
        render(text, "ru").startswith("ann o'Brien")
    assert render(text, "en") == str(text)
    listed = joined([T("Nobody won."), "Rosa"], T(" and "))
    assert render(listed, "ru") == "Никто не победил. и Rosa"


def test_the_platform_log_and_standings_are_russian():
    env = {"scope": "platform", "type": "player_conceded", "data": {"player": "u1"}, "actor": "u1"}
    said = log_sentence(None, env, lambda pid: "Tomas")
    assert said == "Tomas conceded"
    assert render(said, "ru") == "Tomas сдаётся"
    assert render(winners_sentence(["a", "b"], {"a": "Rosa", "b": "Tomas"}), "ru") == \
        "Победа: Rosa и Tomas (общая победа)."


def test_the_compiled_games_catalogue_is_its_po_file():
    from babel.messages.mofile import read_mo

    def key(value):
        return tuple(value) if isinstance(value, (list, tuple)) else value
    with open(PO, "rb") as f:
        po = {key(m.id): key(m.string) for m in read_po(f) if m.id}
    with open(PO.with_suffix(".mo"), "rb") as f:
        mo = {key(m.id): key(m.string) for m in read_mo(f) if m.id}
    assert po == mo, "the .mo is stale: pybabel compile -D games -d service/web/translations"


def test_every_game_title_has_its_russian_name():
    games = [importlib.import_module(p).GAME for p in GAME_PACKAGES.values()]
    assert not sorted(g.title for g in games if g.title not in own_names(g)), "each game names itself"
    assert not sorted(g.title for g in games if g.title not in names("ru")), "the platform's log names each game"


def test_a_mail_quotes_the_game_in_its_readers_language():
    from service.app.mail.compose import Letter, compose
    from workers.mail import in_language
    letter = Letter("your_move", "Аня", "http://x/matches/m1", {"game": name("Uchronia"), "opponents": "Bob"},
                    [{"label": name("Origins: First Builders"), "url": "http://x/m2", "note": ""}])
    ru = in_language(letter, "ru")
    assert ru.values == {"game": "Ухрония", "opponents": "Bob"} and ru.items[0]["label"] == "Истоки: Первые строители"
    assert in_language(letter, "en").values["game"] == "Uchronia"
    message = compose(ru, "anya@example.com", "ru", "turnstream@localhost", "m:1", "http://x/u")
    assert "Ухрония" in message.get_body(("plain",)).get_content()


def test_every_marked_game_word_has_its_russian(catalogue):
    """What `pybabel extract -F babel-games.cfg` finds (docs/translations.md): the platform's refusals too."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg
    root = TRANSLATIONS.parents[2]
    with open(root / "babel-games.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {"T": None, "NT": (1, 2), "N_": None, "NP_": (1, 2), "NC_": ((1, "c"), 2), "TC": ((1, "c"), 2)}
    wanted = {m[0] if isinstance(m, tuple) else m
              for _f, _l, m, _c, _x in extract_from_dir(str(root), method_map, options_map, keywords=keywords)}
    for game in load_games().values():  # each game's own words, from its package
        wanted |= {m[0] if isinstance(m, tuple) else m for _f, _l, m, _c, _x in extract_from_dir(
            str(game.table.folder), [("versions/**", "ignore"), ("**.py", "python")], keywords=keywords)}
    assert len(wanted) > 500
    missing = sorted(w for w in wanted if w not in catalogue or not catalogue[w].string)
    assert not missing, f"no Russian for {missing[:8]} (docs/translations.md)"


def _data_names() -> dict:
    """Every printed name the games' data can put in a sentence, per game (beyond what a playout happens to show)."""
    from domain.games.merchant_of_venus import data as mov
    from domain.games.origins.command_text import words
    from domain.games.origins.data import DATA as origins
    from domain.games.ti4_exploration.command_text import title
    from domain.games.ti4_exploration.data import RAW as ti4
    from domain.games.uchronia.data import COLOR_INFO, DESIGNS
    return {
        "uchronia": [d["name"] for d in DESIGNS.values()] + [c["order_name"] for c in COLOR_INFO.values()]
        + [c["order"] for c in COLOR_INFO.values()] + list(COLOR_INFO) + [f"colour:{c}" for c in COLOR_INFO],
        "merchant-of-venus": [c["name"] for c in mov.CULTURES.values()] + [s["name"] for s in mov.SYSTEMS.values()]
        + [mov.token_info(t)["name"] for t in mov.CARGO_TOKENS] + list(mov.SHIPS)
        + [f"drive:{d.split(':', 1)[1]}" for d in mov.EQUIPMENT if d.startswith("drive:")],
        "ti4-exploration": [str(title(x["id"])) for k in ("systems", "planets", "exploration_cards", "relics",
                                                          "technologies") for x in ti4[k]],
        "origins": [str(words(b["kind"])) for b in origins["buildings"]] + [str(words(t["tile"])) for t in
                                                                            origins["starting_tiles"]]
        + [str(words(s["id"])) for s in origins["sites"]] + list(origins["temples"])
        + [z["id"] for z in origins["zodiac_cards"]] + list(origins["colours"]),
    }


def test_every_printed_name_of_the_games_data_has_its_russian():
    for game, printed in _data_names().items():
        ru = own_names(importlib.import_module(GAME_PACKAGES[game]).GAME)
        missing = sorted({n for n in printed if n not in ru})
        assert not missing, f"{game}: no Russian in its text/names.ru.json for {missing[:12]}"
