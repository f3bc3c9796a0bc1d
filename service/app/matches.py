"""The command handler: loads a match (cache + one XRANGE), decides, appends in one Lua call."""
from __future__ import annotations

import math
import pickle
import secrets
import threading
import time
from collections import OrderedDict

from marshmallow import ValidationError

from domain.engine import HmacRng, RuleViolation
from domain.engine import aggregate as agg
from domain.engine.concede import check_not_conceded
from domain.engine import platform_events as pe
from domain.engine.hashing import canonical_json, hash_body, salt_for
from domain.engine.rng import commitment
from domain.engine.versions import UnknownRulesVersion

from service.app.errors import (AppError, Conflict, Invalid, NotFound, NotSeated, RulesVersionUnavailable, Unavailable,
                                VersionConflict, refused)
from service.store.results import Append, AppendResult


def utc_now() -> str:
    """The current time as an ISO-8601 UTC string with milliseconds (domain/engine/timestamps.py's format)."""
    return stamp(time.time())


_second = (None, "")  # the last whole second stamped and its date and time of day: formatted once a second


def stamp(seconds: float) -> str:
    """format_time(datetime.fromtimestamp(seconds, timezone.utc)), the same text: microseconds rounded half to even
    as datetime rounds them, then cut to milliseconds."""
    global _second
    fraction, whole = math.modf(seconds)
    micros = round(fraction * 1e6)
    if micros >= 1_000_000:
        whole, micros = whole + 1, micros - 1_000_000
    second, cached = int(whole), _second
    if cached[0] != second:
        cached = _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{cached[1]}.{micros // 1000:03d}Z"


class MatchCache:
    """A per-process LRU of folded matches (and their secrets), with one lock per match and, for a match this
    process sends commands to, a checkpoint to undo a refused optimistic append from (_Checkpoint)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._locks: dict = {}
        self._checkpoints: dict = {}
        self._guard = threading.Lock()

    def get(self, match_id: str):
        """The cached (match, secret) or None."""
        with self._guard:
            item = self._items.get(match_id)
            if item is not None:
                self._items.move_to_end(match_id)
            return item

    def peek(self, match_id: str):
        """The cached (match, secret) or None, without the lock or a move in the LRU order (a dict read is atomic)."""
        return self._items.get(match_id)

    def put(self, match_id: str, match, secret) -> None:
        """Cache a folded match."""
        with self._guard:
            prior = self._items.get(match_id)
            if prior is not None and prior[0] is not match:
                self._checkpoints.pop(match_id, None)  # a checkpoint of another fold undoes nothing of this one
            self._items[match_id] = (match, secret)
            self._items.move_to_end(match_id)
            while len(self._items) > self.size:
                old, _ = self._items.popitem(last=False)
                self._locks.pop(old, None)
                self._checkpoints.pop(old, None)

    def evict(self, match_id: str) -> None:
        """Forget a match (after a failed append its cached fold may be ahead of the store)."""
        with self._guard:
            self._items.pop(match_id, None)
            self._checkpoints.pop(match_id, None)

    def checkpoint(self, match) -> _Checkpoint:
        """A checkpoint of this cached match to undo its next optimistic append from: the one kept, while it is
        of this very fold and at most CHECKPOINT_EVERY events behind, else a new one (under the match's lock)."""
        kept = self._checkpoints.get(match.id)
        if kept is None or not kept.fits(match):
            kept = _Checkpoint(match)
            with self._guard:
                cached = self._items.get(match.id)
                if cached is not None and cached[0] is match:
                    self._checkpoints[match.id] = kept
        return kept

    def lock(self, match_id: str) -> threading.Lock:
        """The lock serialising this process's work on one match."""
        with self._guard:
            return self._locks.setdefault(match_id, threading.Lock())


CHECKPOINT_EVERY = 32  # events a match may move past its checkpoint before the next command takes a new one


class _Checkpoint:
    """A cached match as it was at one version, to undo a refused optimistic append: its fields, a copy of what
    events change in place (the game state, the players, the disputes) and how many events and effective versions
    it had; the events since are in the match itself. A checkpoint serves the next CHECKPOINT_EVERY commands, so a
    command pays a fraction of a copy of its state instead of a whole one (the note match of the bench holds every
    note ever written: a copy per command grew with it)."""

    def __init__(self, match: agg.Match):
        self.match = match
        self.version = match.version
        self.fields = dict(match.__dict__)
        self.lengths = (len(match.envelopes), len(match.effective))
        self.blob = pickle.dumps((match.game_state, match.players, match.disputes), pickle.HIGHEST_PROTOCOL)

    def fits(self, match: agg.Match) -> bool:
        """True when this is a checkpoint of `match`'s own fold, at most CHECKPOINT_EVERY events behind it."""
        return self.match is match and 0 <= match.version - self.version <= CHECKPOINT_EVERY

    def restore(self, match: agg.Match, version: int, games: dict) -> None:
        """Put `match` back at `version` (at or after the checkpoint): the checkpoint, then the events after it."""
        since = match.envelopes[self.lengths[0]:self.lengths[0] + version - self.version]
        match.__dict__.update(self.fields)
        del match.envelopes[self.lengths[0]:]
        del match.effective[self.lengths[1]:]
        match.game_state, match.players, match.disputes = pickle.loads(self.blob)
        for env in since:
            match.apply(env, games)


ARCHIVED_MESSAGE = ("this match is archived: it finished a while ago and its history is kept read-only "
                    "(replay, audit and export still work; chat and rematch offers close when a match is archived)")


def _landed(res: AppendResult, batch: Append) -> bool:
    """True when a conflict shows our own sealed events already stored: the append ran, its reply was
    lost and the client library sent it again (the hash chain proves every event of ours is there)."""
    count = len(batch.envelopes)
    return (res.status == "conflict" and bool(res.envelopes) and len(res.envelopes) >= count > 0
            and res.envelopes[count - 1]["hash"] == batch.head_after)


def _moved_on(res: AppendResult) -> VersionConflict:
    """The error of an append refused for a stale version."""
    return VersionConflict("the match moved on; reload and try again", current_version=res.version)


class MatchService:
    """Application service for matches: create, join, submit commands, read state."""

    def __init__(self, store, games: dict, cache_size: int = 2000,
                 clock=utc_now, snapshots=None, cache: MatchCache | None = None):
        self.store = store
        self.games = games
        self.cache = cache if cache is not None else MatchCache(cache_size)  # shareable with the live reader
        self.clock = clock
        self.snapshots = snapshots

    # -- loading -------------------------------------------------------------------------------
    def _catch_up(self, match_id: str, command_id: str | None = None):
        """Bring the cached fold up to the store's head in one round trip; return (match, secret, answer)."""
        cached = self.cache.get(match_id)
        if cached is None:
            match, secret, start = None, None, 0
            if self.snapshots is not None:
                snap = self.snapshots.latest(match_id, self.games)
                if snap is not None:
                    match, start = snap, snap.version
        else:
            (match, secret), start = cached, cached[0].version
        res = self.store.read(match_id, after=start, command_id=command_id, with_secret=secret is None)
        if match is None:
            if not res.envelopes:
                raise NotFound.of("match", match_id)
            match = agg.Match(id=match_id)
        if secret is None:
            secret = res.secret
        if res.envelopes:
            if res.envelopes[0]["version"] != match.version + 1:
                self.cache.evict(match_id)
                raise Unavailable("the event store returned a gap; retry", "store_inconsistent")
            try:
                agg.fold(match_id, res.envelopes, self.games, into=match)
            except UnknownRulesVersion as exc:  # nothing of it is cached: a later deploy may have the version
                raise RulesVersionUnavailable(exc.game, exc.version) from None
        self.cache.put(match_id, match, secret)
        return match, secret, res.answer

    def cached_game(self, match_id: str) -> str | None:
        """The game of a match this process has folded (no Redis, no lock: the metrics ask it of every command), or
        None."""
        cached = self.cache.peek(match_id)
        return cached[0].game_id if cached is not None else None

    def load(self, match_id: str) -> agg.Match:
        """The match folded up to its latest version (read it with `read` when others may write)."""
        with self.cache.lock(match_id):
            return self._catch_up(match_id)[0]

    def load_many(self, match_ids: list) -> list:
        """The matches folded up to their latest versions: the new events of every cached one are read in one
        pipelined round trip (a projection batch's matches); any other is loaded alone."""
        starts = {}
        for match_id in match_ids:
            cached = self.cache.get(match_id)
            if cached is not None:
                starts[match_id] = cached[0].version
        fresh = self.store.read_many(starts) if len(starts) > 1 else {}
        loaded = []
        for match_id in match_ids:
            with self.cache.lock(match_id):
                cached = self.cache.get(match_id)
                envelopes = fresh.get(match_id)
                if (cached is None or envelopes is None or cached[0].version != starts[match_id]
                        or (envelopes and envelopes[0]["version"] != starts[match_id] + 1)):
                    loaded.append(self._catch_up(match_id)[0])  # not cached, or moved on meanwhile: read alone
                    continue
                if envelopes:
                    agg.fold(match_id, envelopes, self.games, into=cached[0])
                loaded.append(cached[0])
        return loaded

    def read(self, match_id: str, fn):
        """Return fn(match) computed under the match's lock on the caught-up fold (consistent reads)."""
        with self.cache.lock(match_id):
            return fn(self._catch_up(match_id)[0])

    # -- appending -----------------------------------------------------------------------------
    def _seal(self, match: agg.Match, pending: list, actor: str | None, command_id: str | None,
              draws: list, seed: bytes, encoded: list | None = None) -> list:
        """Number, stamp and hash pending events (salted with the seed when the match's chain is), applying
        each to `match` as it goes; with `encoded`, also collect each envelope's stored JSON (made from
        the same canonical JSON the hash covers)."""
        at = self.clock()
        sealed = []
        for i, ev in enumerate(pending):
            prev = match.head
            env = {"version": match.version + 1, "type": ev["type"], "scope": ev["scope"], "actor": actor,
                   "at": at, "data": ev["data"], "rng": draws if (i == 0 and draws) else None,
                   "cmd": command_id}
            body = canonical_json(env)
            env["prev"] = prev
            env["hash"] = hash_body(prev, salt_for(match.chain, seed, env["version"]), body)
            if encoded is not None:
                encoded.append(f'{{"prev":"{prev}","hash":"{env["hash"]}",{body[1:]}')
            match.apply(env, self.games)
            sealed.append(env)
        return sealed

    def _append(self, match: agg.Match, batch: Append, saved: _Checkpoint | None = None) -> AppendResult | None:
        """Write the batch sealed onto `match`: None once stored. Refused, the fold is put back (to `saved`, else
        forgotten) and the refusal answered: a known command id (dup, its stored answer) or a stale version
        (conflict, the events missed); an archived match raises Conflict, an unknown outcome forgets the fold."""
        try:
            res = self.store.append(batch)
        except Exception:
            self.cache.evict(match.id)  # the outcome is unknown: the next command reads the store
            raise
        if res.status == "ok" or _landed(res, batch):
            return None
        if saved is None:
            self.cache.evict(match.id)
        else:
            saved.restore(match, batch.expected, self.games)
        if res.status == "archived":
            raise Conflict(ARCHIVED_MESSAGE, "match_archived")
        return res

    def create(self, actor: str, game_id: str, options: dict, players: list | None = None,
               seats: int | None = None, turn_deadline_hours: float | None = None, bots: list | None = None,
               replace_after_timeouts: int | None = None, match_id: str | None = None) -> agg.Match:
        """Create an invited match (starts once every invited player accepts, at once when nobody must:
        only the creator and bots) or an open one (waits for seats); `bots` (bot user ids) take seats at
        once. `match_id` names it (a rematch); a taken id is a 409."""
        game = self.games[game_id]
        match_id = match_id or "m_" + secrets.token_hex(8)
        seed = secrets.token_bytes(32)
        try:
            pending = agg.decide_create(game, match_id, actor, options, commitment(seed), players, seats,
                                        turn_deadline_hours, bots, replace_after_timeouts)
        except RuleViolation as exc:
            raise refused(exc, game_id) from None
        match = agg.Match(id=match_id, chain=pending[0]["data"]["chain"])
        sealed = self._seal(match, pending, actor, None, [], seed)
        sealed += self._start_if_ready(match, seed)
        refusal = self._append(match, Append(match_id, game_id, 0, sealed, "0" * 64, match.head, match.status,
                                             secret=seed.hex()))
        if refusal is not None:
            raise _moved_on(refusal)  # the id is taken
        self.cache.put(match_id, match, seed.hex())
        return match

    def _start_if_ready(self, match: agg.Match, seed: bytes) -> list:
        """The sealed match_started and setup events when the match may start now, else []."""
        if not agg.ready_to_start(match):
            return []
        rng = HmacRng(seed, match.id, match.draws)
        return self._seal(match, agg.decide_start(match, rng), None, None, rng.draws, seed)

    def change_seats(self, actor: str, match_id: str, decide, seated_only: bool = True) -> agg.Match:
        """Append the seat events `decide(match, actor)` returns (a join, an invitation's answer) and,
        when they leave every seat taken and consented, match_started and the setup in the same append."""
        with self.cache.lock(match_id):
            match, secret, _ = self._catch_up(match_id)
            if seated_only and actor not in match.players:
                raise NotSeated("you are not seated in this match")
            expected, head = match.version, match.head
            try:
                pending = decide(match, actor)
            except RuleViolation as exc:
                raise refused(exc, match.game_id) from None
            if not pending:
                return match
            seed = bytes.fromhex(secret)
            sealed = self._seal(match, pending, actor, None, [], seed)
            sealed += self._start_if_ready(match, seed)
            refusal = self._append(match, Append(match_id, match.game_id, expected, sealed, head, match.head,
                                                 match.status))
            if refusal is not None:
                raise _moved_on(refusal)
            return match

    def join(self, actor: str, match_id: str) -> agg.Match:
        """Take a seat in an open match; the last seat starts it."""
        return self.change_seats(actor, match_id, agg.decide_join, seated_only=False)

    def submit(self, actor: str, match_id: str, type_: str, payload: dict, command_id: str | None = None,
               expected_version: int | None = None, stand_in: bool = False) -> dict:
        """Decide and append a game command; answer {"version", "events"} (idempotent by command id).
        A player's own command ends a stand-in bot's play for their seat (`stand_in_ended` first);
        `stand_in=True` is the stand-in bot sending it for them."""

        def decide(match, rng):
            if actor not in match.players:
                raise NotSeated("you are not seated in this match")
            if expected_version is not None and expected_version != match.version:
                raise VersionConflict(f"expected version {expected_version}, the match is at {match.version}",
                                      current_version=match.version)
            agg.check_can_play(match, actor)
            if not stand_in:
                check_not_conceded(match, actor)
            loaded = self.validate_payload(match.game, type_, payload)
            events = agg.game_events(match.game, match.game_state, actor, {"type": type_, "payload": loaded}, rng)
            if actor in match.stand_ins and not stand_in:
                return [agg.new_event(pe.STAND_IN_ENDED, player=actor)] + events
            if stand_in and actor not in match.stand_ins:
                raise Conflict("the player has taken their seat back", "stand_in_over")
            return events

        return self.execute(match_id, actor, decide, command_id)

    def execute(self, match_id: str, actor: str | None, decide, command_id: str | None = None) -> dict:
        """Run `decide(match, rng) -> pending events` on the match and append its events (plus
        match_finished/seed_revealed when the game ends) in one Lua call. The answer is {"version", "events"}
        with the events redacted for `actor`, or a known command id's stored answer; RuleViolations become
        AppErrors (RuleRefused, Conflict).

        One loop: load (the cached fold as it is, else caught up with the store) -> decide -> seal -> append ->
        on a stale version, catch up and try again. A fresh cache costs one round trip (the append checks the
        version and the command id); a stale one two, as without a cache: the conflict answer carries the
        missing events (a read, when the stale fold refused the command). A caught-up attempt's refusal is
        final, so the loop runs at most twice."""
        command_id = f"{actor}:{command_id}" if command_id else None
        # every command's events carry one marker, so take-back finds whole commands; only a client's
        # command id is also an idempotency key
        marker = command_id or f"{actor or 'system'}:auto-{secrets.token_hex(8)}"
        with self.cache.lock(match_id):
            cached = self.cache.get(match_id)
            match, secret = cached if cached is not None else (None, None)
            caught_up = cached is None
            while True:
                if match is None:
                    match, secret, stored = self._catch_up(match_id, command_id)
                    if stored is not None:
                        return stored
                saved = None if caught_up else self.cache.checkpoint(match)
                try:
                    batch = self._decide(match, secret, actor, decide, command_id, marker)
                except AppError:
                    if caught_up:
                        raise
                    match, caught_up = None, True  # a stale fold may refuse what the store's head allows
                    continue
                refusal = self._append(match, batch, saved)
                if refusal is None:
                    return batch.answer
                if refusal.status == "dup":
                    return refusal.answer
                if caught_up:
                    raise _moved_on(refusal)
                match, caught_up = self._missed(match, refusal), True

    def _decide(self, match: agg.Match, secret: str, actor: str | None, decide, command_id: str | None,
                marker: str) -> Append:
        """The batch a command appends: `decide(match, rng)`'s events, and match_finished/seed_revealed when
        the game ends, sealed onto `match`, its answer redacted for `actor`. A RuleViolation is raised as the
        AppError it is."""
        seed = bytes.fromhex(secret)
        rng = HmacRng(seed, match.id, match.draws)
        try:
            pending = decide(match, rng)
        except RuleViolation as exc:
            raise refused(exc, match.game_id) from None
        expected, head = match.version, match.head
        encoded: list = []
        try:
            sealed = self._seal(match, pending, actor, marker, rng.draws, seed, encoded)
            if match.status == "active" and match.game_state is not None:
                sealed += self._seal(match, agg.finish_events(match.game, match.game_state, secret, match.conceded,
                                                              match.players), None, marker, [], seed, encoded)
        except Exception:
            self.cache.evict(match.id)  # sealed in part: the fold is ahead of the store
            raise
        answer = {"version": match.version, "events": [match.redact(env, actor) for env in sealed]}
        return Append(match.id, match.game_id, expected, encoded, head, match.head, match.status, command_id or "",
                      answer)

    def _missed(self, match: agg.Match, res: AppendResult) -> agg.Match | None:
        """`match`, put back at the version it appended at, caught up with the events a stale-version conflict
        answered; None (forgotten) when they do not follow on from it (diverged, or the fold ahead of the store)."""
        missing = res.envelopes
        if not missing or len(missing) != res.version - match.version or missing[0]["prev"] != match.head:
            self.cache.evict(match.id)
            return None
        agg.fold(match.id, missing, self.games, into=match)
        return match

    @staticmethod
    def validate_payload(game, type_: str, payload) -> dict:
        """Load a command payload through the game's schema, or raise Invalid."""
        schema = game.command_schemas.get(type_)
        if schema is None:
            raise Invalid(f"{game.title} has no command {type_!r}; known: {', '.join(sorted(game.command_schemas))}",
                          "unknown_command")
        try:
            return schema.load(payload if payload is not None else {})
        except ValidationError as exc:
            raise Invalid(f"the {type_} payload is invalid", "invalid_payload", fields=exc.messages) from None

    # -- reading -------------------------------------------------------------------------------
    def legal(self, actor: str, match_id: str) -> tuple[int, list]:
        """(version, the commands `actor` may send now)."""
        return self.read(match_id, lambda match: (match.version, legal_for(match, actor)))


def legal_for(match: agg.Match, actor: str | None) -> list:
    """The commands `actor` may send now in a folded match (none unless seated, to move and in play: a seat its
    player conceded is played by its stand-in alone)."""
    if actor in match.conceded:
        return []
    return seat_commands(match, actor)


def seat_commands(match: agg.Match, seat: str | None) -> list:
    """The commands the seat `seat` may be played with now, by its player or a bot standing in (none unless to
    move)."""
    if seat not in match.players or seat not in match.active_players():
        return []
    return [{"type": c["type"], "payload": c["payload"]} for c in match.game.legal_commands(match.game_state, seat)]

