"""History endpoints: replay at a version, audit, take-back, disputes and votes."""
from __future__ import annotations

from flask import Blueprint

from service.web import schemas
from service.app.history import History
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
