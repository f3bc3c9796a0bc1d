"""Assembles the Origins: First Builders game module object `GAME`.

Interpretations beyond the spec (see also /work/shared/rules/origins.md §10):
- The data file is `origins.json` (the spec names it `data.json`); same tables, same keys.
- Command budget: the spec gives no hard budget, only an estimate (200-350 commands for 2 players);
  random legal playouts use the platform's budget of 3000 commands, far above what any playout needs.
- Market refill and zodiac draws are uniform over the sorted remaining ids (`rng.choice`).
- Die ids are `d<n>` in creation order; the counter lives in the state (`next_die`).
- Attack gold comes from the general supply, not from district cards (it does not affect `end.trigger`).
- `effect_applied.gains` records the gains actually received (after the track caps of `effect.track-top`).
- `district_closed` also carries `die_colour` for the move log.
- A command for an unknown site cites `visit.main-possible`; an unknown temple cites `temple.advance-two`
  (main) or `bonus.temple` (bonus); a build payload with a `rotation` field cites `placement.no-rotation`.
- Result scores are totals; `result["breakdown"]` holds {total, vp, gold, temples, districts, zodiac}.
"""
from __future__ import annotations

from .data import DATA
from .command_text import describe_command as _describe_command
from .describe import describe as _describe
from .evolve import evolve as _evolve
from .schemas import COMMAND_SCHEMAS, OPTIONS_SCHEMA
from .setup import initial_state as _initial_state, setup as _setup
from .turns import active_players as _active, decide as _decide, legal_commands as _legal, on_timeout as _timeout
from .views import redact as _redact, view as _view


class OriginsGame:
    """The `origins` game module (see domain/engine/contract.py for the contract)."""

    id = "origins"
    title = "Origins: First Builders"
    min_players = DATA["players"]["min"]
    max_players = DATA["players"]["max"]
    options_schema = OPTIONS_SCHEMA
    command_schemas = COMMAND_SCHEMAS
    revealing_events = frozenset({"zodiac_card_taken", "citizen_die_taken", "market_refilled",
                                  "round_started", "game_ended"})

    def initial_state(self, players, options):
        """The empty state before setup's events."""
        return _initial_state(players, options)

    def setup(self, players, options, rng):
        """The opening events."""
        return _setup(players, options, rng)

    def decide(self, state, player, command, rng):
        """Validate a command and return its events."""
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
        """Every concrete command the player may send now."""
        return _legal(state, player)

    def active_players(self, state):
        """Who must act now."""
        return _active(state)

    def result(self, state):
        """None while running, then winners and scores."""
        return state["result"] if state["status"] == "finished" else None

    def on_timeout(self, state, player, rng):
        """Events for a passed turn deadline."""
        return _timeout(state, player, rng)

    def describe(self, event, name):
        """One readable sentence for the move log."""
        return _describe(event, name)

    def describe_command(self, state, cmd, name):
        """The command as an order in words for the action buttons."""
        return _describe_command(state, cmd, name)


GAME = OriginsGame()
