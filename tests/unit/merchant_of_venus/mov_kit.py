"""Helpers for the Merchant of Venus tests: build a given state, send commands, inspect events."""
from __future__ import annotations

import copy

from domain.engine import RuleViolation, ScriptedRng, command
from domain.games.merchant_of_venus import GAME
from domain.games.merchant_of_venus import data

PLACEMENT = {"cw": "humans", "jw": "nillis", "gp": "graw", "tr": "volois", "es": "whynom", "im": "eeepeeep",
             "tm": "cholos"}


def fold(state, events):
    """A deep copy of `state` with `events` applied."""
    st = copy.deepcopy(state)
    for ev in copy.deepcopy(events):
        st = GAME.evolve(st, ev)
    return st


def given(players=("p1", "p2"), active="p1", *, races=None, placement=None, revealed=(), phase="declare",
          pl=None, turn=None, options=None, ious=None):
    """A running state at `active`'s turn; `revealed` lists systems already discovered (with deeds placed)."""
    players = list(players)
    place = dict(PLACEMENT, **(placement or {}))
    opts = GAME.options_schema.load({"fixed_cultures": place,
                                     "races": list(races or data.RACES[:len(players)]), **(options or {})})
    st = GAME.initial_state(players, opts)
    st = fold(st, GAME.setup(players, opts, ScriptedRng(ints=[0])))
    for sid in revealed:
        st["revealed"][sid] = place[sid]
        st["spaceport_deeds"] += list(data.SYSTEMS[sid]["orbitals"])
    st["active"] = active
    st["phase"] = phase
    for pid, fields in (pl or {}).items():
        st["pl"][pid].update(copy.deepcopy(fields))
    st["turn"].update(turn or {})
    return st


def send(state, pid, type_, rng=None, **payload):
    """Decide and fold one command; return (new state, events)."""
    before = copy.deepcopy(state)
    events = GAME.decide(state, pid, command(type_, **payload), rng or ScriptedRng())
    assert state == before, "decide mutated the state"
    return fold(state, events), events


def rejected(state, pid, type_, **payload) -> str:
    """The rule id a command is rejected with (fails if it is accepted)."""
    try:
        GAME.decide(state, pid, command(type_, **payload), ScriptedRng())
    except RuleViolation as exc:
        return exc.rule_id
    raise AssertionError(f"{type_} {payload} was accepted")


def first(events, type_):
    """The data of the first event of a type."""
    return next(e["data"] for e in events if e["type"] == type_)


def all_of(events, type_):
    """The data of every event of a type."""
    return [e["data"] for e in events if e["type"] == type_]


def types(events):
    """The event types, in order."""
    return [e["type"] for e in events]


def roll(*dice):
    """A scripted rng yielding these die values."""
    return ScriptedRng(ints=list(dice))


def legal_types(state, pid):
    """The set of legal command types."""
    return {c["type"] for c in GAME.legal_commands(state, pid)}


def moving(square, *, player="p1", dice=(3, 3, 3), nav=None, steps=1, prev=None, to=None, destination="gb",
           use_drive=False, mp=None, **kwargs):
    """A state in the Move step with the ship on `square` (other given() arguments pass through)."""
    pl = kwargs.pop("pl", {})
    pl.setdefault(player, {})["square"] = square
    turn = {"dice": list(dice), "movement_value": sum(dice), "mp": sum(dice) if mp is None else mp,
            "nav_die": None if nav is None else 0, "nav_value": nav, "steps": steps, "prev": prev,
            "to": to, "destination": destination, "use_drive": use_drive}
    return given(active=player, phase="move", pl=pl, turn=turn, **kwargs)
