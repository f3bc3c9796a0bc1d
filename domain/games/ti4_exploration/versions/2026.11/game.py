"""The `GAME` declaration of ti4-exploration: an exploration skirmish built around TI4 rule 73 (Exploration).

Source: docs/rules/ti4-exploration.md (normative) and its seed, the Russian rules-reference entry
"73 Разведка"; rejections cite the seed's numbering (73.2d, 73.comment-4, ...).

Interpretations where the spec is silent or unclear:
- The data file is `ti4_exploration.json` (the spec calls it `data.json`; the project brief names this file).
- Draw piles are unordered: `decide` picks `rng.randint(0, len(pile) - 1)` into the pile as stored (data order,
  minus drawn cards; after a reshuffle the discard order is appended), so scenario tests can script a card.
- Events added to the spec's table to make step changes explicit: `exploration_started` (an exploration begins;
  it carries the decks the planet's traits allow), `invasion_ended` (carries `to_gain`) and `step_changed`
  (production / after_action, with `frontier_due`). `transaction_accepted` also carries `to_gets`/`from_gets`,
  the lots as received (commodities arrive as trade goods). `relic_fragments_purged` carries the card ids.
- Conditions of the "who / when" column that are about the step give flow.wrong-step; ownership conditions give
  the specific rule (no Enigmatic Device -> tech.enigmatic-device, no Nano-Forge -> relics.nano-forge, no Maw ->
  relics.maw, no ready Crown -> relic.crown-explore); a proposal outside its windows gives transaction.windows.
- A move from a non-adjacent system cites movement.wormholes when either end holds a wormhole token, else
  movement.adjacent. Moving more ships than you have there, or an illegal load, cites movement.capacity.
- "Non-home planet" for the Nano-Forge excludes all four home systems, vacant ones included.
- Commands with a payload the schema rejects, or of an unknown type, give flow.wrong-step.
- Gains of 0 commodities (already at the cap) emit no commodities_changed event.
- Playout budget: the spec says 250-400 commands for 2 players and 4 rounds; the property tests allow 200 commands
  per player (400 for 2, 800 for 4). Random legal play averages about 80 (2 players) and 300 (4 players).
"""
from __future__ import annotations

from domain.engine import Game
from domain.engine.versions import rules_fields

from .bots import BOTS
from .command_text import describe_command
from .describe import describe
from .evolve import evolve, initial_state
from .rules import active_players, decide, legal_commands, on_timeout
from .schemas import COMMAND_SCHEMAS, OPTIONS_SCHEMA
from .setup import setup_events
from .views import redact, view
from .table import TABLE


def setup(players, options, rng):
    """The opening events (no randomness is needed)."""
    return setup_events(list(players), options)


def result(state):
    """None while running; winners, totals, ranking and breakdowns once finished."""
    if not state.get("finished"):
        return None
    final = state["final"]
    return {"winners": list(final["winners"]), "ranking": list(final["ranking"]),
            "scores": {p: s["total"] for p, s in final["scores"].items()},
            "breakdown": final["scores"]}


GAME = Game(
    id="ti4-exploration",
    title="Twilight Imperium 4: Exploration Skirmish",
    min_players=2,
    max_players=4,
    options_schema=OPTIONS_SCHEMA,
    command_schemas=COMMAND_SCHEMAS,
    revealing_events=frozenset({"exploration_card_revealed", "relic_drawn"}),
    # a proposal's worth depends on the other player's answer, which no bot here can weigh: bots make none
    offer_commands=frozenset({"propose_transaction"}),
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
    short_options={"rounds": 2},  # a short match: golden matches and the bench
    table=TABLE,
    **rules_fields(__package__),
)
