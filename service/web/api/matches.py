"""Match endpoints: create, list, join, accept/decline, summary, state, legal commands, submit, events,
chat, rematch."""
from __future__ import annotations

from flask import Blueprint, current_app, g, request
from marshmallow import ValidationError

from domain.bots import NAMES as BOT_NAMES
from domain.engine.bot_seats import seat_bots

from service.app import chat as chat_service
from service.app import invitations
from service.store.seen import SeenVersions
from service.web import schemas
from service.web.errors import ApiError, status_of
from service.metrics import command_observed
from service.web.openapi import IF_NONE_MATCH, documented
from service.web.http import body, body_one_of, current_user, query, wiring

bp = Blueprint("matches", __name__)
MATCH_ID = {"match_id": "$response.body#/id"}


def summary(match) -> dict:
    """The public summary of a live match."""
    return {"id": match.id, "game": match.game_id, "rules_version": match.game.rules_version,
            "status": match.status, "seats": match.seats,
            "players": list(match.players), "version": match.version,
            "active_players": match.active_players(), "result": match.result,
            "created_by": match.created_by, "invited": list(match.invited), "rematch": match.rematch}


@bp.post("/api/matches")
@documented("create a match: invited (`players`) or open (`seats`)", ok=201, body=schemas.CREATE_MATCH,
            auth="required", errors=(422,),
            links={"GetMatch": ("matches.get_match", MATCH_ID), "GetState": ("matches.state", MATCH_ID),
                      "GetLegal": ("matches.legal", MATCH_ID), "SubmitCommand": ("matches.submit", MATCH_ID),
                      "GetEvents": ("matches.events", MATCH_ID), "GetAudit": ("history.audit", MATCH_ID)})
def create_match():
    """Create an invited match (`players`, the creator among them: `invited` until every other player
    accepts, active at once when nobody must), or an open one (`seats`)."""
    user = current_user()
    data = body_one_of(*schemas.CREATE_MATCH)
    w = wiring()
    game = w.games.get(data["game"])
    if game is None:
        raise ApiError(400, "unknown_game", f"no game {data['game']!r}; known: {', '.join(w.games)}")
    if "players" in data:
        missing = w.users.missing(data["players"])
        if missing:
            raise ApiError(400, "unknown_players", f"no users with ids {', '.join(missing)}",
                           fields={"players": [f"unknown user id {m}" for m in missing]})
    try:
        options = game.options_schema.load(data["options"])
    except ValidationError as exc:
        raise ApiError(400, "invalid_options", f"invalid options for {game.title}", fields=exc.messages) from None
    bots = seat_bots(data["bots"])
    w.users.ensure_bots(bots, BOT_NAMES)
    match = w.matches.create(user["id"], game.id, options, players=data.get("players"), seats=data.get("seats"),
                             turn_deadline_hours=data["turn_deadline_hours"], bots=bots,
                             replace_after_timeouts=data["replace_after_timeouts"])
    return summary(match), 201


@bp.get("/api/matches")
@documented("list matches (a projection)", query=schemas.ListMatches)
def list_matches():
    """Matches filtered by status, game and player (from the match-list projection)."""
    q = query(schemas.ListMatches)
    if "game" in q and q["game"] not in wiring().games:
        raise ApiError(400, "invalid_query", f"no game {q['game']!r}", fields={"game": ["unknown game id"]})
    return {"matches": wiring().read_models.list_matches(q.get("status"), q.get("game"), q.get("player"),
                                                         q["limit"])}


@bp.get("/api/matches/<match_id>")
@documented("a match's summary")
def get_match(match_id):
    """A match's summary, and whether it is archived (finished a while ago, its history compacted: it reads the
    same, and takes no more chat)."""
    w = wiring()
    answer = w.matches.read(match_id, summary)
    answer["archived"] = w.store.archived(match_id)
    return answer


@bp.post("/api/matches/<match_id>/join")
@documented("take a seat in an open match", auth="required", errors=(409, 422))
def join_match(match_id):
    """Take a seat in an open match."""
    user = current_user()
    match = wiring().matches.join(user["id"], match_id)
    return wiring().matches.read(match.id, summary)


@bp.post("/api/matches/<match_id>/accept")
@documented("accept your invitation (the last acceptance starts the match)", auth="required", errors=(403, 409))
def accept(match_id):
    """Accept the caller's invitation; the last acceptance starts the match."""
    user = current_user()
    match = invitations.accept(wiring().matches, user["id"], match_id)
    return wiring().matches.read(match.id, summary)


@bp.post("/api/matches/<match_id>/decline")
@documented("decline your invitation (or withdraw your own): the match is cancelled", auth="required",
            errors=(403, 409))
def decline(match_id):
    """Decline the caller's invitation (or withdraw one's own match): the match is cancelled."""
    user = current_user()
    match = invitations.decline(wiring().matches, user["id"], match_id)
    return wiring().matches.read(match.id, summary)


@bp.post("/api/matches/<match_id>/rematch")
@documented("the rematch of a finished match: a new invited match (one per match)", ok=201, auth="required",
            errors=(403, 409, 422))
def rematch(match_id):
    """The rematch of a finished match: same game, seats and options, a new invited match (one per match)."""
    user = current_user()
    match = invitations.rematch(wiring().matches, user["id"], match_id)
    return wiring().matches.read(match.id, summary), 201


@bp.post("/api/matches/<match_id>/chat")
@documented("post a chat message (seated players; spectators read it in the events)", ok=201, body=schemas.Chat,
            auth="required", errors=(403, 409, 422))
def chat(match_id):
    """Post a chat message to the match (seated players; it is an event of the match, not of the game)."""
    user = current_user()
    data = body(schemas.Chat)
    return chat_service.post(wiring().matches, user["id"], match_id, data["text"]), 201


@bp.post("/api/matches/<match_id>/seen")
@documented("the caller has been shown the match up to this version: its entries after it are \"new\" on their "
            "next visit, from any browser", body=schemas.Seen, auth="required", errors=(404,))
def seen(match_id):
    """Remember, for the caller's account, the last version of the match they were shown (it never moves back;
    a version past the match's own is taken as the match's)."""
    user = current_user()
    data = body(schemas.Seen)
    version = min(data["version"], wiring().matches.read(match_id, lambda match: match.version))
    return {"match": match_id, "seen": SeenVersions(wiring().redis).mark(user["id"], match_id, version)}


@bp.get("/api/matches/<match_id>/state")
@documented("the match as the caller (or a spectator) may see it", auth="optional", errors=(304,),
            headers=(IF_NONE_MATCH,))
def state(match_id):
    """The match as the caller (or a spectator) may see it; 304 when If-None-Match names this very state."""
    user = current_user(optional=True)
    payload, tag = wiring().state_views.render(match_id, user["id"] if user else None)
    response = current_app.response_class(payload, mimetype="application/json")
    response.set_etag(tag)
    return response.make_conditional(request)


@bp.get("/api/matches/<match_id>/legal")
@documented("every command the caller may send now", auth="required")
def legal(match_id):
    """Every command the caller may send now."""
    user = current_user()
    version, commands = wiring().matches.legal(user["id"], match_id)
    return {"version": version, "commands": commands}


@bp.post("/api/matches/<match_id>/commands")
@documented("submit a command", ok=201, body=schemas.SubmitCommand, auth="required", errors=(403, 409, 422),
            links={"GetEvents": ("matches.events", {"match_id": "$request.path.match_id",
                                                     "after": "$response.body#/version"})})
def submit(match_id):
    """Submit a game command."""
    user = current_user()
    data = body(schemas.SubmitCommand)
    w = wiring()
    g.command_type = data["type"]
    with command_observed(lambda: w.matches.cached_game(match_id), status_of):
        answer = w.matches.submit(user["id"], match_id, data["type"], data["payload"],
                                  data.get("command_id"), data.get("expected_version"))
    return answer, 201


@bp.get("/api/matches/<match_id>/events")
@documented("events after a version, redacted for the caller", query=schemas.EventsQuery, auth="optional")
def events(match_id):
    """Events after a version, redacted for the caller."""
    user = current_user(optional=True)
    after = query(schemas.EventsQuery)["after"]
    w = wiring()

    def as_seen(match):
        viewer = match.viewer_for(user["id"] if user else None)
        envs = match.envelopes_since(after + 1) if after < match.version else []  # already read by the catch-up
        return {"version": match.version, "events": [match.redact(e, viewer) for e in envs]}

    return w.matches.read(match_id, as_seen)
