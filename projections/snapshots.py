"""Replay snapshots: a match's folded state every K versions (Match <-> JSON), written by the projection job.

Snapshots live in one hash per match, `field = version`, in the match's partition slot. Seeking to
version v starts from the snapshot at or before v and folds fewer than K events; a cold load starts
from the latest one. A Match loaded from a snapshot lacks the envelopes before it: it gets a
`history(start, end)` reader so a revert can still refold the effective history.
"""
from __future__ import annotations

from functools import partial

from domain.engine.aggregate import Match
from domain.engine.json_codec import compact_json, loads

FORMAT = 2  # 2: the rules version is kept (a snapshot of format 1 is ignored and the match folded)
WRITTEN_MEMO = 100_000  # matches whose latest snapshot version a process remembers
FIELDS = ("id", "game_id", "status", "seats", "players", "options", "created_by", "commitment", "version",
          "head", "draws", "game_state", "result", "seed", "turn_deadline_hours", "disputes",
          "replace_after_timeouts", "timeouts", "stand_ins", "finished_at", "invited", "rematch", "rules_proposal",
          "conceded")


def to_ranges(versions: list) -> list:
    """Sorted ints as [[first, last], ...] runs of consecutive values."""
    runs = []
    for v in versions:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return runs


def from_ranges(runs: list) -> list:
    """The ints of [[first, last], ...] runs."""
    return [v for first, last in runs for v in range(first, last + 1)]


def to_json(match: Match) -> dict:
    """A folded match as a JSON-able document (its envelopes are not included)."""
    doc = {name: getattr(match, name) for name in FIELDS}
    doc["chain"] = match.chain
    doc["rules_version"] = match.game.rules_version  # the rules the match is judged by at this version
    doc["format"] = FORMAT
    doc["effective"] = to_ranges(match.effective)
    return loads(compact_json(doc))


def from_json(doc: dict, games: dict, history=None) -> Match | None:
    """The Match a snapshot document describes (None if its game or format is unknown)."""
    if doc.get("format") != FORMAT or doc.get("game_id") not in games:
        return None
    match = Match(id=doc["id"])
    for name in FIELDS:
        if name in doc:  # a snapshot written before a field existed keeps the field's default
            setattr(match, name, doc[name])
    try:
        match.game = games[doc["game_id"]].at(doc.get("rules_version"))
    except ValueError:  # a version this process does not have: fold from the events (which say why)
        return None
    match.effective = from_ranges(doc["effective"])
    match.chain = doc.get("chain", 1)  # snapshots written before the field are of format-1 matches
    match.base = doc["version"]
    match.history = history
    return match


class SnapshotStore:
    """Reads and writes the replay snapshots of matches; `history(match_id, start, end)` reads events."""

    def __init__(self, redis_client, keys, every: int, games: dict, history):
        if every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self.r = redis_client
        self.keys = keys
        self.every = every
        self.games = games
        self.history = history
        self._written: dict = {}  # match id -> the latest snapshot version known to exist (spares a read)

    def versions(self, match_id: str) -> list:
        """The versions that have a snapshot, ascending."""
        return sorted(int(v) for v in self.r.hkeys(self.keys.snapshot(match_id)))

    def at_or_before(self, match_id: str, version: int, games: dict | None = None) -> Match | None:
        """The match folded at the latest snapshot whose version is <= `version`, or None."""
        eligible = [v for v in self.versions(match_id) if v <= version]
        if not eligible:
            return None
        raw = self.r.hget(self.keys.snapshot(match_id), str(eligible[-1]))
        if raw is None:
            return None
        return from_json(loads(raw), games or self.games, partial(self.history, match_id))

    def latest(self, match_id: str, games: dict | None = None) -> Match | None:
        """For a cold load: the latest snapshot strictly before the head (so at least the head event is
        folded after it and the loaded match holds its latest envelope), or None."""
        pipe = self.r.pipeline(transaction=False)
        pipe.hkeys(self.keys.snapshot(match_id))
        pipe.hget(self.keys.meta(match_id), "version")
        fields, head = pipe.execute()
        versions = sorted(int(v) for v in fields if int(v) < int(head or 0))
        return self.at_or_before(match_id, versions[-1], games) if versions else None

    def newest_head(self, match_id: str) -> tuple[int, str] | None:
        """(version, head hash) of the newest snapshot: a head the server once held, whatever the stream says now."""
        versions = self.versions(match_id)
        raw = self.r.hget(self.keys.snapshot(match_id), str(versions[-1])) if versions else None
        doc = loads(raw) if raw is not None else None
        return (int(doc["version"]), doc["head"]) if doc and doc.get("head") else None

    def write_due(self, matches: list) -> int:
        """Write a snapshot at every multiple of K up to each match's version not yet written; return the count."""
        written = 0
        for match in matches:
            target = match.version - match.version % self.every
            if target == 0 or self._written.get(match.id, -1) >= target:
                continue  # none due yet, or this process wrote (or saw) the one due
            versions = self.versions(match.id)
            last = versions[-1] if versions else 0
            self._remember(match.id, last)
            if target <= last:
                continue
            start = self.at_or_before(match.id, last) if last else None
            current = start if start is not None else Match(id=match.id)
            envelopes = self.history(match.id, current.version + 1, target)
            docs = {}
            for env in envelopes:
                current.apply(env, self.games)
                if current.version % self.every == 0 and current.version > last:
                    docs[str(current.version)] = compact_json(to_json(current))
            if docs:
                self.r.hset(self.keys.snapshot(match.id), mapping=docs)
                written += len(docs)
                self._remember(match.id, max(int(v) for v in docs))
        return written

    def _remember(self, match_id: str, version: int) -> None:
        """Note the latest snapshot known of a match (a bounded memo: forgotten wholesale when full)."""
        if len(self._written) >= WRITTEN_MEMO:
            self._written.clear()
        self._written[match_id] = version
