"""Test kit for game modules: a random legal playout driver over the pure game contract, and a match
folded through the platform aggregate (take-backs, disputes, timeouts)."""
from __future__ import annotations

import copy
import json
import random

from domain.engine import HmacRng, RuleViolation
from domain.engine import aggregate as agg
from domain.engine import disputes, undo
from domain.engine import platform_events as pe
from domain.engine.hashing import event_hash, salt_for
from domain.engine.rng import commitment


def apply_all(game, state, events):
    """Evolve `state` through `events` and return it."""
    for ev in events:
        state = game.evolve(state, ev)
    return state


def start(game, players, options=None, seed=b"kit", match_id="m1"):
    """Return (state, events, rng) after the game's setup with loaded default options."""
    options = game.options_schema.load(options or {})
    rng = HmacRng(seed, match_id)
    state = game.initial_state(list(players), dict(options))
    events = game.setup(list(players), dict(options), rng)
    return apply_all(game, state, copy.deepcopy(events)), events, rng, options


def json_roundtrip(value):
    """Serialise and parse again, so tuples or non-str keys show up as differences."""
    return json.loads(json.dumps(value))


def random_playout(game, players, seed: int, budget: int, check_every_step=False, on_step=None):
    """Play random legal commands until the game finishes; return (state, all events, commands sent).

    Asserts along the way: the active players' legal lists are never empty, every chosen command is
    accepted, decide never mutates the state, and (with check_every_step) that every listed legal
    command of the acting player is accepted."""
    chooser = random.Random(seed)
    state, events, rng, options = start(game, players, seed=str(seed).encode())
    events = list(events)
    sent = 0
    while game.result(state) is None:
        assert sent < budget, f"no result after {budget} commands"
        active = game.active_players(state)
        assert active, "nobody is active but the game has no result"
        player = chooser.choice(sorted(active))
        legal = game.legal_commands(state, player)
        assert legal, f"{player} is active but has no legal command"
        before = copy.deepcopy(state)
        if check_every_step:
            for cmd in legal:
                game.decide(state, player, copy.deepcopy(cmd), rng.__class__(rng.seed, rng.match_id, rng.counter))
            assert state == before, "decide mutated the state"
        cmd = chooser.choice(legal)
        new = game.decide(state, player, copy.deepcopy(cmd), rng)
        assert state == before, "decide mutated the state"
        assert new, f"accepted command {cmd} produced no events"
        events.extend(copy.deepcopy(new))
        state = apply_all(game, state, new)
        sent += 1
        if on_step:
            on_step(state, player, cmd, new)
    assert game.active_players(state) == []
    return state, events, sent, options


class MatchSim:
    """A match folded in memory through the platform aggregate, sealed the way MatchService seals: one
    timestamp and one command marker per command, match_finished/seed_revealed under the same marker."""

    def __init__(self, game, players=("ann", "bob"), options=None, seats=None, seed=b"s" * 32, match_id="m1",
                 legacy_chain=False):
        self.game = game
        self.games = {game.id: game}
        self.seed = seed
        self.tick = 0
        invited = None if seats else list(players)
        loaded = game.options_schema.load(options or {})
        created = agg.decide_create(game, match_id, players[0], loaded, commitment(seed), invited, seats)
        if legacy_chain:  # a match created before the salted chain: match_created names no format
            del created[0]["data"]["chain"]
        self.match = agg.Match(id=match_id, chain=created[0]["data"].get("chain", 1))
        self.seal(created, players[0], None, [])
        if not seats:
            self.start()

    def start(self):
        """Append match_started and the setup (as the service does when the last seat fills)."""
        rng = HmacRng(self.seed, self.match.id, self.match.draws)
        self.seal(agg.decide_start(self.match, rng), None, None, rng.draws)

    def seal(self, pending, actor, cmd, draws, at=None):
        """Number, stamp (a new timestamp unless `at` is given), hash and apply pending events."""
        if at is None:
            self.tick += 1
            at = f"t{self.tick:05d}"
        sealed = []
        for i, ev in enumerate(pending):
            env = {"version": self.match.version + 1, "type": ev["type"], "scope": ev["scope"], "actor": actor,
                   "at": at, "data": ev["data"], "rng": draws if (i == 0 and draws) else None,
                   "cmd": cmd, "prev": self.match.head}
            env["hash"] = event_hash(self.match.head, env, salt_for(self.match.chain, self.seed, env["version"]))
            self.match.apply(env, self.games)
            sealed.append(env)
        return sealed

    def run(self, actor, decide):
        """Run decide(match, rng) like MatchService.execute, with match_finished/seed_revealed when over."""
        rng = HmacRng(self.seed, self.match.id, self.match.draws)
        pending = decide(self.match, rng)
        self.tick += 1
        at, marker = f"t{self.tick:05d}", f"{actor or 'system'}:{self.tick}"
        sealed = self.seal(pending, actor, marker, rng.draws, at)
        if self.match.status == "active":
            sealed += self.seal(agg.finish_events(self.game, self.match.game_state, self.seed.hex()), None,
                                marker, [], at)
        return sealed

    def send(self, actor, command):
        """A game command {"type", "payload"} of `actor`."""
        def decide(m, rng):
            agg.check_can_play(m, actor)
            return agg.game_events(self.game, m.game_state, actor, copy.deepcopy(command), rng)
        return self.run(actor, decide)

    def play(self, actor, type_, **payload):
        """A game command of `actor` given as type and payload fields."""
        return self.send(actor, {"type": type_, "payload": payload})

    def takeback(self, actor):
        """Take back `actor`'s last command."""
        return self.run(actor, lambda m, rng: undo.decide_takeback(m, actor))

    def dispute(self, by, version, reason="wrong"):
        """Open a dispute on `version`; return its id."""
        [opened] = self.run(by, lambda m, rng: disputes.decide_open(m, by, version, reason, None,
                                                                     m.envelopes_since(1)[:version]))
        return opened["data"]["dispute"]

    def vote(self, player, dispute_id, accept):
        """`player` votes on an open dispute."""
        return self.run(player, lambda m, rng: disputes.decide_vote(m, player, dispute_id, accept))

    def settle(self, dispute_id, accept):
        """Every voter votes `accept` (a rejection settles it at the first vote)."""
        for player in disputes.voters(self.match, self.match.disputes[dispute_id]):
            if self.match.disputes[dispute_id]["status"] != disputes.OPEN:
                break
            self.vote(player, dispute_id, accept)

    def timeout(self, player):
        """`player`'s turn deadline passed: turn_timed_out and the game's on_timeout events (as the worker)."""
        def decide(m, rng):
            events = [agg.new_event(pe.TURN_TIMED_OUT, pe.PLATFORM, player=player)]
            for ev in self.game.on_timeout(m.game_state, player, rng):
                events.append(agg.new_event(ev["type"], pe.GAME, **ev["data"]))
            return events
        return self.run(None, decide)


def chaos_playout(game, players, seed: int, steps: int, check=None, legacy_chain=False) -> MatchSim:
    """Random play through the platform: legal commands mixed with take-backs, disputes on any game event
    (accepted or rejected) and turn timeouts; `check(sim)` runs after every appended command."""
    chooser = random.Random(seed)
    sim = MatchSim(game, players=tuple(players), seed=str(seed).encode().ljust(32, b"."), legacy_chain=legacy_chain)
    setup_end = sim.match.version
    for _ in range(steps):
        if sim.match.finished:
            break
        roll = chooser.random()
        active = sorted(sim.match.active_players())
        try:
            if roll < 0.08:
                sim.takeback(chooser.choice(sim.match.players))
            elif roll < 0.16:
                disputable = [v for v in sim.match.effective if v > setup_end]
                if disputable:
                    did = sim.dispute(chooser.choice(sim.match.players), chooser.choice(disputable))
                    if check:
                        check(sim)
                    sim.settle(did, accept=chooser.random() < 0.6)
            elif roll < 0.22:
                sim.timeout(chooser.choice(active))
            else:
                player = chooser.choice(active)
                sim.send(player, chooser.choice(game.legal_commands(sim.match.game_state, player)))
        except RuleViolation as exc:
            assert exc.rule_id.startswith("platform:undo."), exc
        if check:
            check(sim)
    return sim
