"""Moving a running match to a newer rules version: the operator's migration, or the seated players' unanimous vote.

Every decision is the domain's (domain/engine/rules_upgrade.py), run under the match lock by MatchService.execute;
refusals come back as RuleRefused (422) or Conflict (409) citing their `platform:rules.*` rule.
"""
from __future__ import annotations

from domain.engine import platform_events as pe
from domain.engine import rules_upgrade as ru

from service.app.errors import NotSeated


class RulesUpgrades:
    """The rules-version moves of matches, over the match service."""

    def __init__(self, matches):
        self.matches = matches

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
        """A seated player proposes rules `to_version`; the other seated players vote (nobody else to ask: done)."""
        def decide(match, rng):
            self._seated(match, actor)
            return ru.decide_propose(match, actor, to_version, self.games)

        answer = self.matches.execute(match_id, actor, decide)
        proposed = answer["events"][0]["data"]
        status = ru.ACCEPTED if any(e["type"] == pe.RULES_UPGRADED for e in answer["events"]) else ru.OPEN
        return {"id": proposed["proposal"], "status": status, "from": proposed["from"], "to": proposed["to"],
                "version": answer["version"]}

    def vote(self, actor: str, match_id: str, accept: bool) -> dict:
        """A seated player votes on the open proposal; its status after the vote."""
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
        def facts(m):
            proposal = m.rules_proposal
            if proposal is not None:
                proposal = dict(proposal, votes=dict(proposal["votes"]), voters=ru.voters(m, proposal))
            return {"rules_version": m.game.rules_version, "newer": ru.newer_versions(m, self.games),
                    "proposal": proposal}
        return self.matches.read(match_id, facts)
