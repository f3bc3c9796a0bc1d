"""Helpers for the Origins tests: a fresh running state, 'given' edits, sending commands, folding events."""
from __future__ import annotations

import copy

from domain.engine import RuleViolation, ScriptedRng
from domain.games.origins import GAME
from domain.games.origins.data import TILE_IDS
from domain.games.origins.evolve import city_entry

P1, P2 = "p1", "p2"


def fold(state, events):
    """Evolve a copy of `state` through `events`."""
    state = copy.deepcopy(state)
    for ev in copy.deepcopy(events):
        state = GAME.evolve(state, ev)
    return state


def fresh(players=(P1, P2), max_rounds=6):
    """A running state after a scripted setup: p1 first; tokens observatory=bt_temple, workshop=bt_build,
    forum=bt_war, war_camp=bt_orator, fields=bt_resource; row dice all blue 1; cards dc1-dc3;
    market academy-1, academy-2, aqueduct-1, armory-1; p1 holds d8 blue 2, d9 orange 2."""
    players = list(players)
    options = GAME.options_schema.load({"max_rounds": max_rounds})
    state = GAME.initial_state(players, options)
    return fold(state, GAME.setup(players, options, ScriptedRng()))


def put(state, pid, cell, tile, farm=False):
    """Place a tile in a player's city without any rule (a 'given')."""
    state["players"][pid]["city"][cell] = city_entry(tile, farm)


def set_market(state, tiles):
    """Set the face-up market; the stack becomes every tile not in the market or any city."""
    state["market"] = list(tiles)
    placed = {e["tile"] for p in state["players"].values() for e in p["city"].values()}
    state["stack"] = sorted(t for t in TILE_IDS if t not in tiles and t not in placed)


def die(die_id, colour, value, used=False):
    """A citizen die record for a player's stands."""
    return {"id": die_id, "colour": colour, "value": value, "used": used}


def given(players=(P1, P2), *, resources=None, dice=None, war=None, temples=None, sites=None, **extra):
    """A fresh state edited by player resources/dice/war/temples and site {id: {dial, token}} values."""
    state = fresh(players)
    for pid, res in (resources or {}).items():
        state["players"][pid]["resources"].update(res)
    for pid, ds in (dice or {}).items():
        state["players"][pid]["dice"] = [dict(d) for d in ds]
    for pid, w in (war or {}).items():
        state["players"][pid]["war"] = w
    for pid, t in (temples or {}).items():
        state["players"][pid]["temples"].update(t)
    for sid, values in (sites or {}).items():
        state["sites"][sid].update(values)
    state.update(extra)
    return state


def send(state, pid, ctype, rng=None, **payload):
    """The events of one command (decide), with a default scripted rng."""
    return GAME.decide(state, pid, {"type": ctype, "payload": payload}, rng or ScriptedRng())


def play(state, pid, ctype, rng=None, **payload):
    """(state after, events) of one accepted command; checks that decide left `state` untouched."""
    before = copy.deepcopy(state)
    events = send(state, pid, ctype, rng, **payload)
    assert state == before, "decide mutated the state"
    return fold(state, events), events


def rejected(state, pid, ctype, **payload):
    """The rule id a command is rejected with (fails if it is accepted)."""
    try:
        send(state, pid, ctype, **payload)
    except RuleViolation as exc:
        assert exc.message and exc.message[0].isupper(), exc.message
        return exc.rule_id
    raise AssertionError(f"{ctype} {payload} was accepted")


def types(events):
    """The event types in order."""
    return [e["type"] for e in events]


def of(events, etype):
    """The data of the only event of that type."""
    found = [e["data"] for e in events if e["type"] == etype]
    assert len(found) == 1, (etype, types(events))
    return found[0]


def seed_city(state, pid=P1):
    """The seed adjacency figure's city (S1): watchtower-1 C4, theatre-1 B4, mill-1 B5 besides Palace/Agora."""
    put(state, pid, "C4", "watchtower-1")
    put(state, pid, "B4", "theatre-1")
    put(state, pid, "B5", "mill-1")
    return state


def legal_of(state, pid, ctype):
    """The payloads of the listed legal commands of one type."""
    return [c["payload"] for c in GAME.legal_commands(state, pid) if c["type"] == ctype]
