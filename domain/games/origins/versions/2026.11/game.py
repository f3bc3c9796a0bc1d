"""Declares the Origins: First Builders `GAME` from the rule modules.

Interpretations beyond the spec (see also docs/rules/origins.md §10):
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

from domain.engine import Game
from domain.engine.versions import rules_fields

from .bots import BOTS
from .command_text import describe_command
from .data import DATA
from .describe import describe
from .evolve import evolve
from .schemas import COMMAND_SCHEMAS, OPTIONS_SCHEMA
from .setup import initial_state, setup
from .turns import active_players, decide, legal_commands, on_timeout
from .views import redact, view
from .table import TABLE


def result(state):
    """None while running, then winners and scores."""
    return state["result"] if state["status"] == "finished" else None


GAME = Game(
    id="origins",
    title="Origins: First Builders",
    min_players=DATA["players"]["min"],
    max_players=DATA["players"]["max"],
    options_schema=OPTIONS_SCHEMA,
    command_schemas=COMMAND_SCHEMAS,
    revealing_events=frozenset({"zodiac_card_taken", "citizen_die_taken", "market_refilled",
                                "round_started", "game_ended"}),
    initial_state=initial_state,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    redact=redact,
    legal_commands=legal_commands,
    active_players=active_players,
    result=result,
    on_timeout=on_timeout,
    describe=describe,
    describe_command=describe_command,
    bots=BOTS,
    short_options={"max_rounds": 4},  # a short match: golden matches and the bench
    table=TABLE,
    **rules_fields(__package__),
)
