"""JSON for the hot paths: orjson where it writes exactly what the standard library writes, the library otherwise.

The hash chain covers canonical JSON, so its bytes may never change: orjson with sorted keys writes the
same bytes as `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)` for every value a
JSON document can hold (the tests compare both on generated values). What orjson refuses (keys that are
not strings, integers beyond 64 bits, lone surrogates) and what it writes differently (floats)
goes to the standard library, as before.
"""
from __future__ import annotations

import json
import re

import orjson

_SORTED = orjson.OPT_SORT_KEYS
# orjson writes some floats differently (6.1e-05 as 0.000061, 1e-08 as 1e-8): output holding a float (a
# number with "." or "e" where a value starts; a string that merely looks like one too) is written by the
# standard library instead. NaN and infinities, which are not JSON, orjson writes as null.
_FLOAT = re.compile(rb'(?:^|":|[,\[])-?[0-9]+[.eE]').search
# orjson reads an integer beyond 64 bits as a float (the hash of its event would change): text with a run of
# 19 digits or more, which is where such integers hide, is read by the standard library instead
_LONG_DIGITS = {str: re.compile(r"\d{19}").search, bytes: re.compile(rb"\d{19}").search}


def canonical_json(value) -> str:
    """JSON with sorted keys and no insignificant whitespace."""
    try:
        out = orjson.dumps(value, option=_SORTED)
    except TypeError:
        out = None
    if out is None or _FLOAT(out):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return out.decode()


def compact_json(value) -> str:
    """JSON in the order of the value's keys, with no insignificant whitespace."""
    try:
        out = orjson.dumps(value)
    except TypeError:
        out = None
    if out is None or _FLOAT(out):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return out.decode()


def loads(raw):
    """Parse JSON text (str or bytes) exactly as `json.loads` does: orjson unless the text may hold an integer
    beyond 64 bits, the standard library for that and for what orjson refuses (NaN, lone surrogates)."""
    search = _LONG_DIGITS.get(type(raw))
    if search is not None and search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)
