"""A dice race in four rules versions for the rules-upgrade tests: 2026.11 (OLD), 2027.01 (NEW: sixes count double,
no notes), 2027.02 (BROKEN: cannot read old notes), 2027.03 (SHORT: a race to 1); a race created under one and a
command judged by the match's own rules."""
from __future__ import annotations

import dataclasses

from domain.engine import RuleViolation
from domain.engine import aggregate as agg
from domain.games import dice_race
from domain.games.dice_race import GAME as RACE
from tests.gamekit import MatchSim


def sixes_count_double(state, ev):
    """2027.01: a rolled 6 scores 12."""
    if ev["type"] == "die_rolled" and ev["data"]["value"] == 6:
        ev = {"type": "die_rolled", "data": dict(ev["data"], value=12)}
    return dice_race.evolve(state, ev)


def no_notes(state, player, cmd, rng):
    """2027.01: notes are no longer allowed."""
    if cmd["type"] == "note":
        raise RuleViolation("race.no-notes", "notes are not part of the 2027.01 rules")
    return dice_race.decide(state, player, cmd, rng)


def notes_break(state, ev):
    """2027.02: a rewrite whose evolve cannot read the notes stored before it."""
    if ev["type"] == "noted":
        raise KeyError("mood")
    return dice_race.evolve(state, ev)


def short_race(players, options):
    """2027.03: the race is to 1 whatever the options say (any roll wins)."""
    return dict(dice_race.initial_state(players, options), target=1)


VERSIONS: dict = {}
NAMES = ("2026.11", "2027.01", "2027.02", "2027.03")
OLD = dataclasses.replace(RACE, rules_version="2026.11", rules_versions=NAMES, at_version=lambda v: VERSIONS[v])
NEW = dataclasses.replace(OLD, rules_version="2027.01", evolve=sixes_count_double, decide=no_notes)
BROKEN = dataclasses.replace(OLD, rules_version="2027.02", evolve=notes_break)
SHORT = dataclasses.replace(OLD, rules_version="2027.03", initial_state=short_race)
VERSIONS.update(zip(NAMES, (OLD, NEW, BROKEN, SHORT)))


def race(players=("ann", "bob"), target=50, game=OLD) -> MatchSim:
    """A running dice race created under `game`'s version (2026.11 by default)."""
    return MatchSim(game, players=players, options={"target": target})


def play(sim: MatchSim, actor: str, type_: str, **payload) -> list:
    """A game command judged by the match's own rules (whatever version it is at now)."""
    def decide(m, rng):
        agg.check_can_play(m, actor)
        return agg.game_events(m.game, m.game_state, actor, {"type": type_, "payload": payload}, rng)
    sim.game = sim.match.game  # MatchSim's finish check uses the match's rules too
    return sim.run(actor, decide)
