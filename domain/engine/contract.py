"""The game-module contract every `domain/games/<id>/` package fulfils, and the shapes it exchanges.

A game package exports `GAME`, one typed declaration `GAME = Game(id=..., title=..., setup=setup, ...)`:
a frozen `Game` (below) whose function fields are plain module-level functions (no class, no self):

  id, title, min_players, max_players      facts (`id` is the public game id, e.g. "stone-pile")
  options_schema                           a marshmallow Schema *instance* for match options
  command_schemas                          {command type: marshmallow Schema instance} for payloads
  revealing_events                         frozenset of event types that reveal hidden information
                                           (optional, default empty; used by the take-back policy;
                                           events with random draws and events that `redact`
                                           changes count automatically)
  secret_options                           frozenset of option names no viewer may see until the
                                           match ends (optional, default empty): the platform leaves
                                           them out of `match_created` for every viewer (Match.redact);
                                           the stored event keeps them, so the audit shows them once
                                           the match has finished
  offer_commands                           frozenset of command types that ask another player to
                                           answer (a trade proposal; optional, default empty): bots
                                           never send them, so they never hold a human up with offers
  initial_state(players, options) -> state the empty state before `setup`'s events are applied
  setup(players, options, rng) -> [event]  the opening events (deals, shuffles, placements)
  decide(state, player, command, rng) -> [event]
                                           validate and return the new events; raise
                                           RuleViolation(bare_rule_id, message); never mutate `state`
  evolve(state, event) -> state            apply one event; may mutate and return `state`; total,
                                           deterministic, never raises on an event decide produced
  view(state, viewer) -> dict              the state as `viewer` may see it: a player id, None for a
                                           spectator, or ALL (everything: the match is finished)
  redact(event, viewer) -> event | None    the event as that viewer may see it (same viewer values)
  legal_commands(state, player) -> [command]
                                           every concrete command this player may send now; each
                                           one is accepted by decide if sent as is
  active_players(state) -> [player]        who must act now (empty once finished)
  result(state) -> dict | None             None while running; once finished a dict with at least
                                           {"winners": [player, ...], "scores": {player: ...}}
  on_timeout(state, player, rng) -> [event]
                                           what happens when `player`'s turn deadline passes
  describe(event, name) -> str             one readable sentence for the move log ("ann bought
                                           Bionic Perfume for c80"); `name(player_id)` gives the
                                           display name; uses only what the (redacted) event holds
  describe_command(state, command, name) -> str
                                           the legal `command` as an order in the same voice, for a
                                           button ("Buy Bionic Perfume for c80", "Build the Shrine as
                                           a farm on D4"): names never ids, distinct for distinct
                                           commands of one state; says only what the actor may know
  short_options                            options that make a short match (golden matches, the bench, a first
                                           game; optional, default {}): every other option keeps its default
  bots                                     Bots(...): what bots need to play it well (below; optional)
  table                                    Table(...): how its matches are shown (below; optional)
  upcast(event) -> event                   a stored game event of an older payload shape in this code's shape
                                           (optional, identity by default): the fold applies it to every
                                           game event before evolve/redact; it returns a new event and never
                                           mutates its argument (the stored envelope, its bytes and hash stay)

Shapes: an event is {"type": snake_case_past_tense, "data": {...}}; a command is
{"type": snake_case_order, "payload": {...}}. State, events and payloads are plain JSON values
(dicts with str keys, lists, str, int, float, bool, None): `json.loads(json.dumps(x)) == x` must hold,
so states can be snapshotted and compared after a replay.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from .versions import UnknownRulesVersion

FIRST_RULES_VERSION = "2026.11"  # what every match created before rules versions recorded
ALL = "*"  # the viewer that may see everything (used once a match is finished, and by audits)

State = dict[str, Any]
Event = dict[str, Any]
Command = dict[str, Any]


def unchanged(event: Event) -> Event:
    """The default `upcast`: every stored event already has this code's payload shape."""
    return event


def event(type_: str, **data) -> Event:
    """Build a game event {"type", "data"}."""
    return {"type": type_, "data": data}


def command(type_: str, **payload) -> Command:
    """Build a command {"type", "payload"}."""
    return {"type": type_, "payload": payload}


def no_hidden_information(state: State, player: str, rng: Any) -> State:
    """The default `Bots.resample`: a game without hidden information samples its state as it is (a copy)."""
    return json.loads(json.dumps(state))


def shuffled(items, rng: Any) -> list:
    """For a `Bots.resample`: the items in canonical (sorted) order, then shuffled, so the draw depends only on what
    they are, never on the order the seat cannot see."""
    pool = sorted(items)
    rng.shuffle(pool)
    return pool


@dataclass(frozen=True)
class Bots:
    """What bots need of a game (`domain/games/<pkg>/bots.py`): a score for search and how to sample hidden parts.

    score(state, seat) -> float     the seat's standing if the game stopped now (higher is better)
    seats(state) -> [seat]          every seat whose score is compared, in seating order
    scale                           what a clear lead is worth in score units (squashes unfinished playouts)
    resample(state, seat, rng)      a new state whose view for `seat` equals the original's, every part the
                                    seat cannot see re-drawn from what it cannot tell apart (domain/games/<pkg>/bots.py)
    exploration                     the UCB constant of MCTS for this game (None: the bots' default)"""

    score: Callable[[State, str], float]
    seats: Callable[[State], list[str]]
    scale: float = 1.0
    resample: Callable[[State, str, Any], State] = no_hidden_information
    exploration: float | None = None


@dataclass(frozen=True)
class Table:
    """How a game's matches are shown (`domain/games/<pkg>/table.py`), versioned with its rules: its folder of texts
    (rules page, glossary, printed names per language), its board drawing and the wording of its pages.

    folder                          the package folder holding text/ (rules.<lang>.json, glossary.json,
                                    names.<lang>.json)
    board                           a module with render_board(view, viewer) -> SVG and place_of(view, command)
                                    (None: the view is shown as text)
    words                           a module with the page wording tables (see docs/adding-a-game.md; None: none)"""

    folder: Any
    board: Any = None
    words: Any = None


@dataclass(frozen=True, eq=False)  # eq=False: equal and hashed by identity, as a module-level object is
class Game:
    """A game module's `GAME` declaration: its facts, schemas and pure functions (see the module docstring)."""

    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: Any
    command_schemas: dict[str, Any]
    initial_state: Callable[[list[str], dict], State]
    setup: Callable[[list[str], dict, Any], list[Event]]
    decide: Callable[[State, str, Command, Any], list[Event]]
    evolve: Callable[[State, Event], State]
    view: Callable[[State, str | None], dict]
    redact: Callable[[Event, str | None], Event | None]
    legal_commands: Callable[[State, str], list[Command]]
    active_players: Callable[[State], list[str]]
    result: Callable[[State], dict | None]
    on_timeout: Callable[[State, str, Any], list[Event]]
    describe: Callable[[Event, Callable[[str], str]], str]
    describe_command: Callable[[State, Command, Callable[[str], str]], str]
    revealing_events: frozenset = frozenset()
    secret_options: frozenset = frozenset()
    offer_commands: frozenset = frozenset()
    rules_version: str = FIRST_RULES_VERSION  # the version these functions and data are (versions.py)
    rules_versions: tuple[str, ...] = (FIRST_RULES_VERSION,)  # every installed version, oldest first
    rules_digest: str = ""  # sha256 of the version's folder (data and frozen modules)
    at_version: Callable[[str], "Game"] | None = None  # loads another installed version of the same game
    upcast: Callable[[Event], Event] = unchanged  # an older payload shape of a stored game event -> this one
    short_options: dict | None = None  # options that end a match early (golden matches, benchmarks)
    bots: Bots | None = None  # what bots need (None: they play it by its legal moves and result alone)
    table: Table | None = None  # how its matches are shown (None: the view as text, commands by their types)

    def at(self, version: str | None) -> "Game":
        """This game's rules at `version` (None, or this one: itself)."""
        if version is None or version == self.rules_version:
            return self
        if self.at_version is None:
            raise UnknownRulesVersion(self.id, version, (self.rules_version,))
        return self.at_version(version)

    def created_under(self, version: str | None) -> "Game":
        """The rules a match recorded at its creation judge it: a match stored without a version, the first one."""
        return self.at(version or self.rules_versions[0])
