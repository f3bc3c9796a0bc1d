"""Marshmallow schemas for every request body of the HTTP API."""
from __future__ import annotations

from urllib.parse import urlsplit

from marshmallow import Schema, ValidationError, fields, validate, validates

from domain.engine.chat import MAX_LENGTH as CHAT_MAX_LENGTH

from service.app.display_names import MAX_LENGTH as NAME_MAX_LENGTH
from service.app.display_names import display_name
from service.web.json_guard import MAX_VERSION

VERSION_RANGE = validate.Range(min=0, max=MAX_VERSION)  # a version becomes a stream id: 0-<version>


class DisplayName(fields.Str):
    """A player's display name: trimmed, 1 to 40 characters, no control or invisible characters."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return display_name(super()._deserialize(value, attr, data, **kwargs))
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


# the name as it is checked and stored: spaces at either end are trimmed, what is left has 1 to 40 characters
NAME_PATTERN = rf"^\s*\S(?:.{{0,{NAME_MAX_LENGTH - 2}}}\S)?\s*$"


class CreateUser(Schema):
    """POST /api/users."""

    name = DisplayName(required=True, metadata={"minLength": 1, "pattern": NAME_PATTERN})


class UserSearch(Schema):
    """GET /api/users query: players whose display name starts with `name`."""

    name = fields.Str(required=True, validate=validate.Length(min=1, max=40))
    limit = fields.Int(load_default=10, validate=validate.Range(min=1, max=25))


class LeaderboardQuery(Schema):
    """GET /api/games/<id>/leaderboard query: a page of the ratings, best first."""

    offset = fields.Int(load_default=0, validate=validate.Range(min=0, max=10_000_000))
    limit = fields.Int(load_default=100, validate=validate.Range(min=1, max=500))


class Webhook(Schema):
    """PUT /api/users/me/webhook."""

    url = fields.Url(required=True, require_tld=False, schemes={"http", "https"})

    @validates("url")
    def _port_in_range(self, url, **_kwargs):
        """A port a delivery can connect to (1-65535), when the URL names one."""
        try:
            port = urlsplit(url).port
        except ValueError:
            raise ValidationError("the port must be 1-65535") from None
        if port == 0:
            raise ValidationError("the port must be 1-65535")
    secret = fields.Str(validate=validate.Regexp(r"^[\x21-\x7e]{16,128}\Z", error="16-128 printable ASCII "
                                                 "characters, no spaces"),
                        metadata={"description": "the HMAC key of this webhook's signatures (default: a new "
                                                 "random one the first time, then the one you have)"})


class NewMatch(Schema):
    """What every new match names: the game, its options and an optional turn deadline."""

    game = fields.Str(required=True, metadata={"enum_of": "games"})
    options = fields.Dict(keys=fields.Str(), load_default=dict)
    turn_deadline_hours = fields.Float(validate=validate.Range(min=0.001, max=24 * 60), allow_none=True,
                                       load_default=None)
    bots = fields.List(fields.Str(validate=validate.OneOf(["random", "greedy", "mcts"])),
                       validate=validate.Length(max=15), load_default=list)
    replace_after_timeouts = fields.Int(validate=validate.Range(min=1, max=100), strict=True, allow_none=True,
                                        load_default=None)


class InviteMatch(NewMatch):
    """POST /api/matches with `players`: an invited match."""

    players = fields.List(fields.Str(validate=validate.Length(min=1, max=64)), required=True,
                          validate=validate.Length(min=1, max=16))


class OpenMatch(NewMatch):
    """POST /api/matches with `seats`: an open lobby match that others join."""

    seats = fields.Int(required=True, validate=validate.Range(min=1, max=16), strict=True)


CREATE_MATCH = (InviteMatch, OpenMatch)  # exactly one of them: the body names `players` or `seats`


class SubmitCommand(Schema):
    """POST /api/matches/<id>/commands."""

    type = fields.Str(required=True, validate=validate.Length(min=1, max=64), metadata={"enum_of": "command_types"})
    payload = fields.Dict(keys=fields.Str(), load_default=dict)
    command_id = fields.Str(validate=validate.Length(min=1, max=128))
    expected_version = fields.Int(validate=VERSION_RANGE, strict=True)

    @staticmethod
    def fast_load(data: dict) -> dict | None:
        """What `load` answers for the common shape (type, object payload, optional command id: plain
        strings within their lengths), built without marshmallow; None for anything else (load decides)."""
        if not data.keys() <= FAST_COMMAND_KEYS:
            return None
        kind, payload, command_id = data.get("type"), data.get("payload", _ABSENT), data.get("command_id", _ABSENT)
        if type(kind) is not str or not 1 <= len(kind) <= 64:
            return None
        if payload is _ABSENT:
            payload = {}
        elif type(payload) is not dict or not all(type(k) is str for k in payload):
            return None
        loaded = {"type": kind, "payload": dict(payload)}
        if command_id is not _ABSENT:
            if type(command_id) is not str or not 1 <= len(command_id) <= 128:
                return None
            loaded["command_id"] = command_id
        return loaded


_ABSENT = object()
FAST_COMMAND_KEYS = {"type", "payload", "command_id"}


class OpenDispute(Schema):
    """POST /api/matches/<id>/disputes."""

    version = fields.Int(required=True, validate=validate.Range(min=1, max=MAX_VERSION), strict=True)
    reason = fields.Str(required=True, validate=validate.Length(min=1, max=500))


class Chat(Schema):
    """POST /api/matches/<id>/chat."""

    text = fields.Str(required=True, validate=validate.Length(min=1, max=CHAT_MAX_LENGTH))


class Seen(Schema):
    """POST /api/matches/<id>/seen."""

    version = fields.Int(required=True, validate=validate.Range(min=0, max=MAX_VERSION), strict=True)


class Vote(Schema):
    """POST /api/matches/<id>/disputes/<did>/votes."""

    accept = fields.Bool(required=True)


class ListMatches(Schema):
    """GET /api/matches query."""

    status = fields.Str(validate=validate.OneOf(["invited", "open", "active", "finished", "cancelled"]))
    game = fields.Str(metadata={"enum_of": "games"})
    player = fields.Str()
    limit = fields.Int(load_default=50, validate=validate.Range(min=1, max=200))


class EventsQuery(Schema):
    """GET /api/matches/<id>/events query."""

    after = fields.Int(load_default=0, validate=VERSION_RANGE)


class ReplayQuery(Schema):
    """GET /api/matches/<id>/replay query."""

    version = fields.Int(validate=VERSION_RANGE)


class StreamQuery(Schema):
    """GET /api/matches/<id>/stream query (the Last-Event-ID header wins over it)."""

    last_event_id = fields.Int(validate=VERSION_RANGE)


class WatchQuery(Schema):
    """GET /api/users/me/stream and /api/stream query: more matches to follow."""

    watch = fields.Str(validate=validate.Regexp(r"^([A-Za-z0-9_\-]{1,64}(,[A-Za-z0-9_\-]{1,64}){0,49})?$"),
                       metadata={"description": "comma-separated match ids to follow besides your own (at most 50)"})
