"""History endpoints: replay at a version, audit, take-back, disputes and votes, moving to newer rules by a vote."""
from __future__ import annotations

from flask import Blueprint
from marshmallow import Schema, fields, validate

from service.web import schemas
from service.app.history import History
from service.app.rules_upgrade import RulesUpgrades
from service.web.openapi import documented
from service.web.http import body, current_user, query, wiring

bp = Blueprint("history", __name__)


def history() -> History:
    """The history service of the app's wiring."""
    return History.from_wiring(wiring())


def _caller_id(optional: bool) -> str | None:
    user = current_user(optional=optional)
    return user["id"] if user else None


@bp.get("/api/matches/<match_id>/replay")
@documented("the view at a version", query=schemas.ReplayQuery, auth="optional")
def replay(match_id):
    """The match at ?version=v as the caller may see it (everything once finished)."""
    version = query(schemas.ReplayQuery).get("version")
    return history().replay(match_id, version, _caller_id(optional=True))


@bp.get("/api/matches/<match_id>/audit")
@documented("verify the hash chain and the randomness")
def audit(match_id):
    """Re-verify the hash chain, the randomness commitment and, once revealed, every draw."""
    return history().audit(match_id)


@bp.post("/api/matches/<match_id>/takeback")
@documented("take back your last command", ok=201, auth="required", errors=(403, 409, 422))
def takeback(match_id):
    """Take back the caller's own last command when the take-back policy allows it."""
    user = current_user()
    return history().takeback(user["id"], match_id), 201


@bp.post("/api/matches/<match_id>/disputes")
@documented("dispute an event", ok=201, body=schemas.OpenDispute, auth="required", errors=(403, 409, 422))
def open_dispute(match_id):
    """Dispute an event version with a reason; the other seated players vote."""
    user = current_user()
    data = body(schemas.OpenDispute)
    return history().open_dispute(user["id"], match_id, data["version"], data["reason"]), 201


@bp.get("/api/matches/<match_id>/disputes")
@documented("the match's disputes", auth="optional")
def list_disputes(match_id):
    """The match's disputes, the disputed events shown as the caller may see them."""
    return {"disputes": history().disputes(match_id, _caller_id(optional=True))}


@bp.post("/api/matches/<match_id>/disputes/<dispute_id>/votes")
@documented("vote on a dispute", body=schemas.Vote, auth="required", errors=(403, 409, 422))
def vote(match_id, dispute_id):
    """Accept or reject a dispute."""
    user = current_user()
    data = body(schemas.Vote)
    return history().vote(user["id"], match_id, dispute_id, data["accept"])


class RulesUpgradeProposal(Schema):
    """POST /api/matches/<id>/rules-upgrade: the rules version to move the match to (a newer installed one)."""

    to = fields.Str(required=True, validate=validate.Length(min=1, max=64))


def rules_upgrades() -> RulesUpgrades:
    """The rules-upgrade use cases of the app's wiring."""
    return RulesUpgrades.from_wiring(wiring())


@bp.get("/api/matches/<match_id>/rules-upgrade")
@documented("the match's rules version, the newer ones and the latest proposal to move")
def rules_upgrade_status(match_id):
    """The version the match is judged by, the newer installed ones, and the latest proposal (votes, voters)."""
    return rules_upgrades().status(match_id)


@bp.post("/api/matches/<match_id>/rules-upgrade")
@documented("propose moving the match to newer rules", ok=201, body=RulesUpgradeProposal, auth="required",
            errors=(403, 409, 422))
def propose_rules_upgrade(match_id):
    """A seated player proposes a newer rules version; every other seated player votes (unanimous: rules_upgraded).
    Refused (422, `platform:rules.*`) when the version is unknown or not newer, or the history does not fold."""
    user = current_user()
    data = body(RulesUpgradeProposal)
    return rules_upgrades().propose(user["id"], match_id, data["to"]), 201


@bp.post("/api/matches/<match_id>/rules-upgrade/votes")
@documented("vote on the proposed rules", body=schemas.Vote, auth="required", errors=(403, 409, 422))
def vote_rules_upgrade(match_id):
    """Accept or reject the open proposal: any rejection rejects it, the last acceptance moves the match."""
    user = current_user()
    data = body(schemas.Vote)
    return rules_upgrades().vote(user["id"], match_id, data["accept"])


# -- the contract's names for the same proposal (docs/api-contract.md, "Rules versions") ----------------------------
@bp.post("/api/matches/<match_id>/rules-proposal")
@documented("propose moving the match to newer rules (as POST /rules-upgrade)", ok=201, body=RulesUpgradeProposal,
            auth="required", errors=(403, 409, 422))
def propose_rules(match_id):
    """A seated player proposes a newer rules version; the other players accept or decline until the deadline."""
    user = current_user()
    data = body(RulesUpgradeProposal)
    return rules_upgrades().propose(user["id"], match_id, data["to"]), 201


@bp.post("/api/matches/<match_id>/rules-proposal/accept")
@documented("accept the proposed rules", auth="required", errors=(403, 409, 422))
def accept_rules_proposal(match_id):
    """Accept the open proposal: the last acceptance moves the match to its rules."""
    return rules_upgrades().vote(current_user()["id"], match_id, True)


@bp.post("/api/matches/<match_id>/rules-proposal/decline")
@documented("decline the proposed rules", auth="required", errors=(403, 409, 422))
def decline_rules_proposal(match_id):
    """Decline the open proposal: the match keeps its rules."""
    return rules_upgrades().vote(current_user()["id"], match_id, False)
