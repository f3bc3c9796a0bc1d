"""Every game's describe_command: each legal command of random playouts reads as words, names not ids."""
from __future__ import annotations

import random
import re

import pytest

from domain.games import load_games
from tests.gamekit import apply_all, start

GAMES = load_games()
PLAYERS = ["u_4f1ab2", "u_9c0de7", "u_77aa01"]
NAMES = {"u_4f1ab2": "Ann", "u_9c0de7": "Bob", "u_77aa01": "Cleo"}
# an internal id: a snake_case or dotted token, a raw boolean, a user id, or a payload key left as is
INTERNAL = re.compile(r"\b\w+_\w+\b|\b(true|false|none|null)\b|\b\w+\.\w+\b|[{}\[\]\"]", re.I)
PAYLOAD_KEYS = {"building_id", "copy_from", "use_drive", "use_iou", "as_farm"}


def _playout_states(game, seed: int, steps: int, players: int):
    """States along a random playout (up to `steps` commands), with the active player of each."""
    chooser = random.Random(seed)
    state, _events, rng, _options = start(game, PLAYERS[:players], seed=f"words{seed}".encode())
    for _ in range(steps):
        if game.result(state) is not None:
            return
        player = chooser.choice(sorted(game.active_players(state)))
        legal = game.legal_commands(state, player)
        yield state, player, legal
        state = apply_all(game, state, game.decide(state, player, chooser.choice(legal), rng))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_legal_command_reads_as_distinct_words(game_id):
    """Non-empty, no internal id token, and distinct between the distinct commands of one state."""
    game = GAMES[game_id]
    players = min(3, game.max_players)
    checked = 0
    for seed in range(3):
        for state, _player, legal in _playout_states(game, seed, 250, players):
            texts = {}
            for cmd in legal:
                text = game.describe_command(state, cmd, NAMES.get)
                assert text and text.strip() == text, (cmd, text)
                bad = INTERNAL.search(text)
                assert bad is None, f"{cmd} -> {text!r} holds {bad.group(0)!r}"
                assert not any(k.replace("_", " ") in text for k in PAYLOAD_KEYS), (cmd, text)
                assert not any(p in text for p in PLAYERS), (cmd, text)
                texts.setdefault(text, set()).add(repr(cmd))
            dupes = {t: k for t, k in texts.items() if len(k) > 1}
            assert not dupes, dupes
            checked += len(legal)
    assert checked > 100


LOG_INTERNAL = re.compile(r"\b\w+_\w+\b|\b(true|false|null)\b|\b[a-z]+\.[a-z]+\d*\b|#\d")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_move_log_sentences_name_things_not_ids(game_id):
    """The move log (describe) uses the same names as the buttons: no snake_case, dotted or #n ids."""
    game = GAMES[game_id]
    chooser = random.Random(7)
    state, events, rng, _options = start(game, PLAYERS[:2], seed=b"log")
    events = list(events)
    for _ in range(300):
        if game.result(state) is not None:
            break
        player = chooser.choice(sorted(game.active_players(state)))
        new = game.decide(state, player, chooser.choice(game.legal_commands(state, player)), rng)
        events += new
        state = apply_all(game, state, new)
    for ev in events:
        for viewer in PLAYERS[:2]:
            shown = game.redact(ev, viewer)
            if shown is None:
                continue
            text = game.describe(shown, NAMES.get)
            bad = LOG_INTERNAL.search(text)
            assert bad is None, f"{ev['type']} -> {text!r} holds {bad.group(0)!r}"
            assert not any(p in text for p in PLAYERS), text
