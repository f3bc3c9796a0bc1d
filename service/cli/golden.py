"""Golden matches: complete exported matches of a game at one rules version, played in memory (no Redis) by
random legal moves from a fixed seed, with the final state's digest and the result the code that played them
folded. They are kept in tests/fixtures/golden/<game>/<version>/ and replayed by the tests for ever."""
from __future__ import annotations

import contextlib
import hashlib
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from domain.engine import aggregate as agg
from domain.engine import platform_events as pe
from domain.engine.hashing import canonical_json
from domain.engine.timestamps import format_time
from domain.games import load_games

from service.app import invitations
from service.app import matches as matches_module
from service.app.errors import AppError
from service.app.history import History
from service.app.matches import MatchService, legal_for
from service.store.memory import InMemoryEventStore

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay")
START = datetime(2026, 11, 1, tzinfo=timezone.utc)
MAX_COMMANDS = 5000  # a random match that has not ended by then is abandoned (the generator says so)
TIMEOUT_SHARE = 0.03  # of the turns end by their deadline (the game's on_timeout)
TAKEBACK_SHARE = 0.03  # of the turns try a take-back first (refused when the last move revealed anything)

# short matches: each installed game's options that end it early (GAME.short_options; the others keep their defaults)
SHORT_OPTIONS = {game.id: dict(game.short_options or {}) for game in load_games().values()}


class NotFinished(RuntimeError):
    """Random play did not end the match within MAX_COMMANDS commands."""


class _MetaReader:
    """The one Redis call History.export makes (HGETALL of a match's meta), answered by the in-memory store."""

    def __init__(self, store: InMemoryEventStore):
        self.store = store

    def hgetall(self, key: str) -> dict:
        """The meta of the match the key names."""
        return self.store.meta(key.split(":m:", 1)[1].rsplit(":meta", 1)[0])


class GoldenStore(InMemoryEventStore):
    """The in-memory event store, readable by History.export."""

    @property
    def r(self) -> _MetaReader:
        """A stand-in for the Redis client (meta hashes only)."""
        return _MetaReader(self)


class _Seeded:
    """`secrets` for the match service, from a fixed seed: the same golden match every run."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd

    def token_bytes(self, n: int) -> bytes:
        """n seeded bytes."""
        return bytes(self.rnd.getrandbits(8) for _ in range(n))

    def token_hex(self, n: int) -> str:
        """n seeded bytes as hex."""
        return self.token_bytes(n).hex()


@contextlib.contextmanager
def seeded_secrets(rnd: random.Random):
    """The match service's seeds, match ids and command markers drawn from `rnd` meanwhile."""
    saved = matches_module.secrets
    matches_module.secrets = _Seeded(rnd)
    try:
        yield
    finally:
        matches_module.secrets = saved


def stepping_clock(start: datetime = START, step: timedelta = timedelta(seconds=7)):
    """A clock that moves on by `step` at each reading (timestamps as the service writes them)."""
    now = [start]

    def clock() -> str:
        now[0] += step
        return format_time(now[0])
    return clock


def time_out(service: MatchService, match_id: str, player: str, n: int) -> None:
    """`player`'s turn deadline passes: turn_timed_out and the game's on_timeout events, as the deadline job
    appends them (workers/deadlines.py)."""
    def decide(match, rng):
        events = [agg.new_event(pe.TURN_TIMED_OUT, pe.PLATFORM, player=player)]
        return events + [agg.new_event(ev["type"], pe.GAME, **ev["data"])
                         for ev in match.game.on_timeout(match.game_state, player, rng)]
    service.execute(match_id, None, decide, command_id=f"deadline:{player}:{n}")


def play_one(service: MatchService, history: History, match_id: str, rnd: random.Random) -> None:
    """One step of random play: a legal command of someone to move (an offer only when nothing else is legal),
    now and then a take-back attempt or a turn that times out."""
    match = service.load(match_id)
    player = rnd.choice(sorted(match.active_players()))
    roll = rnd.random()
    if roll < TIMEOUT_SHARE:
        return time_out(service, match_id, player, match.version)
    if roll < TIMEOUT_SHARE + TAKEBACK_SHARE:
        with contextlib.suppress(AppError):
            history.takeback(player, match_id)
            return
    legal = legal_for(match, player)
    plain = [c for c in legal if c["type"] not in match.game.offer_commands] or legal
    command = rnd.choice(plain)
    service.submit(player, match_id, command["type"], command["payload"], command_id=f"c{match.version}")


def play_match(game, seed: str, seats: int) -> dict:
    """Play a match of `game` (a Game at the wanted rules version) to its end in memory; its export document."""
    rnd = random.Random(seed)
    store = GoldenStore(partitions=4)
    service = MatchService(store, {game.id: game}, clock=stepping_clock())
    history = History(store, service, None, {game.id: game})
    options = game.options_schema.load(dict(game.short_options or {}))
    with seeded_secrets(rnd):
        match_id = "m_" + _Seeded(rnd).token_hex(8)
        match = service.create(PLAYERS[0], game.id, options, players=list(PLAYERS[:seats]), match_id=match_id)
        invitations.accept_for_all(service, match)
        for _ in range(MAX_COMMANDS):
            if service.load(match_id).finished:
                return history.export(match_id)
            play_one(service, history, match_id, rnd)
    raise NotFinished(f"{game.id}: the match from seed {seed!r} did not end within {MAX_COMMANDS} commands")


def state_digest(state) -> str:
    """sha256 of a game state's canonical JSON."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


def with_golden(doc: dict, game) -> dict:
    """The export document with `golden`: the final state's digest and the result, as this code folds them."""
    match = agg.fold(doc["match"], doc["events"], {game.id: game})
    return dict(doc, golden={"final_state_sha256": state_digest(match.game_state),
                             "result": json.loads(json.dumps(match.game.result(match.game_state)))})


def golden_text(doc: dict) -> str:
    """The document as JSON with one event per line (small, and a diff shows which events changed)."""
    head = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)}"
            for k, v in doc.items() if k != "events"]
    events = ",\n".join("  " + json.dumps(e, ensure_ascii=False, sort_keys=True) for e in doc["events"])
    return "{\n" + ",\n".join(head) + ',\n "events": [\n' + events + "\n ]\n}\n"


def make_golden(game, count: int, out: Path, say=print) -> list:
    """Write `count` golden matches of `game` (a Game at one rules version) into out/<game>/<version>/; the
    paths written. Match n is seeded by the game, the version and n, and seats n-th player count in turn."""
    folder = Path(out) / game.id / game.rules_version
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for n in range(1, count + 1):
        seats = game.min_players + (n - 1) % min(2, game.max_players - game.min_players + 1)
        doc = with_golden(play_match(game, f"{game.id}:{game.rules_version}:{n}", seats), game)
        path = folder / f"golden-{n}.json"
        path.write_text(golden_text(doc), encoding="utf-8")
        say(f"{path}: {seats} players, {doc['length']} events, {path.stat().st_size // 1024} KB, "
            f"winners {', '.join(doc['golden']['result'].get('winners') or []) or 'none'}")
        written.append(path)
    return written
