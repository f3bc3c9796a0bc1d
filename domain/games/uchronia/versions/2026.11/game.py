"""Declares the Uchronia `GAME` from the rule modules (see the package docstring for interpretations)."""
from __future__ import annotations

from domain.engine import Game
from domain.engine.versions import rules_fields

from .bots import BOTS
from .command_text import describe_command
from .commands import decide
from .data import DATA
from .describe import describe
from .evolve import evolve
from .legal import legal_commands
from .schemas import COMMAND_SCHEMAS, OPTIONS_SCHEMA
from .setup import resolve_options, setup
from .state import initial_state
from .steps import decision
from .views import redact, view
from .table import TABLE

_NEUTRAL = ({"type": "end_order", "payload": {}}, {"type": "plot", "payload": {"copy_from": None}},
            {"type": "monopoly_bonus", "payload": {"take": False}})


def _initial_state(players, options):
    """The empty state before the setup events, with the options resolved for the player count."""
    return initial_state(players, resolve_options(players, options))


def _active_players(state):
    """Who must act now."""
    return decision(state)[1]


def _result(state):
    """None while running; winners, VP scores and details once finished."""
    done = state.get("finished")
    if not done:
        return None
    return {"winners": list(done["winners"]), "scores": {p: s["vp"] for p, s in done["scores"].items()},
            "details": done["scores"], "reason": done["reason"]}


def _on_timeout(state, player, rng):
    """The neutral default for a passed deadline: end the order, plot, decline, else the first choice."""
    legal = legal_commands(state, player)
    if not legal:
        return []
    choice = next((c for c in _NEUTRAL if c in legal), legal[0])
    return decide(state, player, choice, rng)


GAME = Game(
    id="uchronia",
    title="Uchronia",
    min_players=DATA["min_players"],
    max_players=DATA["max_players"],
    options_schema=OPTIONS_SCHEMA,
    command_schemas=COMMAND_SCHEMAS,
    revealing_events=frozenset({"decks_shuffled", "great_works_revealed", "great_works_refilled",
                                "cards_dealt", "cards_drawn", "cards_revealed", "card_given", "demand_unmet"}),
    initial_state=_initial_state,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    redact=redact,
    legal_commands=legal_commands,
    active_players=_active_players,
    result=_result,
    on_timeout=_on_timeout,
    describe=describe,
    describe_command=describe_command,
    bots=BOTS,
    short_options={"max_rounds": 10},  # a short match: golden matches and the bench
    table=TABLE,
    **rules_fields(__package__),
)
