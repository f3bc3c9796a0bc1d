"""One answer, one byte string: a match folded live, command by command as the service folds it, and the same
match folded fresh from storage (another process, a restart) give byte-identical state, legal, summary and move
log answers for every game, though their dicts were built in different orders."""
from __future__ import annotations

import random

import pytest

from domain.engine.text import in_order
from domain.games import load_games
from service.app import invitations
from service.app.matches import MatchService
from service.app.move_log import describe
from service.app.state_views import response_body, state_document
from service.store.memory import InMemoryEventStore
from service.web.api.matches import summary

GAMES = load_games()
PLAYERS = ["ann", "bob"]
BUDGET = 300  # commands per match at most
SEED = 1  # before sorted keys and ordered lists, every game answered other bytes after a fresh fold


def answers(service: MatchService, match_id: str) -> dict:
    """Every answer about the match, as the bytes (or move-log sentences) a client gets."""
    out = {}

    def seen(match):
        for viewer in [*PLAYERS, None]:
            out[f"state {viewer}"] = response_body(state_document(match, viewer))
        out["summary"] = response_body(summary(match))
        spectator = match.viewer_for(None)
        out["log"] = [str(describe(match.game, match.redact(e, spectator), str)) for e in match.envelopes_since(1)]

    service.read(match_id, seen)
    for player in PLAYERS:
        version, commands = service.legal(player, match_id)
        out[f"legal {player}"] = response_body({"version": version, "commands": commands})
    return out


def differences(live: dict, fresh: dict) -> dict:
    """{answer: (live, fresh)} where the two differ (the first differing sentence for the move log)."""
    found = {}
    for key, value in live.items():
        if key == "log":
            value, other = next(((a, b) for a, b in zip(value, fresh[key]) if a != b), (None, None))
            if value is None and len(live[key]) == len(fresh[key]):
                continue
        else:
            other = fresh[key]
        if value != other:
            found[key] = (value, other)
    return found


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_match_folded_live_and_fresh_answers_the_same_bytes(game_id):
    """After every command the live service and a fresh one over the same store agree byte for byte."""
    store = InMemoryEventStore(partitions=2)
    live = MatchService(store, GAMES)
    game = GAMES[game_id]
    match_id = invitations.accept_for_all(live, live.create(PLAYERS[0], game_id, game.options_schema.load({}),
                                                            players=list(PLAYERS))).id
    chooser = random.Random(SEED)
    assert not differences(answers(live, match_id), answers(MatchService(store, GAMES), match_id))
    for step in range(BUDGET):
        status, active = live.read(match_id, lambda m: (m.status, m.active_players()))
        if status != "active":
            break
        player = chooser.choice(sorted(active))
        command = chooser.choice(live.legal(player, match_id)[1])
        live.submit(player, match_id, command["type"], command["payload"])
        found = differences(answers(live, match_id), answers(MatchService(store, GAMES), match_id))
        assert not found, f"after command {step + 1} ({command['type']}): {found}"


def test_in_order_lists_the_named_keys_first_then_the_others_sorted():
    """The canonical order of a worded list: `first`'s order, then sorted keys; never the insertion order."""
    assert in_order({"food": 1, "gold": 2, "stone": 3, "alpha": 4}, ("stone", "food", "wisdom")) == \
        [("stone", 3), ("food", 1), ("alpha", 4), ("gold", 2)]
    assert in_order({"bob": 1, "ann": 2}) == in_order({"ann": 2, "bob": 1}) == [("ann", 2), ("bob", 1)]
    assert in_order(None) == []


def test_an_answer_orjson_refuses_has_its_keys_sorted_too():
    """An integer beyond 64 bits goes through the json module: keys of any type written and sorted the same way."""
    body = response_body({"b": 2 ** 70, 1: None, "a": {"z": 1, "y": [{"d": 0, "c": 1}]}})
    assert body == b'{"1":null,"a":{"y":[{"c":1,"d":0}],"z":1},"b":1180591620717411303424}\n'
