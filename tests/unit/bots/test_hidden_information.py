"""Bots decide from their seat's information set only: swapping what the seat cannot see changes nothing."""
from __future__ import annotations

import pytest

from domain.bots import choose, information_set
from domain.bots.information import SimRng
from tests.unit.bots.positions import GAMES, positions


def _game(game_id):
    return GAMES[game_id]


def swapped(game, state, player, seed):
    """The state with every part `player` cannot see drawn anew (the view must stay the same)."""
    other = game.bots.resample(state, player, SimRng(seed))
    assert game.view(other, player) == game.view(state, player)
    return other


@pytest.mark.parametrize("game_id", list(GAMES))
def test_determinizations_keep_the_view(game_id):
    """Every determinization a bot samples shows its seat exactly the view it was given."""
    game = _game(game_id)
    for state, player in positions(game):
        info = information_set(game, state, player)
        for seed in range(3):
            assert game.view(info.sample(SimRng(seed)), player) == info.view


@pytest.mark.parametrize("game_id", list(GAMES))
def test_swapping_hidden_parts_changes_no_choice(game_id):
    """random, greedy and MCTS (fixed seed and iterations) send the same command whatever the hidden
    parts are, as long as the seat's view is the same; and the swaps really change hidden parts."""
    game = _game(game_id)
    changed = 0
    for n, (state, player) in enumerate(positions(game)):
        for swap_seed in (101, 202):
            other = swapped(game, state, player, swap_seed + n)
            changed += other != state
            for level in ("random", "greedy", "mcts"):
                a = choose(level, information_set(game, state, player), seed=n, iterations=25)
                b = choose(level, information_set(game, other, player), seed=n, iterations=25)
                assert a == b, f"{level} chose {a} but {b} once hidden parts were swapped"
    if game_id != "ti4-exploration":  # its only secret is the draw piles' order, which draws at random anyway
        assert changed, "no swap changed any hidden part: the test would prove nothing"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_choices_are_legal_and_reproducible(game_id):
    """Each level sends one of the seat's legal commands, and the same one again for the same seed."""
    game = _game(game_id)
    for n, (state, player) in enumerate(positions(game)):
        info = information_set(game, state, player)
        for level in ("random", "greedy", "mcts"):
            command = choose(level, info, seed=n, iterations=20)
            assert command in info.legal
            assert choose(level, info, seed=n, iterations=20) == command


def test_bots_make_no_offers_that_hold_a_player_up():
    """TI4 declares propose_transaction an offer: no bot level sends one while anything else is legal, so a
    human is never stopped turn after turn to answer a bot's trade (a bot still answers offers it gets)."""
    game = _game("ti4-exploration")
    offered = 0
    for seed in range(4):
        for n, (state, player) in enumerate(positions(game, seed=seed)):
            legal = game.legal_commands(state, player)
            info = information_set(game, state, player)
            offered += any(c["type"] == "propose_transaction" for c in legal)
            assert all(c["type"] != "propose_transaction" for c in info.legal) or \
                {c["type"] for c in legal} == {"propose_transaction"}
            for level in ("random", "greedy"):
                assert choose(level, info, seed=n)["type"] != "propose_transaction"
    assert offered, "some positions allowed an offer"
