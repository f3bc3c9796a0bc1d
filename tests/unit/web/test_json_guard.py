"""The request JSON guard, pure: whatever JSON reader the app uses, deep nesting and invalid strings are 400s."""
from __future__ import annotations

import json

import orjson
import pytest

from service.web.errors import ApiError
from service.web.json_guard import MAX_DEPTH, parse_body, too_deep


def code_of(raw: bytes, loads) -> str:
    with pytest.raises(ApiError) as exc:
        parse_body(raw, loads)
    assert exc.value.status == 400
    return exc.value.code


@pytest.mark.parametrize("loads", [json.loads, orjson.loads], ids=["stdlib", "orjson"])
def test_each_reader_gets_the_same_answers(loads):
    """Deep nesting (within and beyond the reader's own limit), lone surrogates, bad bytes, bad JSON."""
    for depth in (MAX_DEPTH + 1, 900, 100_000):
        assert code_of(b"[" * depth + b"]" * depth, loads) == "too_deeply_nested"
    assert code_of(b'{"a": "\\ud800"}', loads) == "invalid_string"
    assert code_of(b'{"\\udfff": 1}', loads) == "invalid_string"
    assert code_of(b'["\xed\xa0\x80"]', loads) == "invalid_string"
    assert code_of(b'{"a": ', loads) == "malformed_json"
    assert parse_body(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, loads) is not None
    assert parse_body(b'{"a": "\\ud83d\\ude00 [[[", "b": "\\\\ud800"}', loads) == {"a": "\U0001F600 [[[",
                                                                                 "b": "\\ud800"}


def test_depth_counts_objects_and_arrays_without_recursing():
    """A value nested far beyond Python's recursion limit is measured iteratively."""
    deep = []
    for _ in range(50_000):
        deep = [deep]
    assert too_deep(deep) and not too_deep({"a": [{"b": 1}]}) and not too_deep("x" * 10)
    assert too_deep({"a": {"b": {"c": 1}}}, limit=2) and not too_deep({"a": {"b": {"c": 1}}}, limit=3)
