"""The command body's fast path answers exactly what the marshmallow schema answers, or leaves it to it."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from service.web.schemas import SubmitCommand

BODIES = [
    {"type": "note", "payload": {"text": "x"}},
    {"type": "note"},
    {"type": "note", "payload": {}, "command_id": "c1"},
    {"type": "n" * 64, "payload": {"a": [1, {"b": None}]}, "command_id": "c" * 128},
    {"type": "note", "payload": {"text": "x"}, "expected_version": 3},
    {"type": "", "payload": {}},
    {"type": "n" * 65},
    {"type": 3},
    {"type": True},
    {"type": None},
    {"payload": {}},
    {"type": "note", "payload": None},
    {"type": "note", "payload": []},
    {"type": "note", "payload": "x"},
    {"type": "note", "command_id": ""},
    {"type": "note", "command_id": "c" * 129},
    {"type": "note", "command_id": 7},
    {"type": "note", "command_id": None},
    {"type": "note", "extra": 1},
    {},
]


@pytest.mark.parametrize("data", BODIES)
def test_the_fast_path_agrees_with_the_schema(data):
    """For each body: the fast path gives the schema's result, or None where the schema refuses (or where
    it leaves a field, such as expected_version, to the schema)."""
    try:
        expected = SubmitCommand().load(data)
    except ValidationError:
        expected = None
    fast = SubmitCommand.fast_load(data)
    assert fast is None or fast == expected
    if expected is not None and "expected_version" not in data:
        assert fast == expected  # the common shape never falls back
