"""GET /api/matches/<id>/suggestion: learning by playing, the move the greedy bot would make for the caller and why."""
from __future__ import annotations

from flask import Blueprint
from marshmallow import Schema, fields

from service.app.suggestions import suggest
from service.web.actions import command_words
from service.web.http import current_user, wiring
from service.web.openapi import documented
from service.web.suggestion_words import why

bp = Blueprint("suggestions", __name__)


class SuggestionAnswer(Schema):
    """A suggested move: the command to send, the words of its button and why, in the caller's language."""

    command = fields.Dict(required=True, metadata={"description": "{type, payload}, as GET /legal lists it"})
    text = fields.Str(required=True, metadata={"description": "the move in the words of its button"})
    why = fields.Str(required=True, metadata={"description": "how the move changes the caller's lead"})
    version = fields.Int(required=True, metadata={"description": "the match version it was suggested at"})


@bp.get("/api/matches/<match_id>/suggestion")
@documented("the move the greedy bot would make for the caller and why, in the caller's language (Accept-Language): "
            "seated, to move, in an active match where every other seat is a bot (else 403 suggestions_off)",
            auth="required", errors=(403, 409, 422), answer=SuggestionAnswer)
def suggestion(match_id):
    """The greedy bot's choice from the caller's information set, with the words of its button and its reason."""
    user = current_user()
    w = wiring()
    found = suggest(w.matches, user["id"], match_id)
    command = {"type": found.advice.command["type"], "payload": found.advice.command.get("payload") or {}}
    names = w.users.names(found.players)
    return {"command": command, "text": command_words(found.game, found.state, command, names),
            "why": why(found.advice), "version": found.version}
