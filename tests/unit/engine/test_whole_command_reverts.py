"""Take-backs and accepted disputes revert whole commands, and never leave an active match with nobody to act."""
from __future__ import annotations

import random

from domain.engine import RuleViolation
from domain.engine import platform_events as pe
from domain.engine.liveness import stuck_reason
from domain.games.uchronia import GAME as UCHRONIA
from tests.gamekit import MatchSim


def play_random(sim, chooser, commands):
    """Send `commands` random legal commands; return the game events of each command, in order."""
    sent = []
    for _ in range(commands):
        if sim.match.finished:
            break
        player = chooser.choice(sorted(sim.match.active_players()))
        legal = UCHRONIA.legal_commands(sim.match.game_state, player)
        sent.append([e for e in sim.send(player, chooser.choice(legal)) if e["scope"] == pe.GAME])
    return sent


def test_accepting_a_dispute_on_the_middle_of_a_command_reverts_all_of_it():
    """The issue's reproduction: ~25 random Uchronia commands, dispute the middle of a multi-event
    command, accept: the whole command is reverted and someone may act again."""
    sim = MatchSim(UCHRONIA, players=("ann", "bob"))
    sent = play_random(sim, random.Random(3), 25)
    multi = [cmd for cmd in sent if len(cmd) >= 3]
    assert multi, "the playout has a command of three or more events"
    command = multi[len(multi) // 2]
    middle = command[len(command) // 2]["version"]
    by = next(p for p in sim.match.players if p != command[0]["actor"]) if command[0]["actor"] else "ann"
    did = sim.dispute(by, middle)
    assert stuck_reason(sim.match) is None
    sim.settle(did, accept=True)
    assert stuck_reason(sim.match) is None
    reverted = sim.match.envelopes[-1]
    assert reverted["type"] == pe.MOVES_REVERTED
    assert reverted["data"]["from_version"] == command[0]["version"]
    assert not {e["version"] for e in command} & set(sim.match.effective)


def multi_event_command(sim, chooser, size=2):
    """Play random commands until one appends at least `size` game events; return those events."""
    for _ in range(200):
        [command] = play_random(sim, chooser, 1)
        if len(command) >= size:
            return command
    raise AssertionError("no multi-event command in 200")


def test_first_version_walks_back_through_a_snapshot_loaded_match():
    """A match loaded from a snapshot finds the command's first event through its history reader."""
    from domain.engine.commands import first_version
    from projections.snapshots import from_json, to_json

    sim = MatchSim(UCHRONIA)
    command = multi_event_command(sim, random.Random(5), size=3)
    stored = list(sim.match.envelopes)
    loaded = from_json(to_json(sim.match), sim.games, history=lambda a, b: stored[a - 1:b])
    assert loaded.envelopes == []
    assert first_version(loaded, command[-1]["version"]) == command[0]["version"]
    assert first_version(sim.match, command[0]["version"]) == command[0]["version"]


def test_disputing_a_timeout_event_reverts_from_the_first_game_event_of_the_timeout():
    """The worker's timeout is one command (turn_timed_out and the game's events): a dispute on its last
    game event reverts all its game events and the player is to move again."""
    sim = MatchSim(UCHRONIA)
    play_random(sim, random.Random(1), 4)
    late = sim.match.active_players()[0]
    timed = [e for e in sim.timeout(late) if e["scope"] == pe.GAME]
    assert timed
    other = next(p for p in sim.match.players if p != late)
    sim.settle(sim.dispute(other, timed[-1]["version"]), accept=True)
    assert sim.match.envelopes[-1]["data"]["from_version"] == timed[0]["version"]
    assert late in sim.match.active_players() and stuck_reason(sim.match) is None


def test_takeback_of_a_multi_event_command_reverts_all_of_it():
    """A take-back reverts every game event of the player's last command."""
    sim = MatchSim(UCHRONIA)
    chooser = random.Random(11)
    for _ in range(300):
        command = multi_event_command(sim, chooser)
        try:
            [reverted] = sim.takeback(command[0]["actor"])
        except RuleViolation:  # most commands reveal something: try the next one
            continue
        assert reverted["data"]["reverted"] == [e["version"] for e in command]
        assert stuck_reason(sim.match) is None
        return
    raise AssertionError("no multi-event command could be taken back")
