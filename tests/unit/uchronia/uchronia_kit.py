"""Helpers for the Uchronia tests: build a given state, send commands, fold events."""
from __future__ import annotations

import copy

from domain.engine import RuleViolation, ScriptedRng
from domain.games.uchronia import GAME
from domain.games.uchronia.state import initial_state

FILLER_PILE = ["yellow", "grey", "red", "blue", "brown"] * 8


def given(players=("karl", "cedric"), current="karl", *, hands=None, stock=None, operations=None,
          residence=None, under_construction=None, completed=None, monopolies=None, forum=None,
          great_works=None, building_deck=None, draw_pile=None, round_no=1, vp_target=12, max_rounds=30):
    """A running state at `current`'s choose_action; every zone not named is empty."""
    players = list(players)
    st = initial_state(players, {"vp_target": vp_target, "max_rounds": max_rounds})
    st.update(phase="turn", current=current, step="choose_action", round=round_no, first_player=players[0])
    for zone, values in (("hands", hands), ("stock", stock), ("operations", operations)):
        for p, counts in (values or {}).items():
            st[zone][p].update(counts)
    for p, (colors, order) in (residence or {}).items():
        st["residence"][p] = {"colors": list(colors), "order": order}
    for p, sites in (under_construction or {}).items():
        st["under_construction"][p] = dict(sites)
    for p, done in (completed or {}).items():
        st["completed"][p] = list(done)
    st["monopolies"].update(monopolies or {})
    st["forum"].update(forum or {})
    st["great_works"] = list(great_works or [])
    st["building_deck"] = list(building_deck or [])
    st["draw_pile"] = list(FILLER_PILE if draw_pile is None else draw_pile)
    return st


def fold(state, events):
    """A deep copy of `state` with `events` applied."""
    st = copy.deepcopy(state)
    for ev in copy.deepcopy(events):
        st = GAME.evolve(st, ev)
    return st


def send(state, player, type_, rng=None, **payload):
    """Decide a command and return (new state, events); the given state is left untouched."""
    before = copy.deepcopy(state)
    events = GAME.decide(state, player, {"type": type_, "payload": payload}, rng or ScriptedRng(strict=True))
    assert state == before, "decide mutated the state"
    return fold(state, events), events


def rejected(state, player, type_, **payload) -> str:
    """The rule id a command is rejected with (fails the test if it is accepted)."""
    try:
        GAME.decide(state, player, {"type": type_, "payload": payload}, ScriptedRng(strict=True))
    except RuleViolation as err:
        assert err.message and err.message[0].isupper(), "messages are English sentences"
        return err.rule_id
    raise AssertionError(f"{type_} {payload} was accepted")


def types(events):
    """The event types, in order."""
    return [e["type"] for e in events]


def first(events, type_):
    """The data of the first event of that type."""
    return next(e["data"] for e in events if e["type"] == type_)


def nonzero(counts):
    """A colour -> count map without its zero entries."""
    return {c: n for c, n in counts.items() if n}
