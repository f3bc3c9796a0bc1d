"""Moving a running match to a newer rules version: the operator's migration, or the seated players' unanimous vote.

Every decision is the domain's (domain/engine/rules_upgrade.py), run under the match lock by MatchService.execute;
refusals come back as RuleRefused (422) or Conflict (409) citing their `platform:rules.*` rule. A proposal closes at
its deadline (TURNSTREAM_DISPUTE_HOURS) the way a dispute does: an RQ job, or the next access past it.
"""
from __future__ import annotations

from domain.engine import platform_events as pe
from domain.engine import rules_upgrade as ru

from service.app.errors import NotFound, NotSeated
from service.app.vote_deadlines import DEFAULT_HOURS, deadline_after, expire_when_due, expiry_queue, schedule_expiry

EXPIRE_JOB = "workers.history_jobs.expire_rules_proposal"


def proposal_shown(m) -> dict | None:
    """The open proposal of a running match as /state shows it: {"id", "from", "to", "by", "accepted", "voters",
    "expires_at"}, or None."""
    p = ru.open_proposal(m) if m.status == "active" else None
    if p is None:
        return None
    return {"id": p["id"], "from": p["from"], "to": p["to"], "by": p["by"], "voters": ru.voters(m, p),
            "accepted": [v for v, yes in p["votes"].items() if yes], "expires_at": p.get("deadline")}


class RulesUpgrades:
    """The rules-version moves of matches, over the match service."""

    def __init__(self, matches, queue_factory=None, hours: float = DEFAULT_HOURS):
        self.matches = matches
        self.queue_factory = queue_factory
        self.hours = hours

    @classmethod
    def from_wiring(cls, w) -> "RulesUpgrades":
        """The rules-upgrade use cases of a wiring (proposals close after its dispute hours)."""
        return cls(w.matches, expiry_queue(w), w.settings.dispute_hours)

    @property
    def games(self) -> dict:
        return self.matches.games

    def migrate(self, match_id: str, to_version: str) -> dict:
        """The operator's move: append `rules_upgraded` (no player acts); {"version", "from", "to"}."""
        answer = self.matches.execute(match_id, None, lambda m, rng: ru.decide_upgrade(m, to_version, self.games))
        event = next(e for e in answer["events"] if e["type"] == pe.RULES_UPGRADED)
        return {"version": answer["version"], "from": event["data"]["from"], "to": event["data"]["to"]}

    @staticmethod
    def _seated(match, actor: str) -> None:
        if actor not in match.players:
            raise NotSeated("you are not seated in this match")

    def propose(self, actor: str, match_id: str, to_version: str) -> dict:
        """A seated player proposes rules `to_version`; the other seated players vote until the deadline, whose
        expiry is scheduled (nobody else to ask: done at once)."""
        self.expire_overdue(match_id)
        deadline = deadline_after(self.matches.clock(), self.hours)

        def decide(match, rng):
            self._seated(match, actor)
            return ru.decide_propose(match, actor, to_version, self.games, deadline)

        answer = self.matches.execute(match_id, actor, decide)
        proposed = answer["events"][0]["data"]
        status = ru.ACCEPTED if any(e["type"] == pe.RULES_UPGRADED for e in answer["events"]) else ru.OPEN
        if status == ru.OPEN:
            schedule_expiry(self.queue_factory, self.hours, EXPIRE_JOB, match_id, proposed["proposal"],
                            f"rules-{match_id}-{proposed['proposal']}")
        return {"id": proposed["proposal"], "status": status, "from": proposed["from"], "to": proposed["to"],
                "version": answer["version"], "deadline": deadline}

    def vote(self, actor: str, match_id: str, accept: bool) -> dict:
        """A seated player votes on the open proposal; its status after the vote."""
        self.expire_overdue(match_id)

        def decide(match, rng):
            self._seated(match, actor)
            return ru.decide_vote(match, actor, accept, self.games)

        answer = self.matches.execute(match_id, actor, decide)
        voted = answer["events"][0]["data"]
        status, reason = ru.OPEN, None
        for env in answer["events"]:
            if env["type"] == pe.RULES_UPGRADED:
                status = ru.ACCEPTED
            elif env["type"] == pe.RULES_UPGRADE_REJECTED:
                status, reason = ru.REJECTED, env["data"].get("reason")
        out = {"id": voted["proposal"], "status": status, "version": answer["version"]}
        if reason:
            out["reason"] = reason
        return out

    def status(self, match_id: str) -> dict:
        """The match's rules version, the newer ones it may move to and its latest proposal (votes, voters)."""
        self.expire_overdue(match_id)

        def facts(m):
            proposal = m.rules_proposal
            if proposal is not None:
                proposal = dict(proposal, votes=dict(proposal["votes"]), voters=ru.voters(m, proposal))
            return {"rules_version": m.game.rules_version, "newer": ru.newer_versions(m, self.games),
                    "proposal": proposal}
        return self.matches.read(match_id, facts)

    def expire(self, match_id: str, proposal_id: str, now: str | None = None) -> str:
        """Close a proposal whose deadline has passed without every vote (idempotent); its status."""
        now = now or self.matches.clock()

        def facts(m):  # (the proposal's status or None if unknown, whether its deadline has passed while open)
            p = m.rules_proposal
            known = p is not None and p["id"] == proposal_id
            return (p["status"] if known else None), ru.expiry_due(m, proposal_id, now)

        status = expire_when_due(self.matches, match_id, facts, lambda m: ru.decide_expire(m, proposal_id, now))
        if status is None:
            raise NotFound.of("rules proposal", proposal_id)
        return status

    def expire_overdue(self, match_id: str) -> None:
        """Close the open proposal of a match if its deadline has passed (a lost expiry job cannot keep it open)."""
        now = self.matches.clock()

        def overdue(m):
            p = ru.open_proposal(m)
            return p["id"] if p is not None and ru.expiry_due(m, p["id"], now) else None

        proposal_id = self.matches.read(match_id, overdue)
        if proposal_id is not None:
            self.expire(match_id, proposal_id, now)
