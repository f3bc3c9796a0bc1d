"""Given/when/then helpers for ti4-exploration tests: fresh states, sending commands, scripted draws."""
from __future__ import annotations

import copy

import pytest

from domain.engine import RuleViolation, ScriptedRng
from domain.games.ti4_exploration import GAME

P1, P2, P3, P4 = "p1", "p2", "p3", "p4"


def fresh(n: int = 2, rounds: int = 4) -> dict:
    """The state right after setup for n players p1..pn."""
    players = [P1, P2, P3, P4][:n]
    options = GAME.options_schema.load({"rounds": rounds})
    state = GAME.initial_state(players, options)
    for ev in GAME.setup(players, options, ScriptedRng(strict=True)):
        state = GAME.evolve(state, ev)
    return state


def place(state: dict, player: str, system: str, ships: int = 0, forces: int = 0) -> dict:
    """Set a player's ships and space ground forces in a system (0 removes them)."""
    s = state["systems"][system]
    for key, n in (("ships", ships), ("space_ground_forces", forces)):
        if n:
            s[key][player] = n
        else:
            s[key].pop(player, None)
    return state


def control(state: dict, player, planet: str, forces: int = 0, exhausted: bool = False, attachments=()) -> dict:
    """Set a planet's controller, the controller's ground forces there, exhaustion and attachments."""
    p = state["planets"][planet]
    p["controller"] = player
    p["exhausted"] = exhausted
    p["ground_forces"] = {player: forces} if (player and forces) else {}
    p["attachments"] = list(attachments)
    return state


def reveal(state: dict, player: str, card: str, planet=None, system=None, source="control") -> dict:
    """Put a revealed exploration card in front of `player` (removed from its draw pile)."""
    from domain.games.ti4_exploration.data import card_type
    deck = card_type(card)["deck"]
    state["decks"][deck]["draw"].remove(card)
    system = system or state["planets"][planet]["system"]
    state["exploration"] = {"player": player, "source": source, "planet": planet, "system": system,
                            "decks": [deck], "stage": "revealed", "deck": deck, "card": card}
    return state


def draw_index(state: dict, deck: str, card: str) -> int:
    """The scripted randint value that draws `card` from `deck` now."""
    return state["decks"][deck]["draw"].index(card)


def relic_index(state: dict, relic: str) -> int:
    """The scripted randint value that draws `relic` from the relic deck now."""
    return state["relic_deck"].index(relic)


def send(state: dict, player: str, type_: str, rng=None, **payload):
    """Decide and fold a command; return (new state, its events)."""
    before = copy.deepcopy(state)
    events = GAME.decide(state, player, {"type": type_, "payload": payload}, rng or ScriptedRng())
    assert state == before, "decide must not mutate the state"
    state = before
    for ev in copy.deepcopy(events):
        state = GAME.evolve(state, ev)
    return state, events


def reject(state: dict, player: str, type_: str, rule_id: str, **payload) -> RuleViolation:
    """Assert the command is rejected citing `rule_id`; return the violation."""
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, player, {"type": type_, "payload": payload}, ScriptedRng())
    assert info.value.rule_id == rule_id, info.value
    assert info.value.message
    return info.value


def types(events: list) -> list:
    """The event types in order."""
    return [e["type"] for e in events]


def first(events: list, type_: str) -> dict:
    """The data of the first event of a type."""
    for e in events:
        if e["type"] == type_:
            return e["data"]
    raise AssertionError(f"no {type_} in {types(events)}")


def legal_types(state: dict, player: str) -> set:
    """The command types legal for a player now."""
    return {c["type"] for c in GAME.legal_commands(state, player)}


def scripted(*ints) -> ScriptedRng:
    """A strict scripted RNG yielding exactly these draws."""
    return ScriptedRng(ints=list(ints), strict=True)
