"""Bots know a game only through its GAME: a game declaring no Bots is still played to the end, and each served
game's Bots describe its own seats."""
from __future__ import annotations

import itertools

import pytest
from marshmallow import Schema, fields, validate

from domain.bots import choose, information_set
from domain.bots.evaluation import advantage, reward
from domain.bots.mcts import EXPLORATION, exploration_for
from domain.engine import Game, HmacRng, RuleViolation, command, event
from domain.games import load_games
from tests.gamekit import apply_all, start

LEVELS = ("random", "greedy", "mcts")


class NimOptions(Schema):
    """How many stones the pile starts with."""

    stones = fields.Int(load_default=9, validate=validate.Range(min=1, max=30))


class Take(Schema):
    """The payload of `take`."""

    count = fields.Int(required=True, strict=True, validate=validate.Range(min=1, max=3))


def nim_initial_state(players, options):
    """The pile before anyone moves."""
    return {"players": list(players), "pile": options["stones"], "turn": 0, "winner": None}


def nim_decide(state, player, cmd, rng):
    """Take 1-3 stones, never more than are left, on your turn."""
    if state["winner"] is not None or player != state["players"][state["turn"]]:
        raise RuleViolation("nim.turn", "it is not your turn")
    count = cmd["payload"]["count"]
    if not 1 <= count <= min(3, state["pile"]):
        raise RuleViolation("nim.count", "take 1-3 stones, no more than are left")
    return [event("stones_taken", player=player, count=count)]


def nim_evolve(state, ev):
    """Apply one event: whoever takes the last stone wins."""
    state["pile"] -= ev["data"]["count"]
    if state["pile"] == 0:
        state["winner"] = ev["data"]["player"]
    else:
        state["turn"] = 1 - state["turn"]
    return state


def nim_legal(state, player):
    """Every count the player may take now."""
    if state["winner"] is not None or player != state["players"][state["turn"]]:
        return []
    return [command("take", count=n) for n in range(1, min(3, state["pile"]) + 1)]


def nim_active(state):
    """The player to move, nobody once the pile is empty."""
    return [] if state["winner"] is not None else [state["players"][state["turn"]]]


def nim_result(state):
    """The winner once the last stone is taken."""
    if state["winner"] is None:
        return None
    return {"winners": [state["winner"]], "scores": {p: int(p == state["winner"]) for p in state["players"]}}


NIM = Game(
    id="nim", title="Nim", min_players=2, max_players=2,
    options_schema=NimOptions(), command_schemas={"take": Take()},
    initial_state=nim_initial_state, setup=lambda players, options, rng: [],
    decide=nim_decide, evolve=nim_evolve, view=lambda state, viewer: dict(state), redact=lambda ev, viewer: ev,
    legal_commands=nim_legal, active_players=nim_active, result=nim_result,
    on_timeout=lambda state, player, rng: nim_decide(state, player, command("take", count=1), rng),
    describe=lambda ev, name: f"{name(ev['data']['player'])} took {ev['data']['count']}",
    describe_command=lambda state, cmd, name: f"Take {cmd['payload']['count']}",
)


def play(game, levels: dict, seed: int, budget: int = 200):
    """Play a match between bot levels ({seat: level}) through information sets; return the final state."""
    state, _events, rng, _options = start(game, list(levels), seed=str(seed).encode())
    for version in range(budget):
        if game.result(state) is not None:
            return state
        player = game.active_players(state)[0]
        cmd = choose(levels[player], information_set(game, state, player), seed=seed * 1000 + version, iterations=20)
        state = apply_all(game, state, game.decide(state, player, cmd, rng))
    raise AssertionError(f"no result after {budget} commands")


@pytest.mark.parametrize("first,second", list(itertools.product(LEVELS, repeat=2)))
def test_a_game_without_bots_is_played_to_the_end(first, second):
    """random, greedy and MCTS finish a game that declares no Bots (reward from its result alone)."""
    assert NIM.bots is None
    for seed in range(3):
        state = play(NIM, {"a": first, "b": second}, seed)
        assert state["pile"] == 0 and NIM.result(state)["winners"] == [state["winner"]]


@pytest.mark.parametrize("level", ["greedy", "mcts"])
def test_a_game_without_bots_is_won_when_its_result_is_in_reach(level):
    """With three stones left, the searching bots take them all: the result alone tells them it wins."""
    state, _events, _rng, _options = start(NIM, ["a", "b"], options={"stones": 3})
    info = information_set(NIM, state, "a")
    assert choose(level, info, seed=1, iterations=20) == command("take", count=3)


def test_a_game_without_bots_is_valued_by_its_result():
    """Unfinished: level (0.5, no advantage); finished: 1 for the winner, 0 for the loser; default exploration."""
    state, _events, rng, _options = start(NIM, ["a", "b"], options={"stones": 2})
    assert reward(NIM, state, "a") == reward(NIM, state, "b") == 0.5 and advantage(NIM, state, "a") == 0.0
    state = apply_all(NIM, state, NIM.decide(state, "a", command("take", count=2), rng))
    assert (reward(NIM, state, "a"), reward(NIM, state, "b")) == (1.0, 0.0)
    assert exploration_for(NIM) == EXPLORATION


def test_a_game_without_bots_is_sampled_as_it_is():
    """No hidden parts are re-drawn for a game that declares no Bots: the sample is the state itself."""
    state, _events, _rng, _options = start(NIM, ["a", "b"])
    assert information_set(NIM, state, "a").sample(HmacRng(b"s", "m")) == state


@pytest.mark.parametrize("game", list(load_games().values()), ids=lambda g: g.id)
def test_each_served_game_declares_bots_over_its_seats(game):
    """A served game's Bots score exactly the match's players, each with a number, and set a positive scale."""
    players = ["a", "b", "c"][:game.max_players]
    state, _events, _rng, _options = start(game, players)
    assert game.bots is not None and game.bots.scale > 0
    assert sorted(game.bots.seats(state)) == sorted(players)
    assert all(isinstance(game.bots.score(state, p), (int, float)) for p in players)
