"""JSON for the hot paths: orjson where it gives what the standard library gives, the library otherwise.

- `canonical_json` (what the hash chain covers) must keep its exact bytes: orjson with sorted keys writes
  the bytes of `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)` for every string,
  integer, list and object, but some floats differently (6.1e-05 as 0.00006103515625, 1e-08 as 1e-8).
  Output that may hold such a float (an exponent, or a decimal starting 0.0000; a string that merely looks
  like one too) is written by the standard library instead.
- `compact_json` (storage) only has to read back as the same values: orjson, whose floats round-trip.
- `loads` reads what `json.loads` reads: orjson, except for text with a run of 19 digits, where an integer
  beyond 64 bits may hide (orjson would read it as a float), and what orjson refuses (NaN, lone surrogates).

What orjson refuses to write (keys that are not strings, integers beyond 64 bits, lone surrogates) is written
by the standard library. NaN and infinities, which are not JSON, orjson writes as null.
"""
from __future__ import annotations

import json
import re

import orjson

_SORTED = orjson.OPT_SORT_KEYS
_EXPONENT = re.compile(rb"[0-9][eE][-+0-9]").search
_SMALL_DECIMAL = b"0.0000"
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_INTEGER = b"0" * 19


def canonical_json(value) -> str:
    """JSON with sorted keys and no insignificant whitespace (the standard library's exact bytes)."""
    try:
        out = orjson.dumps(value, option=_SORTED)
    except TypeError:
        out = None
    if out is None or _SMALL_DECIMAL in out or _EXPONENT(out):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return out.decode()


def compact_json(value) -> str:
    """JSON in the order of the value's keys, with no insignificant whitespace."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(raw):
    """Parse JSON text (str or bytes) into what `json.loads` gives."""
    text = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if _LONG_INTEGER not in text.translate(_DIGITS_AS_ZERO):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:  # NaN, a lone surrogate, or not JSON: the json module decides
            return json.loads(raw)
    return json.loads(raw)
