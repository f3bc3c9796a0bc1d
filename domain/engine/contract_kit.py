"""Checks a game module's `GAME` against the contract (contract.py) by seeded random play: pure, no Redis."""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field

from marshmallow import ValidationError

from .contract import ALL
from .errors import RuleViolation
from .rng import HmacRng

MEMBERS = ("initial_state", "setup", "decide", "evolve", "view", "redact", "legal_commands", "active_players",
           "result", "on_timeout", "describe", "describe_command")


class ContractBreach(AssertionError):
    """A game broke one clause of the contract; `check` names the clause."""

    def __init__(self, check: str, message: str):
        super().__init__(f"{check}: {message}")
        self.check = check
        self.message = message


@dataclass
class Check:
    """One clause's outcome."""

    name: str
    ok: bool
    detail: str


@dataclass
class Report:
    """Every clause's outcome for one game."""

    game_id: str
    checks: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every clause held."""
        return all(c.ok for c in self.checks)

    def text(self) -> str:
        """A readable report: one line per clause, then the verdict."""
        lines = [f"contract check of {self.game_id!r}"]
        lines += [f"  {'ok  ' if c.ok else 'FAIL'}  {c.name}: {c.detail}" for c in self.checks]
        failed = [c.name for c in self.checks if not c.ok]
        lines.append("PASSED: the game honours the contract" if not failed else
                     f"FAILED: {len(failed)} of {len(self.checks)} checks ({', '.join(failed)})")
        return "\n".join(lines)


def json_roundtrip(value):
    """Serialise and parse again (tuples, non-str keys and sets show up as differences or errors)."""
    return json.loads(json.dumps(value))


def require(condition, check: str, message: str) -> None:
    """Raise ContractBreach(check, message) unless `condition`."""
    if not condition:
        raise ContractBreach(check, message)


def fold(game, state, events):
    """`state` evolved through `events` (copies of them), returned."""
    for ev in events:
        state = game.evolve(state, copy.deepcopy(ev))
    return state


def start(game, players, seed: int, options=None):
    """(state, setup events, rng, options) after the game's setup with its default options."""
    options = game.options_schema.load(options or {})
    rng = HmacRng(str(seed).encode(), "kit")
    events = game.setup(list(players), dict(options), rng)
    return fold(game, game.initial_state(list(players), dict(options)), events), list(events), rng, options


def fresh(rng: HmacRng) -> HmacRng:
    """An rng at the same point, so a trial decide leaves the playout's draws alone."""
    return HmacRng(rng.seed, rng.match_id, rng.counter)


def playout(game, players, seed: int, budget: int, on_step=None):
    """Play seeded random legal commands to the end; return (state, events, commands sent, options).

    Breaches raised on the way: an active player without legal commands, nobody active before the end,
    decide refusing a listed command or mutating its state, an accepted command without events, no result
    within `budget` commands. `on_step(state, player, rng)` runs before each command."""
    chooser = random.Random(seed)
    state, events, rng, options = start(game, players, seed)
    sent = 0
    while game.result(state) is None:
        require(sent < budget, "playouts finish", f"no result after {budget} commands")
        active = sorted(game.active_players(state))
        require(active, "playouts finish", "nobody may act but the game has no result")
        player = chooser.choice(active)
        if on_step:
            on_step(state, player, rng)
        legal = game.legal_commands(state, player)
        require(legal, "playouts finish", f"{player} must act but has no legal command")
        cmd = chooser.choice(legal)
        before = copy.deepcopy(state)
        try:
            new = game.decide(state, player, copy.deepcopy(cmd), rng)
        except RuleViolation as exc:
            raise ContractBreach("listed commands are accepted", f"{cmd} refused: {exc}") from None
        require(state == before, "decide never mutates", f"decide changed the state on {cmd}")
        require(new, "listed commands are accepted", f"{cmd} was accepted but produced no events")
        events += copy.deepcopy(new)
        state = fold(game, state, new)
        sent += 1
    require(game.active_players(state) == [], "playouts finish", "players are still active after the result")
    return state, events, sent, options


# -- the clauses ---------------------------------------------------------------------------------------
def check_declaration(game, **_) -> str:
    """Facts, schemas and every contract function are there."""
    require(isinstance(game.id, str) and game.id and game.title, "declaration", "id and title are needed")
    require(1 <= game.min_players <= game.max_players, "declaration", "1 <= min_players <= max_players")
    require(game.command_schemas, "declaration", "a game has at least one command")
    missing = [m for m in MEMBERS if not callable(getattr(game, m, None))]
    require(not missing, "declaration", f"missing functions: {', '.join(missing)}")
    require(isinstance(game.revealing_events, frozenset), "declaration", "revealing_events is a frozenset")
    return f"{len(game.command_schemas)} commands, {game.min_players}-{game.max_players} players"


def check_playouts(game, seats, seeds, budget, **_) -> str:
    """Random legal playouts finish with a result naming winners among the players."""
    total = 0
    for n in seats:
        players = [f"p{i}" for i in range(1, n + 1)]
        for seed in seeds:
            state, _events, sent, _ = playout(game, players, seed, budget)
            result = game.result(state)
            require(isinstance(result, dict) and result.get("winners") and set(result["winners"]) <= set(players),
                    "playouts finish", f"result {result!r} names no winners among {players}")
            require("scores" in result, "playouts finish", "a result has scores")
            total += sent
    return f"{len(seats) * len(seeds)} playouts, {total} commands"


def check_determinism(game, seats, seeds, budget, **_) -> str:
    """The same seed gives the same events."""
    players = [f"p{i}" for i in range(1, seats[0] + 1)]
    first = playout(game, players, seeds[0], budget)[1]
    again = playout(game, players, seeds[0], budget)[1]
    require(first == again, "same seed, same events", "two playouts with one seed differ")
    return f"{len(first)} events identical"


def check_fold_and_json(game, seats, seeds, budget, **_) -> str:
    """Folding the events reproduces the live state; states, events and views survive JSON."""
    players = [f"p{i}" for i in range(1, seats[-1] + 1)]
    checked = {"n": 0}

    def on_step(state, player, rng):
        if checked["n"] % 5 == 0:
            require(json_roundtrip(state) == state, "JSON round trip", "the state changes through JSON")
            for viewer in players + [None, ALL]:
                view = game.view(state, viewer)
                require(json_roundtrip(view) == view, "JSON round trip", f"the view of {viewer} changes through JSON")
        checked["n"] += 1

    state, events, _, options = playout(game, players, seeds[-1], budget, on_step)
    for ev in events:
        require(json_roundtrip(ev) == ev, "JSON round trip", f"event {ev['type']} changes through JSON")
        require(isinstance(game.describe(ev, str), str), "JSON round trip", f"describe({ev['type']}) is no string")
    require(fold(game, game.initial_state(players, dict(options)), json_roundtrip(events)) == state,
            "folding reproduces the state", "folding the events again gives another state")
    return f"{len(events)} events refolded, {checked['n']} states and views checked"


def check_every_listed_command(game, seats, seeds, budget, **_) -> str:
    """At every step each listed command of the acting player is accepted, on a copy, without mutation."""
    players = [f"p{i}" for i in range(1, seats[0] + 1)]
    tried = {"n": 0}

    def on_step(state, player, rng):
        for cmd in game.legal_commands(state, player):
            before = copy.deepcopy(state)
            require(cmd["type"] in game.command_schemas, "listed commands are accepted", f"unknown type in {cmd}")
            require(game.command_schemas[cmd["type"]].load(cmd["payload"]) == cmd["payload"],
                    "listed commands are accepted", f"{cmd} does not pass its own schema")
            try:
                game.decide(state, player, copy.deepcopy(cmd), fresh(rng))
            except RuleViolation as exc:
                raise ContractBreach("listed commands are accepted", f"{cmd} refused: {exc}") from None
            require(state == before, "decide never mutates", f"decide changed the state on {cmd}")
            tried["n"] += 1

    playout(game, players, seeds[0], budget, on_step)
    return f"{tried['n']} listed commands accepted"


def mutations(cmd: dict, legal: list) -> list:
    """Variants of a command: payload values swapped, shifted, emptied; a foreign command type."""
    out = [{"type": cmd["type"] + "_not_a_command", "payload": cmd["payload"]}]
    for key, value in cmd["payload"].items():
        others = [c["payload"][key] for c in legal if key in c["payload"] and c["payload"][key] != value]
        for new in others[:1] + ([value + 1, value - 1, value + 97] if isinstance(value, int)
                                 and not isinstance(value, bool) else []) + ["zz-not-a-thing", None, [], {}]:
            out.append({"type": cmd["type"], "payload": {**cmd["payload"], key: new}})
    return out


def check_mutated_commands(game, seats, seeds, budget, samples=40, **_) -> str:
    """Mutated commands are refused by the payload schema or by decide with a rule id (never a crash), unless
    the mutation happens to be a listed command."""
    players = [f"p{i}" for i in range(1, seats[0] + 1)]
    chooser = random.Random(seeds[0] + 1)
    counts = {"schema": 0, "rule": 0}

    def on_step(state, player, rng):
        legal = game.legal_commands(state, player)
        listed = [json.dumps(c, sort_keys=True) for c in legal]
        variants = mutations(chooser.choice(legal), legal)
        for bad in chooser.sample(variants, k=min(2, len(variants))):
            if json.dumps(bad, sort_keys=True) in listed or sum(counts.values()) >= samples:
                continue
            schema = game.command_schemas.get(bad["type"])
            try:
                payload = schema.load(bad["payload"]) if schema is not None else None
            except ValidationError:
                payload = None
            if payload is None:
                counts["schema"] += 1
                continue
            try:
                game.decide(copy.deepcopy(state), player, {"type": bad["type"], "payload": payload}, fresh(rng))
            except RuleViolation as exc:
                require(isinstance(exc.rule_id, str) and exc.rule_id, "mutated commands are refused",
                        f"{bad} refused without a rule id")
                counts["rule"] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - reported, not hidden
                raise ContractBreach("mutated commands are refused",
                                     f"decide crashed on {bad}: {type(exc).__name__}: {exc}") from None
            raise ContractBreach("mutated commands are refused",
                                 f"{bad} was accepted but legal_commands does not list it")

    playout(game, players, seeds[0], budget, on_step)
    return f"{counts['rule']} refused citing a rule, {counts['schema']} by the payload schema"


def _strings(value, out: set) -> set:
    if isinstance(value, str):
        if len(value) >= 4:
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    return out


def _hidden(original, redacted) -> set:
    """The string leaves of `original` that `redacted` left out or replaced."""
    if original == redacted:
        return set()
    if isinstance(original, dict) and isinstance(redacted, dict):
        out = set()
        for key, value in original.items():
            out |= _hidden(value, redacted.get(key)) if key in redacted else _strings(value, set())
        return out
    if isinstance(original, list) and isinstance(redacted, list) and len(original) == len(redacted):
        out = set()
        for a, b in zip(original, redacted):
            out |= _hidden(a, b)
        return out
    return _strings(original, set())


def check_views_and_redaction(game, seats, seeds, budget, **_) -> str:
    """redact(e, ALL) is e; a redacted event keeps its type; what redact hides from a player (text values it
    never saw in any event redacted for it, nor in the opening view) never shows up in that player's view."""
    players = [f"p{i}" for i in range(1, seats[-1] + 1)]
    state, events, _, options = playout(game, players, seeds[0], budget)
    live = game.initial_state(players, dict(options))
    seen = {p: _strings(game.view(live, p), set()) for p in players + [None]}
    hidden = {p: set() for p in seen}
    leaks = 0
    for n, ev in enumerate(events):
        require(game.redact(copy.deepcopy(ev), ALL) == ev, "views match redaction", f"redact(ALL) changed {ev['type']}")
        live = game.evolve(live, copy.deepcopy(ev))
        for viewer in seen:
            red = game.redact(copy.deepcopy(ev), viewer)
            require(red is None or (red.get("type") == ev["type"] and json_roundtrip(red) == red),
                    "views match redaction", f"redact({ev['type']}, {viewer}) changed the type or is not JSON")
            seen[viewer] |= _strings(red, set()) if red is not None else set()
            hidden[viewer] |= _hidden(ev, red) if red is not None else _strings(ev, set())
            if n % 7 == 0 or n == len(events) - 1:
                shown = _strings(game.view(live, viewer), set()) if game.result(live) is None else set()
                leaked = (hidden[viewer] - seen[viewer]) & shown
                require(not leaked, "views match redaction",
                        f"the view of {viewer} shows {sorted(leaked)[:3]} that redaction hides from it")
                leaks += 1
    return f"{len(events)} events redacted for {len(seen)} viewers, {leaks} views compared"


def check_timeouts(game, seats, seeds, budget, every=3, **_) -> str:
    """After on_timeout of an active player the game is finished or someone may act with a legal command."""
    players = [f"p{i}" for i in range(1, seats[0] + 1)]
    tried = {"n": 0}

    def on_step(state, player, rng):
        if tried["n"] % every == 0:
            trial = copy.deepcopy(state)
            timeout_events = game.on_timeout(trial, player, fresh(rng))
            require(trial == state, "timeouts leave it playable", "on_timeout changed the state")
            trial = fold(game, trial, timeout_events)
            if game.result(trial) is None:
                active = game.active_players(trial)
                require(active and all(game.legal_commands(trial, p) for p in active),
                        "timeouts leave it playable", f"after {player}'s timeout nobody can act")
        tried["n"] += 1

    playout(game, players, seeds[0], budget, on_step)
    return f"{tried['n']} timeouts tried"


CHECKS = (("declaration", check_declaration), ("playouts finish", check_playouts),
          ("same seed, same events", check_determinism), ("folding reproduces the state, JSON round trip",
                                                          check_fold_and_json),
          ("listed commands are accepted, decide never mutates", check_every_listed_command),
          ("mutated commands are refused", check_mutated_commands),
          ("views match redaction", check_views_and_redaction), ("timeouts leave it playable", check_timeouts))


def check_game(game, seeds=(1, 2), budget: int = 3000, seats=None) -> Report:
    """Run every clause on `game`; a clause that breaks (or crashes) is reported, the others still run."""
    report = Report(getattr(game, "id", "?"))
    seats = seats or sorted({getattr(game, "min_players", 2), getattr(game, "max_players", 2)})
    for name, check in CHECKS:
        try:
            detail = check(game, seats=list(seats), seeds=list(seeds), budget=budget)
            report.checks.append(Check(name, True, detail))
        except ContractBreach as exc:
            report.checks.append(Check(name, False, exc.message))
        except Exception as exc:  # noqa: BLE001 - a crashing game function is a finding, not a kit error
            report.checks.append(Check(name, False, f"{type(exc).__name__}: {exc}"))
        if name == "declaration" and not report.checks[-1].ok:
            break
    return report
