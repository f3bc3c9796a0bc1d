"""History of a match: replay at a version, audit, export, take-back and disputes."""
from __future__ import annotations

from domain.engine import ALL
from domain.engine import aggregate as agg
from domain.engine import audit as audit_mod
from domain.engine import disputes as disputes_mod
from domain.engine import platform_events as pe
from domain.engine import undo
from domain.engine.commands import first_version

from service.app.audit import EXPORT_FORMAT
from service.app.errors import Invalid, NotFound, NotSeated
from service.app.move_log import describe
from service.app.vote_deadlines import DEFAULT_HOURS as DEFAULT_DISPUTE_HOURS
from service.app.vote_deadlines import deadline_after, expire_when_due, expiry_queue, schedule_expiry

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
        return cls(w.store, w.matches, w.matches.snapshots, w.games, w.users, expiry_queue(w), w.settings.dispute_hours)

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
        if version is not None and self.matches.cache.get(match_id) is None and self.store.archived(match_id):
            answer = self._archived_replay(match_id, version, user_id)
            if answer is not None:
                return answer

        def at_head(m):
            viewer = m.viewer_for(user_id)
            answer = self._seen_at(m, m.finished, viewer) if version in (None, m.version) else None
            return m, viewer, m.version, m.finished, answer

        live, viewer, head, finished, answer = self.matches.read(match_id, at_head)
        if answer is None:
            if not 0 <= version <= head:
                raise Invalid(f"this match has versions 0..{head}, not {version}", "version_out_of_range",
                              current_version=head)
            answer = self._seen_at(self.state_at(match_id, version), finished, viewer)
        v = answer["version"]
        answer["event"] = live.redact(self.store.read_range(match_id, v, v)[0], viewer) if v else None
        answer["latest_version"] = head
        return answer

    def _archived_replay(self, match_id: str, version: int, user_id: str | None) -> dict | None:
        """`replay` of an archived match this process has not folded: its events folded once, up to `version`
        only (an archived match has finished and keeps no snapshots); None where the general path is needed (the
        head itself, or rules upgraded after `version`: the head's rules redact)."""
        found = self.store.archived_bodies(match_id, version)
        if found is None:  # archived, then restored live meanwhile: the general path
            return None
        head, envelopes, later = found
        if not 0 <= version <= head:
            raise Invalid(f"this match has versions 0..{head}, not {version}", "version_out_of_range",
                          current_version=head)
        if version == head or pe.RULES_UPGRADED in later:
            return None
        at = agg.fold(match_id, envelopes, self.games) if version else agg.Match(id=match_id)
        viewer = at.viewer_for(user_id)
        answer = self._seen_at(at, True, viewer)
        answer["event"] = at.redact(envelopes[-1], viewer, finished=True) if version else None
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
        rules = live.game  # each event is described by the rules version that judged it (rules_upgraded moves it)
        for env in self.store.read_range(match_id, 1, last) if last > 0 else []:
            seen = live.redact(env, viewer)
            sentence = describe(rules, seen, lambda uid: names.get(uid, uid or "someone"))
            rules = self._rules_after(live, env, rules)
            if env["scope"] == pe.GAME and env["version"] not in effective:
                sentence += " (taken back)"
            lines.append((env["version"], sentence))
        return lines

    def _rules_after(self, live, env: dict, rules):
        """The game that judges the events after `env`: the version match_created or rules_upgraded names (the
        match's current game when that version cannot be loaded here)."""
        if env["scope"] != pe.PLATFORM or env["type"] not in (pe.MATCH_CREATED, pe.RULES_UPGRADED):
            return rules
        version = env["data"].get("rules_version") if env["type"] == pe.MATCH_CREATED else env["data"].get("to")
        try:
            return self.games[live.game_id].at(version)
        except (KeyError, ValueError, ImportError, OSError):
            return live.game

    # -- audit and export ----------------------------------------------------------------------
    def _stored(self, match_id: str) -> tuple[list, dict]:
        envelopes = self.store.read_range(match_id, 1)
        meta = self.store.meta(match_id)
        if not envelopes and not meta:
            raise NotFound.of("match", match_id)
        return envelopes, meta

    def audit(self, match_id: str, kept_heads: list | None = None) -> dict:
        """Re-verify a stored match: hash chain against the store's head (salted chains with the match's
        secret seed, which stays on the server), commitment, revealed draws, heads (version, hash) kept by players
        and by the newest replay snapshot (a stream shorter than a head once held moved backwards)."""
        envelopes, meta = self._stored(match_id)
        secret = self.store.secret(match_id)
        report = audit_mod.audit(match_id, envelopes, self.games, claimed_length=int(meta.get("version") or 0),
                                 claimed_head=meta.get("head"), seed=bytes.fromhex(secret) if secret else None,
                                 kept_heads=kept_heads)
        snapshot = self.snapshots.newest_head(match_id) if self.snapshots is not None else None
        _, lost = audit_mod.check_kept_heads(envelopes, [snapshot] if snapshot else [])  # a head the server held
        return dict(report, ok=False, problems=report["problems"] + lost) if lost else report

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
            raise NotSeated("you are not seated in this match")

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
        deadline = deadline_after(self.matches.clock(), self.dispute_hours)
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
        return schedule_expiry(self.queue_factory, self.dispute_hours, EXPIRE_JOB, match_id, dispute_id,
                               f"dispute-{match_id}-{dispute_id}")

    def vote(self, actor: str, match_id: str, dispute_id: str, accept: bool) -> dict:
        """Vote on an open dispute; answer its status after the vote."""
        self.expire_overdue(match_id)

        def decide(match, rng):
            self._seated(match, actor)
            if dispute_id not in match.disputes:
                raise NotFound.of("dispute", dispute_id)
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

    def expire(self, match_id: str, dispute_id: str, now: str | None = None) -> str:
        """Reject a dispute whose deadline has passed (idempotent); return the dispute's status."""
        now = now or self.matches.clock()

        def facts(m):  # (the dispute's status or None if unknown, whether its deadline has passed while open)
            dispute = m.disputes.get(dispute_id)
            return (dispute["status"] if dispute else None), disputes_mod.expiry_due(m, dispute_id, now)

        status = expire_when_due(self.matches, match_id, facts, lambda m: disputes_mod.decide_expire(m, dispute_id, now))
        if status is None:
            raise NotFound.of("dispute", dispute_id)
        return status

    def expire_overdue(self, match_id: str) -> None:
        """Expire the open dispute of a match if its deadline has passed (a lost expiry job cannot stall it)."""
        now = self.matches.clock()

        def overdue(m):
            dispute = m.open_dispute()
            return dispute["id"] if dispute and disputes_mod.expiry_due(m, dispute["id"], now) else None

        dispute_id = self.matches.read(match_id, overdue)
        if dispute_id is not None:
            self.expire(match_id, dispute_id, now)
