"""The OpenAPI 3 document: apispec's marshmallow plugin over the operations the routes declare."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from marshmallow import INCLUDE, Schema, fields, validate

OPENAPI_VERSION = "3.0.3"  # the bundled Swagger UI (4.x) renders 3.0 documents
RULE_PARAM = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
STATUS_TEXT = {
    200: "success", 201: "created", 204: "done, no content",
    304: "not modified: `If-None-Match` names the current `ETag`",
    400: "malformed request: body, query (each parameter given once), parameter or URL (`error.fields` names the "
         "fields)",
    401: "no token, or a token that is not valid", 403: "the caller may not do this here",
    404: "no such resource", 409: "conflict with the current state (stale version, finished or paused match)",
    413: "the request body is too large", 414: "the request line (method and URL) is longer than the server reads "
    "(4,094 bytes)", 422: "the rules forbid it (`error.rule` cites the rule)",
    429: "rate limited; retry after `Retry-After` seconds", 503: "the event store is unreachable; retry shortly",
}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer", "minimum": 0}}}
ETAG = {"ETag": {"description": "names this representation (send it back as If-None-Match)",
                 "schema": {"type": "string"}}}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                 "description": "an ETag this caller holds: 304 without a body while it is still current"}


class ErrorDetail(Schema):
    """The `error` object of every error answer (extra fields such as `rule` or `current_version` may follow)."""

    class Meta:
        unknown = INCLUDE

    code = fields.Str(required=True)
    message = fields.Str(required=True)
    rule = fields.Str()
    fields_ = fields.Dict(data_key="fields")
    current_version = fields.Int()


class Error(Schema):
    """Every error answer: {"error": {"code", "message", ...}}."""

    class Meta:
        unknown = INCLUDE

    error = fields.Nested(ErrorDetail, required=True)


@dataclass(frozen=True)
class Operation:
    """What a route declares about itself for the document; the usual error statuses are derived from it.

    body/query: marshmallow schema classes (400 and, with a body, 413 follow; a tuple of body schemas is
    a oneOf, loaded with http.body_one_of); auth: "required" (401),
    "optional" (a bad token is still a 401) or "none"; errors: the statuses the route's logic adds
    (403, 404, 409, 422, ...); answer: the success body's schema class, if it has one; content: the
    success media type; links: {name: (endpoint, {param: runtime expression})} for stateful tests.
    """

    summary: str
    ok: int = 200
    body: type[Schema] | tuple | None = None
    query: type[Schema] | None = None
    auth: str = "none"
    errors: tuple = ()
    answer: type[Schema] | None = None
    content: str = "application/json"
    store: bool = True
    headers: tuple = ()
    links: dict = field(default_factory=dict)


def documented(summary: str, **declared):
    """Declare the OpenAPI operation of a Flask view (see docs/api.md, "Adding an endpoint")."""
    operation = Operation(summary, **declared)

    def mark(view):
        view.openapi_operation = operation
        return view
    return mark


def undocumented(reason: str):
    """Mark a view under /api deliberately left out of the document (e.g. the docs' own HTML and assets)."""
    def mark(view):
        view.openapi_hidden = reason
        return view
    return mark


def _converter() -> OpenAPIConverter:
    spec = APISpec("turnstream", "1", OPENAPI_VERSION, plugins=[MarshmallowPlugin(lambda schema: None)])
    return spec.plugins[0].converter


_CONVERTER = None


def schema_json(schema) -> dict:
    """The JSON schema of a marshmallow schema (instance or class), as apispec converts it."""
    global _CONVERTER
    if _CONVERTER is None:
        _CONVERTER = _converter()
    return _CONVERTER.schema2jsonschema(schema() if isinstance(schema, type) else schema)


def _statuses(op: Operation, method: str, path: str) -> list[int]:
    codes = {op.ok, *op.errors, 400, 414}  # any request: a URL not UTF-8, a query parameter twice, a request line
    # longer than the server reads
    if op.body or method in MUTATING:
        codes.add(413)
    if op.auth != "none":
        codes.add(401)
    if "{" in path:
        codes.add(404)
    if method in MUTATING:
        codes.add(429)
    if op.store:
        codes.add(503)
    return sorted(codes)


def _responses(op: Operation, method: str, path: str) -> dict:
    out = {}
    for code in _statuses(op, method, path):
        if code == op.ok == 204:
            resp = {"description": STATUS_TEXT[204]}
        elif code == 304:
            resp = {"description": STATUS_TEXT[304], "headers": dict(ETAG)}
        elif code == op.ok:
            schema = op.answer or {"type": "object"}
            if op.content != "application/json":
                schema = {"type": "string"}
            resp = {"description": STATUS_TEXT.get(code, "success"), "content": {op.content: {"schema": schema}}}
            if 304 in op.errors:
                resp["headers"] = dict(ETAG)
            if op.links:
                resp["links"] = {name: {"operationId": target, "parameters": params}
                                 for name, (target, params) in op.links.items()}
        else:
            resp = {"description": STATUS_TEXT[code], "content": {"application/json": {"schema": Error}}}
            if code in (429, 503):
                resp["headers"] = dict(RETRY_AFTER)
        out[str(code)] = resp
    return out


def _path_parameter(name: str, games: dict) -> dict:
    schema = {"type": "string", "enum": list(games)} if name == "game_id" else \
        {"type": "string", "minLength": 1, "maxLength": 128}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def _operation(op: Operation, endpoint: str, method: str, path: str, params: list, games: dict) -> dict:
    out = {"operationId": endpoint, "tags": [endpoint.split(".")[0]], "summary": op.summary,
           "responses": _responses(op, method, path)}
    parameters = [_path_parameter(p, games) for p in params]
    if op.query:
        parameters.append({"in": "query", "schema": with_hosted_enums(op.query, games)})
    parameters.extend(op.headers)
    if parameters:
        out["parameters"] = parameters
    if op.body:
        bodies = [with_hosted_enums(b, games) for b in (op.body if isinstance(op.body, tuple) else (op.body,))]
        required = any(f.required for b in bodies for f in b().fields.values())
        schema = bodies[0] if len(bodies) == 1 else {"oneOf": bodies}
        out["requestBody"] = {"required": required, "content": {"application/json": {"schema": schema}}}
    if op.auth == "required":
        out["security"] = [{"bearer": []}]
    elif op.auth == "optional":
        out["security"] = [{"bearer": []}, {}]
    return out


def hosted_values(games: dict) -> dict:
    """What a field's `metadata={"enum_of": ...}` names: the hosted game ids or every command type."""
    return {"games": list(games), "command_types": sorted({t for g in games.values() for t in g.command_schemas})}


def with_hosted_enums(schema: type[Schema], games: dict) -> type[Schema]:
    """`schema` with each field marked `metadata={"enum_of": ...}` restricted (in the document) to those values."""
    marked = {name: f for name, f in schema._declared_fields.items() if f.metadata.get("enum_of")}
    if not marked:
        return schema
    values = hosted_values(games)
    narrowed = {name: fields.Str(required=f.required, data_key=f.data_key,
                                 validate=validate.OneOf(values[f.metadata["enum_of"]]))
                for name, f in marked.items()}
    return type(schema.__name__, (schema,), {**narrowed, "__doc__": schema.__doc__})


def _rule_path(rule) -> tuple[str, list]:
    """The OpenAPI path of a werkzeug rule (`<conv:name>` -> `{name}`) and its parameter names."""
    return RULE_PARAM.sub(r"{\1}", rule.rule), RULE_PARAM.findall(rule.rule)


def documented_views(app):
    """(rule, method, view) for every route and method of `app`, in rule order."""
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule, method, app.view_functions[rule.endpoint]


def build_document(app, games: dict) -> dict:
    """The whole OpenAPI document: every declared route, each game's option and command schemas."""
    spec = APISpec(title="turnstream", version="0.1.0", openapi_version=OPENAPI_VERSION,
                   plugins=[MarshmallowPlugin(schema_name_resolver=lambda schema: None)],
                   info={"description": "Event-sourced, turn-based board games for play-by-web matches. "
                                        "Interactive reference: /api/docs."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.components.schema("Error", schema=Error)
    named: dict = {}  # a schema class used twice (two commands of one shape) is described once
    for gid, game in games.items():
        for name, sch in [("options", game.options_schema), *game.command_schemas.items()]:
            cls = sch if isinstance(sch, type) else type(sch)
            if cls in named:
                spec.components.schema(f"{gid}.{name}", {"$ref": f"#/components/schemas/{named[cls]}"})
            else:
                named[cls] = f"{gid}.{name}"
                spec.components.schema(f"{gid}.{name}", schema=sch)
    paths: dict = {}
    for rule, method, view in documented_views(app):
        op = getattr(view, "openapi_operation", None)
        if op is None:
            continue
        path, params = _rule_path(rule)
        paths.setdefault(path, {})[method.lower()] = _operation(op, rule.endpoint, method, path, params, games)
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()
