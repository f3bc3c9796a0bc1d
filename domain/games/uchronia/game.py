"""Assembles the Uchronia GAME object from the rule modules."""
from __future__ import annotations

from .commands import decide as _decide
from .data import DATA
from .describe import describe as _describe
from .evolve import evolve as _evolve
from .legal import legal_commands as _legal
from .schemas import COMMAND_SCHEMAS, OPTIONS_SCHEMA
from .setup import resolve_options, setup as _setup
from .state import initial_state as _initial_state
from .steps import decision
from .views import redact as _redact, view as _view

_NEUTRAL = ({"type": "end_order", "payload": {}}, {"type": "plot", "payload": {"copy_from": None}},
            {"type": "monopoly_bonus", "payload": {"take": False}})


class Uchronia:
    """The Uchronia rules module (see the package docstring for interpretations)."""

    id = "uchronia"
    title = "Uchronia"
    min_players = DATA["min_players"]
    max_players = DATA["max_players"]
    options_schema = OPTIONS_SCHEMA
    command_schemas = COMMAND_SCHEMAS
    revealing_events = frozenset({"decks_shuffled", "great_works_revealed", "great_works_refilled",
                                  "cards_dealt", "cards_drawn", "cards_revealed", "card_given", "demand_unmet"})

    def initial_state(self, players, options):
        """The empty state before the setup events."""
        return _initial_state(players, resolve_options(players, options))

    def setup(self, players, options, rng):
        """The opening events."""
        return _setup(players, options, rng)

    def decide(self, state, player, command, rng):
        """Validate a command and return its events (RuleViolation on a broken rule)."""
        return _decide(state, player, command, rng)

    def evolve(self, state, event):
        """Apply one event."""
        return _evolve(state, event)

    def view(self, state, viewer):
        """The state as the viewer may see it."""
        return _view(state, viewer)

    def redact(self, event, viewer):
        """The event as the viewer may see it."""
        return _redact(event, viewer)

    def legal_commands(self, state, player):
        """Every command the player may send now."""
        return _legal(state, player)

    def active_players(self, state):
        """Who must act now."""
        return decision(state)[1]

    def result(self, state):
        """None while running; winners, VP scores and details once finished."""
        done = state.get("finished")
        if not done:
            return None
        return {"winners": list(done["winners"]), "scores": {p: s["vp"] for p, s in done["scores"].items()},
                "details": done["scores"], "reason": done["reason"]}

    def on_timeout(self, state, player, rng):
        """The neutral default for a passed deadline: end the order, plot, decline, else the first choice."""
        legal = _legal(state, player)
        if not legal:
            return []
        choice = next((c for c in _NEUTRAL if c in legal), legal[0])
        return _decide(state, player, choice, rng)

    def describe(self, event, name):
        """One readable sentence for the move log."""
        return _describe(event, name)


GAME = Uchronia()
