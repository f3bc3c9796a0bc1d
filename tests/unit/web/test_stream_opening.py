"""A live stream's first bytes are bounded: a catch-up within CATCHUP_BUDGET is written whole, a longer one (or one
the hub could not gather within it) is a "reload" message naming where to resume, and the stream ends after it."""
from __future__ import annotations

from service.web.api.stream import CATCHUP_BUDGET, MatchWriter, UserWriter, opening_bytes, parse_cursor


def events(match: str, count: int, size: int) -> list:
    return [("event", match, v, '"' + "x" * size + '"', 1_000 + v) for v in range(1, count + 1)]


def test_a_catch_up_within_the_budget_is_written_whole():
    writer = MatchWriter("m1")
    opening, last = opening_bytes(writer, events("m1", 3, 10))
    assert not last and opening.count(b"id: ") == 3 and writer.sent == 3


def test_a_match_stream_too_far_behind_is_told_to_reload_at_the_version_it_opened_at():
    writer = MatchWriter("m1")
    writer.head, writer.sent = 900, 0
    opening, last = opening_bytes(writer, events("m1", 900, 1000))  # about 900 kB
    assert last and opening.endswith(b"event: reload\nid: 900\ndata: {}\n\n") and len(opening) < 200
    assert writer.sent == 900


def test_a_catch_up_the_hub_gave_up_on_is_a_reload_too():
    opening, last = opening_bytes(UserWriter(1_000), None)
    assert last and b"event: reload\n" in opening


def test_a_user_stream_too_far_behind_resumes_from_now_with_nothing_listed():
    writer = UserWriter(1_000, {"m0": 4})
    opening, last = opening_bytes(writer, events("m1", 400, CATCHUP_BUDGET // 100))
    assert last and opening.count(b"event: ") == 1
    resume = opening.split(b"id: ")[1].split(b"\n")[0].decode()
    at, recent = parse_cursor(resume)
    assert at > 1_400 and recent == {}
