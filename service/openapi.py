"""The OpenAPI 3 document, generated from the marshmallow schemas."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from . import schemas


def field_schema(f: fields.Field) -> dict:
    """The JSON schema of one marshmallow field."""
    if isinstance(f, fields.Nested):
        out = schema_json(f.schema)
    elif isinstance(f, fields.List):
        out = {"type": "array", "items": field_schema(f.inner)}
    elif isinstance(f, fields.Dict):
        out = {"type": "object"}
    elif isinstance(f, fields.Bool):
        out = {"type": "boolean"}
    elif isinstance(f, fields.Int):
        out = {"type": "integer"}
    elif isinstance(f, fields.Number):
        out = {"type": "number"}
    elif isinstance(f, fields.Url):
        out = {"type": "string", "format": "uri"}
    elif isinstance(f, fields.Str):
        out = {"type": "string"}
    else:
        out = {}
    for v in f.validators:
        if isinstance(v, validate.OneOf):
            out["enum"] = list(v.choices)
        elif isinstance(v, validate.Range):
            if v.min is not None:
                out["minimum"] = v.min
            if v.max is not None:
                out["maximum"] = v.max
        elif isinstance(v, validate.Length):
            key = "Items" if out.get("type") == "array" else "Length"
            if v.min is not None:
                out[f"min{key}"] = v.min
            if v.max is not None:
                out[f"max{key}"] = v.max
    if f.allow_none:
        out = {"anyOf": [out, {"type": "null"}]} if out else {}
    if f.load_default is not None and not callable(f.load_default) and f.load_default is not fields.missing_:
        out["default"] = f.load_default
    return out


def schema_json(schema: Schema) -> dict:
    """The JSON schema of a marshmallow schema (instance or class)."""
    if isinstance(schema, type):
        schema = schema()
    props, required = {}, []
    for name, f in schema.fields.items():
        if f.dump_only:
            continue
        key = f.data_key or name
        props[key] = field_schema(f)
        if f.required:
            required.append(key)
    out = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = required
    return out


ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["code", "message"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}


def _resp(desc: str) -> dict:
    return {"description": desc, "content": {"application/json": {"schema": {"type": "object"}}}}


def _err(desc: str) -> dict:
    return {"description": desc, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _body(name: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}


def _op(summary, ok="200", body=None, auth=False, errors=(), params=()):
    op = {"summary": summary, "responses": {ok: _resp("success")}}
    for code in errors:
        op["responses"][str(code)] = _err("error")
    if body:
        op["requestBody"] = _body(body)
    if auth:
        op["security"] = [{"bearer": []}]
    if params:
        op["parameters"] = list(params)
    return op


def _path_param(name):
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _query(schema) -> list:
    return [{"name": (f.data_key or n), "in": "query", "required": bool(f.required), "schema": field_schema(f)}
            for n, f in schema().fields.items()]


SSE_HEADER = {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"}}
WATCH = {"name": "watch", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "comma-separated match ids to follow besides your own (at most 50)"}


def _sse_op(summary: str, params: list, errors: tuple) -> dict:
    """A Server-Sent Events endpoint (503 + Retry-After when a cap on open streams is reached)."""
    op = _op(summary, errors=errors + (503,), params=params)
    op["responses"]["200"] = {"description": "an event stream",
                              "content": {"text/event-stream": {"schema": {"type": "string"}}}}
    op["responses"]["503"]["headers"] = {"Retry-After": {"schema": {"type": "integer"}}}
    return op


def _stream_op(mid: dict) -> dict:
    """GET /api/matches/{id}/stream: Server-Sent Events of one match (Bearer optional; never a token in a URL)."""
    return _sse_op("live events (Server-Sent Events, id = version; Last-Event-ID resumes)",
                   [mid, {"name": "last_event_id", "in": "query", "required": False,
                          "schema": {"type": "integer", "minimum": 0}}, SSE_HEADER], (400, 401, 404))


def build_document(games: dict) -> dict:
    """The whole OpenAPI document, with each game's option and command schemas as components."""
    mid = _path_param("match_id")
    components = {name: schema_json(getattr(schemas, name)) for name in
                  ("CreateUser", "Webhook", "CreateMatch", "SubmitCommand", "OpenDispute", "Vote")}
    components["Error"] = ERROR
    for gid, game in games.items():
        components[f"{gid}.options"] = schema_json(game.options_schema)
        for ctype, sch in game.command_schemas.items():
            components[f"{gid}.{ctype}"] = schema_json(sch)
    paths = {
        "/healthz": {"get": _op("health of the service and its Redis", errors=(503,))},
        "/api/users": {"post": _op("create a player", "201", "CreateUser", errors=(400, 413)),
                       "get": _op("players whose display name starts with ?name=", params=_query(schemas.UserSearch),
                                  errors=(400,))},
        "/api/users/me": {"get": _op("who the token belongs to", auth=True, errors=(401,))},
        "/api/users/me/token": {
            "post": _op("a new token; the old one stops working at once", auth=True, errors=(401,)),
            "delete": {**_op("sign out everywhere (no token works any more)", auth=True, errors=(401,)),
                       "responses": {"204": {"description": "signed out"}, "401": _err("error")}}},
        "/api/users/me/webhook": {
            "put": _op("register a webhook", body="Webhook", auth=True, errors=(400, 401)),
            "delete": _op("remove the webhook", auth=True, errors=(401,))},
        "/api/users/me/inbox": {"get": _op("matches waiting for your move", auth=True, errors=(401,))},
        "/api/users/{user_id}": {"get": _op("a player's ratings per game and finished matches with rating changes",
                                            params=[_path_param("user_id")], errors=(404,))},
        "/api/games": {"get": _op("the games, their options and command schemas")},
        "/api/games/{game_id}/leaderboard": {"get": _op("the game's ratings (openskill Plackett-Luce), best first",
                                                        params=[_path_param("game_id")], errors=(404,))},
        "/api/matches": {
            "get": _op("list matches", params=_query(schemas.ListMatches), errors=(400,)),
            "post": _op("create a match", "201", "CreateMatch", auth=True, errors=(400, 401, 404, 422))},
        "/api/matches/{match_id}": {"get": _op("a match's summary", params=[mid], errors=(404,))},
        "/api/matches/{match_id}/join": {"post": _op("take a seat", params=[mid], auth=True,
                                                     errors=(401, 404, 409, 422))},
        "/api/matches/{match_id}/state": {"get": _op("the state as you may see it", params=[mid], errors=(401, 404))},
        "/api/matches/{match_id}/legal": {"get": _op("your legal commands", params=[mid], auth=True,
                                                     errors=(401, 404))},
        "/api/matches/{match_id}/commands": {"post": _op("submit a command", "201", "SubmitCommand", auth=True,
                                                         params=[mid], errors=(400, 401, 403, 404, 409, 422))},
        "/api/matches/{match_id}/events": {"get": _op("events after a version", params=[mid] + _query(schemas.EventsQuery),
                                                      errors=(400, 401, 404))},
        "/api/matches/{match_id}/stream": {"get": _stream_op(mid)},
        "/api/users/me/stream": {"get": {**_sse_op("live events of all your matches (each names its match) and "
                                                   "your inbox changes: one stream for a whole browser",
                                                   [WATCH, SSE_HEADER], (400, 401)), "security": [{"bearer": []}]}},
        "/api/stream": {"get": _sse_op("live events of the watched matches (and, signed in, of all yours)",
                                       [WATCH, SSE_HEADER], (400, 401))},
        "/api/matches/{match_id}/replay": {"get": _op("the view at a version", params=[mid] + _query(schemas.ReplayQuery),
                                                      errors=(400, 401, 404))},
        "/api/matches/{match_id}/audit": {"get": _op("verify the hash chain and randomness", params=[mid], errors=(404,))},
        "/api/matches/{match_id}/takeback": {"post": _op("take back your last command", "201", params=[mid], auth=True,
                                                         errors=(401, 403, 404, 409, 422))},
        "/api/matches/{match_id}/disputes": {
            "get": _op("disputes of a match", params=[mid], errors=(404,)),
            "post": _op("dispute an event", "201", "OpenDispute", params=[mid], auth=True,
                        errors=(400, 401, 403, 404, 409, 422))},
        "/api/matches/{match_id}/disputes/{dispute_id}/votes": {
            "post": _op("vote on a dispute", body="Vote", params=[mid, _path_param("dispute_id")], auth=True,
                        errors=(400, 401, 403, 404, 409, 422))},
    }
    return {"openapi": "3.0.3",
            "info": {"title": "turnstream", "version": "0.1.0",
                     "description": "Event-sourced, turn-based board games for play-by-web matches."},
            "paths": paths,
            "components": {"schemas": components,
                           "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}}}
