"""Re-check a stored match under the rules it is pinned to: would this code replay it the same way?

Pure (no I/O). The events are folded one by one; what the code derives is derived again and compared with
what was stored: the opening setup (from its recorded draws), each game command's events (some legal
command of its actor, decided on the state that command saw with its recorded draws, must give exactly the
recorded events), each turn timeout's events (`on_timeout`), and the result `match_finished` recorded (as the
platform derives it: players who conceded ranked last, a match ended by a concession won by the seat left).
The rules are always the folded match's own (`m.game`), so a `rules_upgraded` event switches them.

The answer is {"status": "identical" | "changed" | "broken", "version", "rules", "reason"}: changed when a
re-derivation differs (at the first differing event), broken when the events do not even fold.
"""
from __future__ import annotations

import json
from collections import Counter

from . import platform_events as pe
from .aggregate import Match, game_events
from .audit import check_setup
from .commands import same_command
from .results import match_result
from .json_codec import canonical_json, compact_json, loads
from .rng import ReplayRng

IDENTICAL, CHANGED, BROKEN = "identical", "changed", "broken"


def _one_line(exc: BaseException) -> str:
    """An exception as one line: its type and message."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _plain(value):
    """A value as stored JSON gives it back (tuples become lists): a deep copy of a JSON value, fast."""
    return loads(compact_json(value))


def _same(got: list, want: list) -> bool:
    """True when derived events equal the recorded ones (as JSON)."""
    if got == want:
        return True
    return [e["type"] for e in got] == [e["type"] for e in want] and canonical_json(got) == canonical_json(want)


def _first_difference(got: list, want: list) -> int:
    """The index of the first event where `got` and `want` differ (the shorter length when one is a prefix)."""
    got = _plain(got)
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return i
    return min(len(got), len(want))


def _differs(got: list, want: list, envs: list) -> tuple[int, str]:
    """(the version of the first recorded event that differs, what differs) of a re-derivation."""
    i = _first_difference(got, want)
    version = envs[min(i, len(envs) - 1)]["version"] if envs else None
    if i >= len(want):
        return version, f"the rules add {got[i]['type']} after the recorded events"
    if i >= len(got):
        return version, f"recorded {want[i]['type']} is no longer derived"
    if got[i]["type"] != want[i]["type"]:
        return version, f"recorded {want[i]['type']}, the rules give {got[i]['type']}"
    keys = sorted(k for k in set(want[i]["data"]) | set(got[i]["data"])
                  if want[i]["data"].get(k) != _plain(got[i]["data"]).get(k))
    return version, f"{want[i]['type']} differs in {', '.join(keys) or 'its data'}"


def _as_read(game, env: dict) -> dict:
    """A stored game event as the rules read it: {"type", "data"}, upcast when they declare an `upcast`."""
    event = {"type": env["type"], "data": env["data"]}
    upcast = getattr(game, "upcast", None)
    return event if upcast is None else upcast(event)


def _platform(env: dict, type_: str) -> bool:
    """True when `env` is the platform event `type_`."""
    return env.get("type") == type_ and env.get("scope") == pe.PLATFORM


def _decided(game, state: dict, actor: str, command: dict, draws: list) -> list | None:
    """The events `command` gives with the recorded draws, or None when refused or not using all of them."""
    rng = ReplayRng(draws)
    try:
        got = game_events(game, state, actor, command, rng)
    except Exception:  # refused (or failing): not the command that was sent
        return None
    return [{"type": e["type"], "data": e["data"]} for e in got] if len(rng.draws) == len(draws) else None


def _unmatched(actor: str, outcomes: list, want: list, game_envs: list) -> tuple:
    """(version, reason) when no legal command gives the recorded events (`outcomes`: what each one gave)."""
    if not outcomes:
        return game_envs[0]["version"], f"{actor} has no legal command here, yet {want[0]['type']} was recorded"
    tried = [got for got in outcomes if got is not None]
    if not tried:
        return game_envs[0]["version"], (f"none of the {len(outcomes)} legal commands of {actor} is accepted with "
                                         f"the recorded draws (recorded {want[0]['type']})")
    closest = max(tried, key=lambda got: _first_difference(got, want))
    version, what = _differs(closest, want, game_envs)
    return version, f"no legal command of {actor} gives the recorded events; the closest: {what}"


def command_groups(envelopes: list):
    """The envelopes split into what one command appended: a run sharing a command marker (`cmd`), a run of
    game events of one actor and time (before markers existed), or a single envelope (creation, seats, the
    start and each opening setup event)."""
    i, n = 0, len(envelopes)
    while i < n:
        env, j = envelopes[i], i + 1
        if env.get("cmd") is not None:
            while j < n and envelopes[j].get("cmd") == env["cmd"]:
                j += 1
        elif env.get("scope") == pe.GAME and env.get("actor") is not None:
            while j < n and envelopes[j].get("scope") == pe.GAME and same_command(envelopes[j], env):
                j += 1
        yield envelopes[i:j]
        i = j


class _Recheck:
    """The state of one re-check: the incremental fold and the first difference found."""

    def __init__(self, match_id: str, games: dict, learned: dict):
        self.m = Match(id=match_id)
        self.games = games
        self.learned = learned  # (game id, first event type) -> Counter of command types that gave it
        self.outcome = None
        self.ended = None  # the version after which the rules ended the game (match_finished is due)

    def stop(self, status: str, version, reason: str) -> None:
        """Record the first difference (or failure to fold)."""
        rules = getattr(self.m.game, "rules_version", None)
        self.outcome = {"status": status, "version": version, "rules": rules, "reason": reason}

    def apply(self, env: dict) -> bool:
        """Fold one envelope; False (and broken) when the fold raises."""
        try:
            self.m.apply(env, self.games)
            return True
        except Exception as exc:  # any failure to fold is the finding
            self.stop(BROKEN, env.get("version"), f"{env.get('type')} does not fold: {_one_line(exc)}")
            return False

    def group(self, envs: list, all_envelopes: list) -> None:
        """Fold one command's envelopes, re-deriving its game events and its result on the way."""
        game_envs = [e for e in envs if e.get("scope") == pe.GAME]
        timeout = next((e for e in envs if _platform(e, pe.TURN_TIMED_OUT)), None)
        draws = [d for e in envs for d in (e.get("rng") or ())]
        derivable = timeout is not None or bool(game_envs and game_envs[0].get("actor") is not None)
        for env in envs:
            if self.ended is not None and not _platform(env, pe.MATCH_FINISHED):
                return self.stop(CHANGED, self.ended, "the game ends here under these rules, yet the match went on")
            if derivable and (env is (game_envs or [None])[0]) and not self.rederive(game_envs, timeout, draws):
                return
            if _platform(env, pe.MATCH_FINISHED):
                if not self.result(env):
                    return
                self.ended = None
            if not self.apply(env):
                return
            if _platform(env, pe.MATCH_STARTED) and not self.setup(env, all_envelopes):
                return
        if timeout is not None and not game_envs and not self.rederive([], timeout, draws):
            return
        if game_envs and derivable:
            self.ends_after(envs[-1])

    def setup(self, started: dict, envelopes: list) -> bool:
        """The opening setup re-derives from its recorded draws (audit.check_setup)."""
        try:
            problems = check_setup(self.m.game, envelopes)
        except Exception as exc:  # the pinned rules cannot even deal the setup
            problems = [f"setup raises {_one_line(exc)}"]
        if problems:
            self.stop(CHANGED, started["version"] + 1, "; ".join(problems))
        return not problems

    def rederive(self, game_envs: list, timeout: dict | None, draws: list) -> bool:
        """A command's (or a timeout's) recorded game events are what the rules give on the state it saw."""
        want = [_as_read(self.m.game, e) for e in game_envs]
        if timeout is not None:
            return self.timed_out(timeout, want, game_envs, draws)
        return self.commanded(game_envs[0].get("actor"), want, game_envs, draws)

    def timed_out(self, timeout: dict, want: list, game_envs: list, draws: list) -> bool:
        """The game events after turn_timed_out are on_timeout's."""
        player = (timeout.get("data") or {}).get("player")
        rng = ReplayRng(draws)
        try:
            got = self.m.game.on_timeout(_plain(self.m.game_state), player, rng)
            got = [{"type": e["type"], "data": e["data"]} for e in got]
        except Exception as exc:  # the pinned rules refuse what they once did
            self.stop(CHANGED, (game_envs or [timeout])[0]["version"],
                      f"the turn timeout of {player} raises {_one_line(exc)}")
            return False
        if not _same(got, want):
            version, what = _differs(got, want, game_envs or [timeout])
        elif len(rng.draws) != len(draws):
            version, what = timeout["version"], f"{len(draws) - len(rng.draws)} recorded draws are left unused"
        else:
            return True
        self.stop(CHANGED, version, f"the turn timeout of {player}: {what}")
        return False

    def commanded(self, actor: str, want: list, game_envs: list, draws: list) -> bool:
        """Some legal command of `actor`, decided with the recorded draws, gives exactly the recorded events."""
        game, state = self.m.game, self.m.game_state
        try:
            legal = game.legal_commands(state, actor)
        except Exception as exc:  # the pinned rules cannot list the moves of this state
            self.stop(CHANGED, game_envs[0]["version"], f"legal_commands of {actor} raises {_one_line(exc)}")
            return False
        seen = _plain(state)
        key = (game.id, want[0]["type"])
        for command in self.ordered(key, legal, want[0]["data"]):
            got = _decided(game, seen, actor, command, draws)
            if got is not None and _same(got, want):
                self.learned.setdefault(key, Counter())[command["type"]] += 1
                return True
        self.stop(CHANGED, *_unmatched(actor, [_decided(game, seen, actor, c, draws) for c in legal], want, game_envs))
        return False

    def ordered(self, key: tuple, legal: list, first: dict) -> list:
        """The legal commands, likeliest first: of a type that gave such events before, then with more payload
        fields echoed in the first recorded event (most checks end at the first command tried)."""
        counts = self.learned.get(key) or {}

        def likely(command: dict) -> tuple:
            payload = command.get("payload") or {}
            return -counts.get(command["type"], 0), -sum(1 for k, v in payload.items() if first.get(k) == v)
        return sorted(legal, key=likely) if len(legal) > 1 else legal

    def outcome_now(self) -> dict | None:
        """The result the match would record now (results.match_result on the folded match)."""
        return match_result(self.m.game, self.m.game_state, self.m.conceded, self.m.players)

    def result(self, finished: dict) -> bool:
        """match_finished records the result the rules (and the concessions) give for the state it ends."""
        try:
            want = self.outcome_now()
        except Exception as exc:  # the pinned rules cannot score this state
            self.stop(CHANGED, finished["version"], f"result raises {_one_line(exc)}")
            return False
        recorded = (finished.get("data") or {}).get("result")
        if want is not None and (want == recorded or _plain(want) == recorded):
            return True
        self.stop(CHANGED, finished["version"], "the match is not over under these rules" if want is None else
                  f"the result differs: recorded {json.dumps(recorded, sort_keys=True)}, "
                  f"the rules give {json.dumps(_plain(want), sort_keys=True)}")
        return False

    def ends_after(self, last: dict) -> None:
        """Note when a command ends the game under these rules: match_finished must come next."""
        if self.m.status != "active" or self.m.game_state is None:
            return
        try:
            over = self.outcome_now()
        except Exception as exc:  # the pinned rules cannot score this state
            return self.stop(CHANGED, last["version"], f"result raises {_one_line(exc)}")
        if over is not None:
            self.ended = last["version"]

    def end(self) -> None:
        """At the end of the stream: a game the rules ended has its match_finished."""
        if self.outcome is None and self.ended is not None:
            self.stop(CHANGED, self.ended, "the game ends here under these rules, yet no match_finished follows")


def recheck(match_id: str, envelopes: list, games: dict, learned: dict | None = None) -> dict:
    """Fold a match's stored envelopes under its pinned rules, re-deriving every derivable event: identical,
    changed (at the first version that differs) or broken (the events do not fold). `learned` (shared between
    calls) remembers which command types gave which events, so the right command is tried first."""
    run = _Recheck(match_id, games, learned if learned is not None else {})
    for envs in command_groups(envelopes):
        run.group(envs, envelopes)
        if run.outcome is not None:
            return run.outcome
    run.end()
    if run.outcome is not None:
        return run.outcome
    return {"status": IDENTICAL, "version": None, "rules": getattr(run.m.game, "rules_version", None), "reason": None}
