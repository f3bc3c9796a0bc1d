"""The greedy bot's advice (what "Suggest a move" shows) is the command the greedy bot sends, with the values it was
chosen by: the seat's value before, and the best value any command reaches."""
from __future__ import annotations

import pytest

from domain.bots import choose, information_set
from domain.bots.greedy import advise, rank
from domain.bots.information import SimRng
from tests.unit.bots.positions import GAMES, positions


@pytest.mark.parametrize("game_id", list(GAMES))
def test_advice_is_the_greedy_choice_and_its_values(game_id):
    game = GAMES[game_id]
    weighed = 0
    for n, (state, player) in enumerate(positions(game)):
        info = information_set(game, state, player)
        advice = advise(info, seed=n)
        assert advice.command == choose("greedy", info, seed=n)
        if len(info.legal) == 1:
            assert advice.now is None and advice.after is None
            continue
        weighed += 1
        ranked = rank(info, SimRng(n))
        assert advice.after == ranked[0][0] and all(value <= advice.after for value, _c in ranked)
        assert advice.now[0] == 0 and isinstance(advice.now[1], float | int)
    assert weighed, "some position had a choice to weigh"
