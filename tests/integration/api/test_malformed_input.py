"""Every malformed body or parameter is a 400 JSON error, never a 5xx: deep nesting, invalid strings
(lone surrogates, bytes that are not UTF-8) and integers beyond what a stream id can hold."""
from __future__ import annotations

import json

import pytest

from tests.integration.history.races import start_race

HUGE = 2 ** 64
BIG_INTS = (2 ** 53, 2 ** 63, 2 ** 64 - 1)


def nested(depth: int, leaf="x") -> str:
    """JSON text of a list nested `depth` levels deep."""
    return "[" * depth + json.dumps(leaf) + "]" * depth


def post_raw(client, path, raw, headers):
    """POST raw bytes as application/json."""
    return client.post(path, data=raw, headers={**headers, "Content-Type": "application/json"})


def assert_400(resp, code=None):
    """A 400 with the JSON error body (and the given code when named)."""
    assert resp.status_code == 400, (resp.status_code, resp.get_data(as_text=True)[:300])
    error = resp.get_json()["error"]
    assert error["message"] and (code is None or error["code"] == code), error


@pytest.fixture
def race(client, make_user):
    """(match id, {name: (user id, headers)}): a running dice race of ann and bob."""
    return start_race(client, make_user)


def bodies(mid):
    """(path, JSON text builder) for every JSON body the API accepts."""
    return [
        ("/api/users", lambda v: '{"name": %s}' % v),
        ("/api/matches", lambda v: '{"game": "dice-race", "seats": 2, "options": {"target": %s}}' % v),
        (f"/api/matches/{mid}/commands", lambda v: '{"type": "note", "payload": {"text": %s}}' % v),
        (f"/api/matches/{mid}/disputes", lambda v: '{"version": 4, "reason": %s}' % v),
    ]


@pytest.mark.parametrize("depth", [40, 900, 5000])
def test_deeply_nested_bodies_are_400(client, race, depth):
    """Nesting beyond the guard's limit is refused before any schema or handler sees it."""
    mid, people = race
    for path, build in bodies(mid):
        assert_400(post_raw(client, path, build(nested(depth)), people["ann"][1]), "too_deeply_nested")


def test_shallow_nesting_still_reaches_the_schema(client, race):
    """Nesting within the limit is an ordinary invalid field (the guard refuses only what it must)."""
    mid, people = race
    assert_400(post_raw(client, f"/api/matches/{mid}/commands", bodies(mid)[2][1](nested(3)), people["ann"][1]),
               "invalid_payload")


@pytest.mark.parametrize("bad", ['"\\ud800"', '"a\\udfffb"', '"\\udc00\\ud800"'])
def test_lone_surrogate_escapes_are_400(client, race, bad):
    """A JSON escape of half a surrogate pair cannot be stored as UTF-8: refused as an invalid string."""
    mid, people = race
    for path, build in bodies(mid):
        assert_400(post_raw(client, path, build(bad), people["ann"][1]), "invalid_string")


def test_bytes_that_are_not_utf8_are_400(client, race):
    """Raw surrogate bytes (CESU-8) and stray continuation bytes in a body."""
    mid, people = race
    for raw in (b'{"name": "\xed\xa0\x80"}', b'{"name": "\xff\xfe"}'):
        assert_400(post_raw(client, "/api/users", raw, {}), "invalid_string")


def test_a_surrogate_pair_escape_is_a_valid_string(client):
    """A proper pair (an emoji) is fine."""
    resp = post_raw(client, "/api/users", b'{"name": "ann \\ud83d\\ude00"}', {})
    assert resp.status_code == 201 and resp.get_json()["name"] == "ann \U0001F600"


@pytest.mark.parametrize("version", [HUGE, -HUGE, *BIG_INTS])
def test_huge_integers_in_bodies_are_400(client, race, version):
    """A dispute version or an expected version that no stream id can hold."""
    mid, people = race
    ann = people["ann"][1]
    assert_400(post_raw(client, f"/api/matches/{mid}/disputes", '{"version": %d, "reason": "x"}' % version, ann))
    assert_400(post_raw(client, f"/api/matches/{mid}/commands",
                        '{"type": "note", "payload": {"text": "x"}, "expected_version": %d}' % version, ann))


@pytest.mark.parametrize("value", [str(HUGE), str(2 ** 63), "1e400", "-1", "9" * 5000, "%ED%A0%80"])
def test_huge_or_invalid_query_integers_are_400(client, race, value):
    """?after=, ?version= and the stream's last_event_id / Last-Event-ID beyond any stream id."""
    mid, people = race
    code = "invalid_string" if value.startswith("%") else "invalid_query"  # not UTF-8 once decoded
    for path in (f"/api/matches/{mid}/events?after={value}", f"/api/matches/{mid}/replay?version={value}",
                 f"/api/matches/{mid}/stream?last_event_id={value}"):
        assert_400(client.get(path), code)
    assert_400(client.get(f"/api/matches/{mid}/stream", headers={"Last-Event-ID": value}), "invalid_query")


def test_invalid_strings_in_paths_and_queries_are_400(client, race):
    """Percent-encoded surrogates or bytes that are not UTF-8 in ids and filters: 400 invalid_string."""
    mid, people = race
    for path in ("/api/matches/%ED%A0%80", f"/api/matches/{mid}/disputes/%ED%A0%80/votes",
                 "/api/matches?player=%ED%A0%80", "/api/users?name=%ED%A0%80", "/api/matches/%FF/events"):
        resp = client.post(path, json={"accept": True}, headers=people["bob"][1]) if path.endswith("votes") \
            else client.get(path, headers=people["ann"][1])
        assert_400(resp, "invalid_string")
    assert client.get("/api/matches?player=%C3%A9").status_code == 200, "valid UTF-8 still passes"


def test_an_id_that_could_name_another_redis_key_is_a_plain_404(client, wiring, make_user):
    """A match id with a colon (here it names the match's own secret key: both ids fall in one partition) or
    a brace is refused before any Redis call: 404 JSON for the API, the HTML error page for a browser."""
    ann, headers = make_user("ann")
    bob = make_user("bob")[0]
    keys = wiring.store.keys
    mid = next(m for m in (f"m_{i:016x}" for i in range(100_000)) if keys.partition(m) == keys.partition(m + ":secret"))
    wiring.matches.create(ann, "dice-race", {"target": 8}, players=[ann, bob], match_id=mid)
    assert keys.stream(mid + ":secret") == keys.secret(mid), "the id names the secret's key"
    for path in (f"/api/matches/{mid}:secret/state", f"/api/matches/{mid}:secret", "/api/matches/{p08}/events",
                 f"/api/matches/{'a' * 65}/state", f"/api/users/{ann}%20x"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "not_found", path
    page = client.get(f"/matches/{mid}:secret", headers={"Accept": "text/html"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert client.get(f"/api/matches/{mid}/state", headers=headers).status_code == 200
    assert client.get("/api/users/bot:greedy:1").status_code in (200, 404)
