"""POST /api/matches/<id>/concede: a seated player gives an active match up."""
from __future__ import annotations

from flask import Blueprint

from service.app.concede import concede as concede_match
from service.web.http import current_user, wiring
from service.web.openapi import documented

bp = Blueprint("concede", __name__)


@bp.post("/api/matches/<match_id>/concede")
@documented("concede: the caller is ranked last; a two-player match ends, in a larger one a stand-in bot plays "
            "the seat from now on", ok=201, auth="required", errors=(403, 409, 422))
def concede(match_id):
    """The caller concedes this match."""
    user = current_user()
    return concede_match(wiring().matches, user["id"], match_id), 201
