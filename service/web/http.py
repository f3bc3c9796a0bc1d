"""Request helpers shared by the blueprints: JSON bodies through schemas, the caller, the wiring."""
from __future__ import annotations

from functools import cache

from flask import current_app, g, request
from marshmallow import ValidationError

from service.bootstrap import Wiring
from service.web.errors import ApiError
from service.web.json_guard import parse_body


def wiring() -> Wiring:
    """The dependencies wired by create_app (service/bootstrap.py)."""
    return current_app.extensions["turnstream"]


def hosted_games() -> dict | None:
    """The games this app hosts ({id: Game}), or None outside an app wired by create_app."""
    w = current_app.extensions.get("turnstream") if current_app else None
    return w.games if w is not None else None


@cache
def schema_instance(schema_class):
    """One instance per schema class for the process (building a schema costs more than loading with it)."""
    return schema_class()


def body(schema_class) -> dict:
    """The request's JSON body loaded through `schema_class` (its `fast_load` first, when it has one), or a 400."""
    data = json_object()
    fast = getattr(schema_class, "fast_load", None)
    loaded = fast(data) if fast is not None else None
    return loaded if loaded is not None else load(schema_instance(schema_class), data)


def body_one_of(*schema_classes) -> dict:
    """The JSON body loaded through the one schema (of `schema_classes`) whose own required fields it has
    (an OpenAPI oneOf), or a 400."""
    data = json_object()
    own = [{n for n, f in schema_instance(s).fields.items() if f.required} for s in schema_classes]
    shared = set.intersection(*own)
    fitting = [s for s, names in zip(schema_classes, own) if names - shared <= data.keys()]
    if len(fitting) != 1:
        choices = " or ".join(", ".join(sorted(names - shared)) for names in own)
        raise ApiError(400, "invalid_body", f"send exactly one of: {choices}")
    return load(schema_instance(fitting[0]), data)


def json_object() -> dict:
    """The request's JSON body as a dict ({} when empty), or a 400."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        data = {}
    elif not request.is_json:
        raise ApiError(400, "malformed_json", "the request body is not valid JSON (send Content-Type: application/json)")
    else:
        data = parse_body(raw, current_app.json.loads)
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_body", "the request body must be a JSON object")
    return data


def load(schema, data) -> dict:
    """Load `data` through `schema`, turning field errors into a 400."""
    try:
        return schema.load(data)
    except ValidationError as exc:
        raise ApiError(400, "invalid_body", "the request has invalid fields", fields=exc.messages) from None


def query(schema_class) -> dict:
    """The query string loaded through `schema_class`, or a 400."""
    try:
        return schema_instance(schema_class).load(request.args.to_dict())
    except ValidationError as exc:
        raise ApiError(400, "invalid_query", "the query string has invalid parameters",
                       fields=exc.messages) from None


def bearer_token() -> str | None:
    """The Bearer token of the request, if any."""
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


def current_user(optional: bool = False) -> dict | None:
    """The authenticated caller (401 unless optional and no token was sent)."""
    if "user" not in g:
        token = bearer_token()
        if token is None and optional:
            g.user = None
        else:
            g.user = wiring().users.authenticate(token)
    return g.user
