"""Malformed input stops at the door: request JSON parsed with a nesting limit and valid strings only, paths
and query strings that are UTF-8, and the largest integer a version (a stream id) may be.

Everything refused here is a 400 JSON error before any schema, handler or Redis call sees it: deep
nesting would otherwise recurse through the schema, the canonical JSON and deep copies; a lone
surrogate ("\\ud800") cannot be encoded as UTF-8 for Redis; bytes that are not UTF-8 cannot be text.
"""
from __future__ import annotations

import re
from collections import Counter
from urllib.parse import parse_qsl, unquote_to_bytes

from service.app.ids import ID_SHAPES  # the ids a URL may name; `turnstream import` checks the same shapes
from service.web.errors import ApiError

MAX_DEPTH = 32  # nesting levels of arrays and objects in a request body
MAX_VERSION = 2 ** 53 - 1  # the largest version (stream id) a request may name: exact in every JSON reader
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def too_deep(value, limit: int = MAX_DEPTH) -> bool:
    """True if arrays and objects nest deeper than `limit` levels in a parsed JSON value (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def has_invalid_string(value) -> bool:
    """True if a parsed JSON value holds a str (key or value) that is not encodable as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _bracket_depth(raw: bytes) -> int:
    """The deepest nesting of [ and { outside strings in JSON text (for naming why a parse failed)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _refuse(code: str, message: str) -> ApiError:
    return ApiError(400, code, message)


def _invalid_string() -> ApiError:
    return _refuse("invalid_string", "the request holds a string that is not valid Unicode text "
                                     "(bytes that are not UTF-8, or half of a surrogate pair)")


def _too_deep() -> ApiError:
    return _refuse("too_deeply_nested", f"the request body nests arrays and objects more than {MAX_DEPTH} levels deep")


def parse_body(raw: bytes, loads):
    """Parse a request body with `loads` (the app's JSON reader), or raise the 400 that names what is wrong."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _invalid_string() from None
    try:
        value = loads(raw)
    except (ValueError, RecursionError):
        if _bracket_depth(raw) > MAX_DEPTH:
            raise _too_deep() from None
        if _SURROGATE_ESCAPE.search(raw):
            raise _invalid_string() from None
        raise _refuse("malformed_json", "the request body is not valid JSON") from None
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and too_deep(value):
        raise _too_deep()
    if _SURROGATE_ESCAPE.search(raw) and has_invalid_string(value):
        raise _invalid_string()
    return value


def check_url(environ: dict) -> None:
    """Raise a 400 unless the request's path and query string are UTF-8 once percent-decoded (read from the
    raw request URI when the server gives it, since some servers already replaced bad bytes in PATH_INFO), and
    unless an API request gives each query parameter one value (query values are scalars)."""
    check_utf8(environ)
    if environ.get("PATH_INFO", "").startswith("/api/"):
        check_scalars(environ.get("QUERY_STRING", ""))


def check_scalars(query_string: str) -> None:
    """Raise a 400 naming every query parameter given more than once (no API parameter is a list)."""
    if "&" not in query_string and ";" not in query_string:
        return
    counts = Counter(name for name, _value in parse_qsl(query_string, keep_blank_values=True))
    twice = sorted(name for name, n in counts.items() if n > 1)
    if twice:
        raise ApiError(400, "invalid_query", "each query parameter takes one value",
                       fields={name: ["given more than once"] for name in twice})


def check_utf8(environ: dict) -> None:
    """Raise a 400 unless the path and query string are UTF-8 once percent-decoded."""
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    try:
        if raw is not None:
            unquote_to_bytes(raw.encode("latin-1")).decode("utf-8")
            return
        environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8")
        unquote_to_bytes(environ.get("QUERY_STRING", "")).decode("utf-8")
    except (UnicodeDecodeError, UnicodeEncodeError):
        raise _invalid_string() from None


def check_ids(values: dict) -> None:
    """Raise a 404 when a URL's match or user id cannot be one (so it never reaches a Redis key name)."""
    for name, shape in ID_SHAPES.items():
        value = values.get(name)
        if value is not None and not shape.fullmatch(value):
            raise ApiError(404, "not_found", f"no {name.removesuffix('_id')} with that id")
