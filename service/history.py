"""History of a match: replay at a version, audit, export, take-back, disputes, and a replay seek benchmark."""
from __future__ import annotations

import json
import logging
import time
from datetime import timedelta

from domain.engine import ALL
from domain.engine import aggregate as agg
from domain.engine import audit as audit_mod
from domain.engine import disputes as disputes_mod
from domain.engine import platform_events as pe
from domain.engine import undo
from domain.engine.commands import first_version
from domain.engine.timestamps import format_time, parse_time

from .errors import ApiError, not_found
from .standings import names_sentence

log = logging.getLogger("turnstream.history")
EXPORT_FORMAT = "turnstream-export/1"
DEFAULT_DISPUTE_HOURS = 48.0
EXPIRE_JOB = "workers.history_jobs.expire_dispute"
SETUP_WINDOW = 256  # how far back a dispute looks for match_started to tell the opening setup apart


class History:
    """Replay, audit, export, take-back and disputes over the event store and the match service."""

    def __init__(self, store, matches, snapshots, games: dict, users=None, queue_factory=None,
                 dispute_hours: float = DEFAULT_DISPUTE_HOURS):
        self.store = store
        self.matches = matches
        self.snapshots = snapshots
        self.games = games
        self.users = users
        self.queue_factory = queue_factory
        self.dispute_hours = dispute_hours

    @classmethod
    def from_wiring(cls, w) -> "History":
        """The history service of a wiring."""
        from rq import Queue

        from .connections import make_queue_redis

        hours = w.settings.dispute_hours
        return cls(w.store, w.matches, w.matches.snapshots, w.games, w.users,
                   lambda: Queue("default", connection=make_queue_redis(w.settings)), hours)

    # -- replay --------------------------------------------------------------------------------
    def state_at(self, match_id: str, version: int, use_snapshots: bool = True) -> agg.Match:
        """The match folded at `version`, starting from the nearest snapshot at or before it."""
        start = None
        if use_snapshots and self.snapshots is not None:
            start = self.snapshots.at_or_before(match_id, version, self.games)
        match = start if start is not None else agg.Match(id=match_id)
        if version > match.version:
            agg.fold(match_id, self.store.read_range(match_id, match.version + 1, version), self.games, into=match)
        return match

    @staticmethod
    def _seen_at(at, finished: bool, viewer: str | None) -> dict:
        """The replay answer for the match folded at some version, as `viewer` sees it (all once finished)."""
        if at.game_state is None:
            view = {}
        elif finished:
            view = at.game.view(at.game_state, ALL)
        else:
            view = at.view(viewer)
        return {"version": at.version, "view": view, "status": at.status, "players": list(at.players),
                "active_players": at.active_players()}

    def replay(self, match_id: str, version: int | None, user_id: str | None) -> dict:
        """The match at `version` as the caller may see it (everything once the match has finished)."""
        def at_head(m):
            viewer = m.viewer_for(user_id)
            answer = self._seen_at(m, m.finished, viewer) if version in (None, m.version) else None
            return m, viewer, m.version, m.finished, answer

        live, viewer, head, finished, answer = self.matches.read(match_id, at_head)
        if answer is None:
            if not 0 <= version <= head:
                raise ApiError(400, "version_out_of_range", f"this match has versions 0..{head}, not {version}",
                               current_version=head)
            answer = self._seen_at(self.state_at(match_id, version), finished, viewer)
        v = answer["version"]
        answer["event"] = live.redact(self.store.read_range(match_id, v, v)[0], viewer) if v else None
        answer["latest_version"] = head
        return answer

    def move_log(self, match_id: str, user_id: str | None = None, upto: int | None = None) -> list:
        """[(version, sentence)] for every event up to `upto`, redacted for the viewer, reverted ones marked."""
        live, effective, people = self.matches.read(
            match_id, lambda m: (m, set(m.effective), list(m.players) + ([m.created_by] if m.created_by else [])))
        viewer = live.viewer_for(user_id)
        names = self.users.names(people) if self.users is not None else {}
        last = live.version if upto is None else upto
        lines = []
        for env in self.store.read_range(match_id, 1, last) if last > 0 else []:
            seen = live.redact(env, viewer)
            sentence = describe(live.game, seen, lambda uid: names.get(uid, uid or "someone"))
            if env["scope"] == pe.GAME and env["version"] not in effective:
                sentence += " (taken back)"
            lines.append((env["version"], sentence))
        return lines

    # -- audit and export ----------------------------------------------------------------------
    def _stored(self, match_id: str) -> tuple[list, dict]:
        envelopes = self.store.read_range(match_id, 1)
        meta = self.store.r.hgetall(self.store.keys.meta(match_id))
        if not envelopes and not meta:
            raise not_found("match", match_id)
        return envelopes, meta

    def audit(self, match_id: str, kept_heads: list | None = None) -> dict:
        """Re-verify a stored match: hash chain against the store's head (salted chains with the match's
        secret seed, which stays on the server), commitment, revealed draws, heads (version, hash) kept."""
        envelopes, meta = self._stored(match_id)
        secret = self.store.secret(match_id)
        return audit_mod.audit(match_id, envelopes, self.games, claimed_length=int(meta.get("version") or 0),
                               claimed_head=meta.get("head"), seed=bytes.fromhex(secret) if secret else None,
                               kept_heads=kept_heads)

    def export(self, match_id: str) -> dict:
        """One JSON document with every stored event, the head, the commitment and the seed once revealed.

        It is the operator's full copy (hidden information included); the seed is only in it once
        `seed_revealed` is, so an export never lets anyone re-derive future draws."""
        envelopes, meta = self._stored(match_id)
        created = next((e for e in envelopes if e["type"] == pe.MATCH_CREATED), {"data": {}})
        revealed = next((e for e in envelopes if e["type"] == pe.SEED_REVEALED), None)
        return {"format": EXPORT_FORMAT, "match": match_id, "game": created["data"].get("game"),
                "status": meta.get("status"), "length": int(meta.get("version") or 0), "head": meta.get("head"),
                "commitment": created["data"].get("commitment"),
                "seed": revealed["data"]["seed"] if revealed else None, "events": envelopes}

    # -- take-back and disputes ----------------------------------------------------------------
    @staticmethod
    def _seated(match, actor: str) -> None:
        if actor not in match.players:
            raise ApiError(403, "not_seated", "you are not seated in this match")

    def takeback(self, actor: str, match_id: str) -> dict:
        """Take back the caller's last command (moves_reverted), or 422 citing the platform:undo rule."""
        self.expire_overdue(match_id)

        def decide(match, rng):
            self._seated(match, actor)
            return undo.decide_takeback(match, actor)

        answer = self.matches.execute(match_id, actor, decide)
        reverted = next(e for e in answer["events"] if e["type"] == pe.MOVES_REVERTED)
        return {"version": answer["version"], "from_version": reverted["data"]["from_version"],
                "events": answer["events"]}

    def open_dispute(self, actor: str, match_id: str, version: int, reason: str) -> dict:
        """Open a dispute on event `version`; schedules its expiry at the deadline."""
        self.expire_overdue(match_id)
        deadline = format_time(parse_time(self.matches.clock()) + timedelta(hours=self.dispute_hours))
        window = self.store.read_range(match_id, max(1, version - SETUP_WINDOW), version)

        def decide(match, rng):
            self._seated(match, actor)
            return disputes_mod.decide_open(match, actor, version, reason, deadline, window)

        answer = self.matches.execute(match_id, actor, decide)
        dispute_id = answer["events"][0]["data"]["dispute"]
        self.schedule_expiry(match_id, dispute_id)
        return {"id": dispute_id, "status": disputes_mod.OPEN, "version": version, "deadline": deadline}

    def schedule_expiry(self, match_id: str, dispute_id: str) -> bool:
        """Enqueue the expiry job at the dispute's deadline (RQ enqueue_in); False if the queue is unreachable."""
        if self.queue_factory is None:
            return False
        from redis.exceptions import RedisError
        from rq import Retry

        try:
            self.queue_factory().enqueue_in(timedelta(hours=self.dispute_hours), EXPIRE_JOB, match_id, dispute_id,
                                            job_id=f"dispute-{match_id}-{dispute_id}", result_ttl=0,
                                            retry=Retry(max=3, interval=[10, 60, 300]))
            return True
        except RedisError as exc:
            log.warning("cannot schedule the expiry of %s/%s (it expires on the next access): %s",
                        match_id, dispute_id, exc)
            return False

    def vote(self, actor: str, match_id: str, dispute_id: str, accept: bool) -> dict:
        """Vote on an open dispute; answer its status after the vote."""
        self.expire_overdue(match_id)

        def decide(match, rng):
            self._seated(match, actor)
            if dispute_id not in match.disputes:
                raise not_found("dispute", dispute_id)
            return disputes_mod.decide_vote(match, actor, dispute_id, accept)

        answer = self.matches.execute(match_id, actor, decide)
        status = disputes_mod.OPEN
        for env in answer["events"]:
            if env["type"] == pe.DISPUTE_RESOLVED:
                status = env["data"]["status"]
        return {"id": dispute_id, "status": status, "version": answer["version"]}

    def disputes(self, match_id: str, user_id: str | None) -> list:
        """Every dispute of a match, with the disputed event as the caller may see it and `reverts_from`: the
        first version of the disputed command, from which an acceptance reverts."""
        self.expire_overdue(match_id)
        live, found = self.matches.read(match_id, lambda m: (m, [
            dict(d, votes=dict(d["votes"]), reverts_from=first_version(m, d["version"])) for d in m.disputes.values()]))
        viewer = live.viewer_for(user_id)
        out = []
        for d in found:
            stored = self.store.read_range(match_id, d["version"], d["version"])
            out.append({"id": d["id"], "status": d["status"], "version": d["version"], "reason": d["reason"],
                        "reverts_from": d["reverts_from"], "by": d["by"], "deadline": d["deadline"],
                        "votes": dict(d["votes"]), "voters": disputes_mod.voters(live, d),
                        "event": live.redact(stored[0], viewer) if stored else None})
        return out

    def _dispute_status(self, match_id: str, dispute_id: str, now: str) -> tuple[str | None, bool]:
        """(the dispute's status or None if unknown, whether its deadline has passed while open)."""
        def facts(m):
            dispute = m.disputes.get(dispute_id)
            return (dispute["status"] if dispute else None), disputes_mod.expiry_due(m, dispute_id, now)
        return self.matches.read(match_id, facts)

    def expire(self, match_id: str, dispute_id: str, now: str | None = None) -> str:
        """Reject a dispute whose deadline has passed (idempotent); return the dispute's status."""
        now = now or self.matches.clock()
        status, due = self._dispute_status(match_id, dispute_id, now)
        if status is None:
            raise not_found("dispute", dispute_id)
        if not due:
            return status
        try:
            self.matches.execute(match_id, None, lambda m, rng: disputes_mod.decide_expire(m, dispute_id, now))
        except ApiError as exc:
            if exc.status != 422:
                raise
        return self._dispute_status(match_id, dispute_id, now)[0]

    def expire_overdue(self, match_id: str) -> None:
        """Expire the open dispute of a match if its deadline has passed (a lost expiry job cannot stall it)."""
        now = self.matches.clock()

        def overdue(m):
            dispute = m.open_dispute()
            return dispute["id"] if dispute and disputes_mod.expiry_due(m, dispute["id"], now) else None

        dispute_id = self.matches.read(match_id, overdue)
        if dispute_id is not None:
            self.expire(match_id, dispute_id, now)


# -- describing events ---------------------------------------------------------------------------
def _platform_sentence(env: dict, name, game) -> str:
    d = env.get("data") or {}
    t = env["type"]
    if t == pe.MATCH_CREATED:
        return f"{name(env.get('actor'))} created a {getattr(game, 'title', d.get('game'))} match for {d.get('seats')} players"
    if t == pe.PLAYER_JOINED:
        return f"{name(d.get('player'))} joined"
    if t == pe.MATCH_STARTED:
        return "the match started with " + ", ".join(name(p) for p in d.get("players", []))
    if t == pe.MOVES_REVERTED:
        span = f"v{d.get('from_version')}-v{d.get('to_version')}"
        if d.get("cause") == "dispute":
            return f"the dispute was upheld: the moves of {span} were overturned"
        return f"{name(env.get('actor'))} took back their last move ({span})"
    if t == pe.DISPUTE_OPENED:
        return f"{name(d.get('by'))} disputed the move v{d.get('version')}: {d.get('reason')}"
    if t == pe.DISPUTE_VOTED:
        return f"{name(d.get('player'))} voted to {'accept' if d.get('accept') else 'reject'} the dispute"
    if t == pe.DISPUTE_RESOLVED:
        why = " (its deadline passed)" if d.get("cause") == "deadline" else ""
        return f"the dispute was {d.get('status')}{why}"
    if t == pe.TURN_TIMED_OUT:
        return f"{name(d.get('player'))}'s turn timed out"
    if t == pe.STAND_IN_STARTED:
        return (f"{name(d.get('player'))} timed out {d.get('after_timeouts')} turns in a row: the {d.get('bot')} bot "
                f"plays for them until they move again")
    if t == pe.STAND_IN_ENDED:
        return f"{name(d.get('player'))} is back and plays their own seat again"
    if t == pe.MATCH_FINISHED:
        winners = (d.get("result") or {}).get("winners") or []
        return "the match is over: " + (f"{names_sentence([name(p) for p in winners])} won" if winners else "nobody won")
    if t == pe.INVITATION_ACCEPTED:
        return f"{name(d.get('player'))} accepted the invitation"
    if t == pe.INVITATION_DECLINED:
        return f"{name(d.get('player'))} declined the invitation"
    if t == pe.MATCH_CANCELLED:
        return "the match was cancelled before it started"
    if t == pe.CHAT_POSTED:  # plain text: whoever renders it escapes it like any other sentence
        return f"{name(env.get('actor'))} said: \u201c{str(d.get('text', ''))}\u201d"
    if t == pe.REMATCH_CREATED:
        return f"{name(d.get('by'))} asked for a rematch ({d.get('match')})"
    if t == pe.SEED_REVEALED:
        return f"the random seed was revealed ({str(d.get('seed'))[:16]}...): every draw can now be audited"
    return t.replace("_", " ")


def describe(game, env: dict, name) -> str:
    """One readable sentence for a (redacted) envelope: the game's describe, or the platform's own."""
    if env["scope"] == pe.PLATFORM:
        return _platform_sentence(env, name, game)
    if env.get("data") is None:
        return f"{name(env.get('actor'))}: a hidden {env['type'].replace('_', ' ')}"
    try:
        return game.describe({"type": env["type"], "data": env["data"]}, name)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return f"{env['type'].replace('_', ' ')} by {name(env.get('actor'))}"


# -- offline audit -------------------------------------------------------------------------------
def audit_export(doc, games: dict | None = None, kept_heads: list | None = None) -> dict:
    """Audit an export document offline (no Redis): its events, its claims of head, commitment and seed,
    and the heads (version, hash) a player kept while the match ran."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT or not isinstance(doc.get("events"), list) \
            or not all(isinstance(e, dict) for e in doc["events"]):
        raise ValueError(f"not a {EXPORT_FORMAT} document")
    report = audit_mod.audit(str(doc.get("match")), doc["events"], games, claimed_length=doc.get("length"),
                             claimed_head=doc.get("head"), kept_heads=kept_heads)
    rnd = report["randomness"]
    if doc.get("commitment") != rnd["commitment"]:
        report["problems"].append("the document's commitment differs from the one in match_created")
    revealed = next((e for e in doc["events"] if e.get("type") == pe.SEED_REVEALED), None)
    if doc.get("seed") is not None and (revealed is None or revealed["data"].get("seed") != doc["seed"]):
        report["problems"].append("the document's seed differs from the revealed one")
    if report["problems"]:
        report["ok"] = False
        if rnd["revealed"]:
            rnd["verified"] = False
    return report


# -- benchmark -----------------------------------------------------------------------------------
def measure_seek(history: History, match_id: str, seeks: int = 50, counter=None) -> dict:
    """Time `seeks` replays spread over a match, with and without snapshots; milliseconds per seek.

    `counter` (optional) is a callable returning how many events have been evolved so far; with it
    the report also gives the most events one seek folded."""
    head = history.store.version(match_id)
    if head < 1:
        raise not_found("match", match_id)
    step = max(1, head // seeks)
    targets = [min(head, (i + 1) * step - 1 or 1) for i in range(seeks)]
    report = {"match": match_id, "events": head, "seeks": len(targets),
              "snapshot_every": getattr(history.snapshots, "every", None)}
    for label, use in (("with_snapshots", True), ("without_snapshots", False)):
        worst = 0
        began = time.perf_counter()
        for v in targets:
            before = counter() if counter else 0
            history.state_at(match_id, v, use_snapshots=use)
            worst = max(worst, (counter() if counter else 0) - before)
        elapsed = time.perf_counter() - began
        report[label] = {"ms_per_seek": round(1000 * elapsed / len(targets), 3)}
        if counter:
            report[label]["max_events_folded"] = worst
    return report


def load_export(path: str) -> dict:
    """Read an export document from a file."""
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)

