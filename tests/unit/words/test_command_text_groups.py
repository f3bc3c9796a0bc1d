"""The action groups the match page builds from each game's describe_command words: every group title is a
meaningful phrase (never cut after an article, as "Visit the"), and the log counts its nouns right."""
from __future__ import annotations

import json
import random

import pytest

from domain.games import load_games
from domain.games.ti4_exploration.describe import describe as ti4_describe
from domain.games.uchronia.command_text import step_words
from domain.games.uchronia.describe import describe as uchronia_describe
from service.web.actions import action_groups
from service.web.boards import place_of
from tests.gamekit import apply_all, start

GAMES = load_games()
PLAYERS = ["u_4f1ab2", "u_9c0de7"]
NAMES = {"u_4f1ab2": "Ann", "u_9c0de7": "Bob"}
DANGLING = {"the", "a", "an", "your", "their", "its"}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_group_titles_never_end_on_an_article(game_id):
    game = GAMES[game_id]
    titles = set()
    for seed in range(2):
        chooser = random.Random(seed)
        state, _events, rng, _options = start(game, PLAYERS, seed=f"groups{seed}".encode())
        for _ in range(150):
            if game.result(state) is not None:
                break
            player = chooser.choice(sorted(game.active_players(state)))
            legal = game.legal_commands(state, player)
            view = game.view(state, player)
            acts = []
            for cmd in legal:
                where = place_of(game, view, cmd)
                acts.append({"json": json.dumps(cmd), "text": game.describe_command(state, cmd, NAMES.get),
                             "type": cmd["type"], "place": where[0] if where else None,
                             "field": where[1] if where else None, "payload": cmd.get("payload") or {}})
            titles |= {g["title"] for g in action_groups(acts)}
            state = apply_all(game, state, game.decide(state, player, chooser.choice(legal), rng))
    assert titles
    cut = sorted(t for t in titles if t.split(" ")[-1].lower() in DANGLING or t.endswith(":"))
    assert not cut, cut


def test_origins_visits_group_by_worker():
    origins = GAMES["origins"]
    state, _events, _rng, _options = start(origins, PLAYERS, seed=b"visit")
    player = sorted(origins.active_players(state))[0]
    texts = [origins.describe_command(state, c, NAMES.get) for c in origins.legal_commands(state, player)
             if c["type"] == "visit"]
    assert texts and all(t.startswith("Send ") and " to the\u00a0" in t for t in texts), texts


def test_counts_are_singular_for_one():
    name = NAMES.get
    assert "1 command token left" in ti4_describe(
        {"type": "system_activated", "data": {"player": PLAYERS[0], "system": "kaleth", "command_tokens_left": 1}},
        name)
    assert "3 command tokens left" in ti4_describe(
        {"type": "system_activated", "data": {"player": PLAYERS[0], "system": "kaleth", "command_tokens_left": 3}},
        name)
    assert ti4_describe({"type": "commodities_changed", "data": {"player": PLAYERS[0], "delta": 1}}, name) \
        == "Ann gained 1 commodity."
    assert ti4_describe({"type": "ships_moved", "data": {"player": PLAYERS[0], "ships": 1, "from": "a", "to": "b"}},
                        name).startswith("Ann moved 1 ship from")
    assert uchronia_describe({"type": "cards_drawn", "data": {"player": PLAYERS[0], "count": 1}}, name) \
        == "Ann drew 1 card."
    assert "(2 steps unused)" in uchronia_describe(
        {"type": "order_finished", "data": {"player": PLAYERS[0], "order": "trade", "unused": 2}}, name)


def test_uchronia_steps_read_as_plain_words():
    for step in ("setup_discard", "order_step", "choose_action", "give_card", "monopoly_bonus", "reveal", "raid"):
        assert "_" not in step_words(step) and step.replace("_", " ") != step_words(step)
    assert step_words("something_new") == "something new"


def test_a_command_with_many_choices_starts_with_its_groups_closed():
    """Merchant of Venus's opening: 4 exits x 8 ports is 32 buttons, shown as closed groups (tap a port on the
    board, or open one exit); a few groups of a few buttons stay open."""
    def acts(kind, groups, each):
        return [{"json": json.dumps([kind, g, i]), "text": f"Head out via E{g} for port{i}", "type": kind,
                 "place": f"square:p{i}", "field": "destination", "payload": {"to": f"E{g}", "destination": f"p{i}"}}
                for g in range(groups) for i in range(each)]
    crowded = action_groups(acts("declare_direction", 4, 8))
    assert len(crowded) == 4 and not any(g["open"] for g in crowded)
    assert [g["title"] for g in crowded] == [f"Head out via E{g}" for g in range(4)]
    roomy = action_groups(acts("visit", 3, 5) + acts("pass", 1, 1))
    assert all(g["open"] for g in roomy)


def test_origins_attack_says_what_it_brings():
    """The attack button names its reward from the player's war position, as the rules compute it."""
    origins = GAMES["origins"]
    state, _events, _rng, _options = start(origins, PLAYERS, seed=b"attack")
    from domain.games.origins.mains import attack_event
    pid = state["current"]
    reward = attack_event(state, pid, 0, "test")["data"]["reward"]
    text = origins.describe_command(state, {"type": "attack", "payload": {}}, NAMES.get)
    assert text.startswith("Attack: gain ") and all(f"{n} {r}" in text for r, n in reward.items() if n), text
