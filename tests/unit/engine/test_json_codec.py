"""The fast JSON codec writes and reads exactly what the standard library does (the hash chain depends on it)."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.json_codec import canonical_json, compact_json, loads

# every code point, surrogates included (orjson refuses them; the standard library then writes them)
TEXT = st.text(st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF), max_size=12)
SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
           | st.floats(allow_nan=False, allow_infinity=False) | TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                      max_leaves=20)


def std_canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def std_compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=500, deadline=None)
@given(VALUES)
def test_canonical_json_is_the_standard_librarys_bytes_and_compact_json_its_values(value):
    assert canonical_json(value) == std_canonical(value)
    compact = compact_json(value)
    try:
        assert json.loads(compact) == json.loads(std_compact(value))
    except ValueError:  # a lone surrogate written raw is not readable
        assert compact == std_compact(value)


@settings(max_examples=500, deadline=None)
@given(VALUES)
def test_loads_reads_what_the_standard_library_reads(value):
    text = std_compact(value)
    try:
        expected = json.loads(text)
    except ValueError:  # a lone surrogate written raw is not readable by either
        return
    assert std_canonical(loads(text)) == std_canonical(expected)
    try:
        raw = text.encode()
    except UnicodeEncodeError:  # a lone surrogate cannot be bytes
        return
    assert std_canonical(loads(raw)) == std_canonical(json.loads(raw))


def test_integers_beyond_64_bits_stay_integers():
    """orjson would read them as floats, and an event's hash would change."""
    assert loads("[18446744073709551616, -9223372036854775809]") == [18446744073709551616, -9223372036854775809]
    assert loads("-9223372036854775809") == -9223372036854775809  # 19 digits, below the 64-bit minimum
    assert loads(b'{"n": 123456789012345678901234567890}') == {"n": 123456789012345678901234567890}
    assert canonical_json({"n": 2 ** 80, "a": 1}) == '{"a":1,"n":1208925819614629174706176}'


def test_keys_that_are_not_strings_are_written_as_the_standard_library_writes_them():
    assert compact_json({1: "a", "b": 2}) == '{"1":"a","b":2}'
    assert canonical_json({2: "a", 10: "b"}) == std_canonical({2: "a", 10: "b"})


def test_floats_that_orjson_writes_otherwise_keep_the_standard_librarys_form():
    for value in (6.103515625e-05, 1e-08, -2.5e-300, 1e16, 1.7976931348623157e308, 0.0001, 123.456, 5e-324):
        assert canonical_json({"x": [value]}) == std_canonical({"x": [value]})
        assert json.loads(compact_json(value)) == value


def test_what_orjson_refuses_to_read_the_standard_library_reads():
    assert loads('{"x": NaN}')["x"] != loads('{"x": NaN}')["x"]  # NaN
    assert loads('"\\ud800"') == "\ud800"
