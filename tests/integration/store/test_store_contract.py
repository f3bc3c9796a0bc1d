"""The event store contract, run on every backend: a real Redis (started by the tests), fakeredis+Lua, and the
in-memory twin (service/store/memory.py). What is Redis's alone (stream ids, the script's keys) is checked on the
Redis backends."""
from __future__ import annotations

import json

import fakeredis
import pytest
from redis.crc import key_slot

from domain.engine.hashing import GENESIS, event_hash, verify_chain
from service.store.keys import Keys
from service.store.events import APPEND_LUA, EventStore
from service.store.memory import InMemoryEventStore
from service.store.results import Append


def redis_store(request, backend: str) -> EventStore:
    """An EventStore on a real Redis or on fakeredis."""
    client = request.getfixturevalue("redis_client") if backend == "redis" else fakeredis.FakeRedis(
        decode_responses=True)
    return EventStore(client, partitions=16)


@pytest.fixture(params=["redis", "fakeredis", "memory"])
def store(request):
    """An event store on each backend."""
    return InMemoryEventStore(partitions=16) if request.param == "memory" else redis_store(request, request.param)


@pytest.fixture(params=["redis", "fakeredis"])
def on_redis(request):
    """An EventStore on each Redis backend."""
    return redis_store(request, request.param)


def envelopes(start: int, n: int, prev: str = GENESIS, cmd=None) -> list:
    """n chained envelopes starting at version `start`."""
    out = []
    for v in range(start, start + n):
        env = {"version": v, "type": "noted", "scope": "game", "actor": "u1", "at": "2026-01-01T00:00:00.000Z",
               "data": {"n": v}, "rng": None, "cmd": cmd, "prev": prev}
        env["hash"] = event_hash(prev, env)
        prev = env["hash"]
        out.append(env)
    return out


def append(store, match_id, expected, envs, head_before, cmd="", answer=None, secret=""):
    return store.append(Append(match_id, "g", expected, envs, head_before, envs[-1]["hash"], "active", cmd, answer,
                               secret))


def test_first_append_numbers_versions_from_one(store):
    """Versions are contiguous from 1 and stream ids are explicit 0-<version>."""
    envs = envelopes(1, 3)
    res = append(store, "m1", 0, envs, GENESIS, secret="ab")
    assert (res.status, res.version) == ("ok", 3)
    assert store.read("m1").envelopes == envs
    assert store.secret("m1") == "ab"
    assert store.version("m1") == 3


def test_reads_by_version(store):
    """read(after=v) returns exactly the events after v; read_range is inclusive."""
    envs = envelopes(1, 5)
    append(store, "m1", 0, envs, GENESIS)
    assert [e["version"] for e in store.read("m1", after=2).envelopes] == [3, 4, 5]
    assert store.read("m1", after=5).envelopes == []
    assert [e["version"] for e in store.read_range("m1", 2, 4)] == [2, 3, 4]


def test_stale_expected_version_conflicts_and_writes_nothing(store):
    """A stale expected version is a conflict carrying the current version; the stream is unchanged."""
    first = envelopes(1, 2)
    append(store, "m1", 0, first, GENESIS)
    res = append(store, "m1", 1, envelopes(2, 1, first[0]["hash"]), first[0]["hash"])
    assert (res.status, res.version) == ("conflict", 2)
    assert store.version("m1") == 2 and len(store.read("m1").envelopes) == 2
    assert len(store.log(store.keys.partition("m1"))) == 1


def test_wrong_head_conflicts(store):
    """An append built on another head (a forked history) is refused."""
    first = envelopes(1, 1)
    append(store, "m1", 0, first, GENESIS)
    res = append(store, "m1", 1, envelopes(2, 1, "f" * 64), "f" * 64)
    assert res.status == "conflict"
    assert store.version("m1") == 1


def test_creating_an_existing_match_conflicts(store):
    """Expected version 0 on an existing match is refused."""
    append(store, "m1", 0, envelopes(1, 1), GENESIS)
    assert append(store, "m1", 0, envelopes(1, 1), GENESIS).status == "conflict"


def test_stream_ids_are_the_versions_and_a_stream_without_meta_is_not_created_again(on_redis):
    """Stream ids are explicit 0-<version>; a stream whose meta lost its version still refuses a creation."""
    append(on_redis, "m1", 0, envelopes(1, 3), GENESIS)
    assert [eid for eid, _ in on_redis.r.xrange(on_redis.keys.stream("m1"))] == ["0-1", "0-2", "0-3"]
    on_redis.r.hdel(on_redis.keys.meta("m1"), "version")
    assert append(on_redis, "m1", 0, envelopes(1, 1), GENESIS).status == "conflict"


def test_known_command_id_returns_stored_answer_and_writes_nothing(store):
    """A retried command id answers as the first time; no new event."""
    first = envelopes(1, 1, cmd="c1")
    answer = {"version": 1, "events": [{"version": 1}]}
    assert append(store, "m1", 0, first, GENESIS, cmd="c1", answer=answer).status == "ok"
    again = append(store, "m1", 1, envelopes(2, 1, first[0]["hash"], cmd="c1"), first[0]["hash"], cmd="c1",
                   answer={"other": True})
    assert again.status == "dup" and again.answer == answer
    assert store.version("m1") == 1
    assert store.read("m1", command_id="c1").answer == answer


def test_partition_log_and_meta(store):
    """Each append adds one partition-log entry (match id, new version, event count); meta tracks the head."""
    envs = envelopes(1, 2)
    append(store, "m1", 0, envs, GENESIS)
    append(store, "m1", 2, envelopes(3, 3, envs[-1]["hash"]), envs[-1]["hash"])
    log = store.log(store.keys.partition("m1"))
    assert [(f["m"], f["v"], f["n"]) for _, f in log] == [("m1", "2", "2"), ("m1", "5", "3")]
    envs = store.read("m1").envelopes
    assert store.meta("m1") == {"version": "5", "head": envs[-1]["hash"], "status": "active", "game": "g"}


def test_stored_events_form_a_valid_hash_chain(store):
    """The stored chain verifies, and a rewritten event is named."""
    envs = envelopes(1, 4)
    append(store, "m1", 0, envs, GENESIS)
    stored = store.read("m1").envelopes
    assert verify_chain(stored) is None
    stored[2]["data"] = {"n": 99}
    assert verify_chain(stored) == 3


def test_all_keys_of_a_script_hash_to_one_slot():
    """Every key the append script touches shares the partition's slot (Redis Cluster safe)."""
    keys = Keys(64)
    for i in range(300):
        mid = f"m_{i:06x}"
        slots = {key_slot(k.encode()) for k in keys.match_keys(mid)}
        slots.add(key_slot(keys.summary(mid).encode()))
        slots.add(key_slot(keys.snapshot(mid).encode()))
        slots.add(key_slot(keys.checkpoint(keys.partition(mid)).encode()))
        assert len(slots) == 1, mid


def test_script_names_every_key_it_touches():
    """The Lua script reaches Redis only through KEYS (no key built inside the script)."""
    calls = [line for line in APPEND_LUA.splitlines() if "redis.call(" in line]
    assert calls and all("KEYS[" in line for line in calls)
    assert "XTRIM" not in APPEND_LUA and "XDEL" not in APPEND_LUA and "MAXLEN" not in APPEND_LUA


def test_envelopes_round_trip_unicode(store):
    """Stored JSON keeps non-ASCII text intact."""
    env = envelopes(1, 1)[0]
    env["data"] = {"name": "Ксения ✓"}
    env["hash"] = event_hash(GENESIS, env)
    append(store, "m1", 0, [env], GENESIS)
    assert store.read("m1").envelopes[0]["data"] == {"name": "Ксения ✓"}


def test_redis_keeps_non_ascii_text_as_utf8_json(on_redis):
    """The stored JSON itself holds the text (not escapes a reader of the raw stream would see)."""
    env = envelopes(1, 1)[0]
    env["data"] = {"name": "Ксения ✓"}
    env["hash"] = event_hash(GENESIS, env)
    append(on_redis, "m1", 0, [env], GENESIS)
    assert json.loads(on_redis.r.xrange(on_redis.keys.stream("m1"))[0][1]["e"])["data"]["name"] == "Ксения ✓"


def test_a_stale_append_gets_the_events_it_missed(store):
    """A conflict on a stale version carries the events after the expected one (the caller catches up)."""
    first = envelopes(1, 3)
    append(store, "m1", 0, first, GENESIS)
    res = append(store, "m1", 1, envelopes(2, 1, first[0]["hash"]), first[0]["hash"])
    assert res.status == "conflict" and [e["version"] for e in res.envelopes] == [2, 3]


def test_read_many_and_the_secret(store):
    """read_many reads several matches after their own versions; the secret comes with a read that asks."""
    append(store, "m1", 0, envelopes(1, 2), GENESIS, secret="s1")
    append(store, "m2", 0, envelopes(1, 3), GENESIS)
    got = store.read_many({"m1": 1, "m2": 0, "m3": 0})
    assert {k: [e["version"] for e in v] for k, v in got.items()} == {"m1": [2], "m2": [1, 2, 3], "m3": []}
    assert store.read("m1", with_secret=True).secret == "s1" and store.read("m1").secret is None
    assert not store.read("m3").exists and store.version("m3") == 0


# -- archived matches: the same reads from one compact record ------------------------------------------------------
SEED = bytes(range(32))


def finished_match(n: int = 12) -> list:
    """The envelopes of a finished match on a salted (format 2) chain: created, draws, moves, finished, seed."""
    from domain.engine.hashing import salt_for
    from domain.engine.rng import derive_draw
    out, prev, draw = [], GENESIS, 0
    for v in range(1, n + 1):
        env = {"version": v, "type": "moved", "scope": "game", "actor": ["u_a1", "u_b2"][v % 2],
               "at": f"2026-01-01T00:{v // 60:02d}:{v % 60:02d}.{v:03d}Z", "data": {"n": v, "why": "ok ✓"},
               "rng": None, "cmd": f"u_a1:c{v // 2}"}
        if v == 1:
            env.update(type="match_created", scope="platform", cmd=None, data={"chain": 2, "game": "g"})
        elif v % 4 == 0:
            env["rng"] = [[draw + i, 1, 6, 1 + derive_draw(SEED, "m1", draw + i) % 6] for i in range(2)]
            draw += 2
        elif v == n - 1:
            env.update(type="match_finished", scope="platform", actor=None, data={"result": {"winners": ["u_a1"]}})
        elif v == n:
            env.update(type="seed_revealed", scope="platform", actor=None, data={"seed": SEED.hex()})
        env["prev"] = prev
        env["hash"] = event_hash(prev, env, salt_for(2, SEED, v))
        prev = env["hash"]
        out.append(env)
    return out


def store_finished(store, match_id: str = "m1", n: int = 12) -> list:
    envs = finished_match(n)
    assert store.append(Append(match_id, "g", 0, envs[:5], GENESIS, envs[4]["hash"], "active", "c1", {"version": 5},
                               SEED.hex())).status == "ok"
    last = Append(match_id, "g", 5, envs[5:], envs[4]["hash"], envs[-1]["hash"], "finished")
    assert store.append(last).status == "ok"
    return envs


def every_read(store, match_id: str = "m1") -> dict:
    """Everything the store answers about a match."""
    meta = store.meta(match_id)
    meta.pop("archived", None)
    n = store.version(match_id)
    matches = {m: (envs, {k: v for k, v in found.items() if k != "archived"}, secret)
               for m, (envs, found, secret) in store.read_matches([match_id, "nothing"]).items()}
    return {"reads": [store.read(match_id, after).envelopes for after in range(n + 1)],
            "with_secret": store.read(match_id, 3, with_secret=True).secret,
            "ranges": [store.read_range(match_id, s, e) for s in range(1, n + 1) for e in (s, n, None)],
            "many": store.read_many({match_id: 4, "nothing": 0}), "secret": store.secret(match_id),
            "version": n, "meta": meta, "matches": matches}


def test_an_archived_match_reads_the_same(store):
    """After archiving, every read answers what it answered before, byte for byte (the record rebuilds every
    stored text, hashes recomputed from the seed); the command table is gone and nothing can be appended."""
    from service.app.archive import archive_match
    envs = store_finished(store)
    before = every_read(store)
    outcome = archive_match(store, "m1", 0)
    assert outcome["status"] == "archived" and outcome["events"] == len(envs)
    assert store.archived("m1") and store.meta("m1")["archived"] == "1"
    assert every_read(store) == before
    assert store.read("m1", 0).envelopes == envs and verify_chain(store.read_range("m1", 1), SEED) is None
    assert store.read("m1", command_id="c1").answer is None  # stored answers are not archived
    later = envelopes(len(envs) + 1, 1, envs[-1]["hash"])
    res = append(store, "m1", len(envs), later, envs[-1]["hash"])
    assert (res.status, res.version) == ("archived", len(envs)) and store.version("m1") == len(envs)
    assert archive_match(store, "m1", 0)["status"] == "already" and every_read(store) == before


def test_a_replay_read_of_an_archived_match(store):
    """archived_bodies: None for a live match; for an archived one its length, versions 1..upto without prev and
    hash (read from the record, or from the decoded record this process holds: the same), the later types."""
    from service.app.archive import archive_match
    envs = store_finished(store)
    assert store.archived_bodies("m1", 3) is None
    assert archive_match(store, "m1", 0)["status"] == "archived"
    bare = [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in envs]
    length, first, later = store.archived_bodies("m1", 4)
    assert (length, first, later) == (len(envs), bare[:4], {e["type"] for e in envs[4:]})
    store.read("m1", 0)  # the record decoded and kept by this process
    length, first, later = store.archived_bodies("m1", 4)
    assert [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in first] == bare[:4]
    assert (length, later) == (len(envs), {e["type"] for e in envs[4:]})


def test_archiving_keeps_only_the_record_and_the_meta(on_redis):
    """On Redis the stream, command table, secret and snapshots are deleted; the record shares the slot."""
    from service.app.archive import archive_match
    store_finished(on_redis)
    keys = on_redis.keys
    on_redis.r.hset(keys.snapshot("m1"), "8", "{}")
    assert archive_match(on_redis, "m1", 0)["status"] == "archived"
    assert not on_redis.r.exists(keys.stream("m1"), keys.cmds("m1"), keys.secret("m1"), keys.snapshot("m1"))
    assert on_redis.r.exists(keys.meta("m1"), keys.archive("m1")) == 2
    assert key_slot(keys.archive("m1").encode()) == key_slot(keys.stream("m1").encode())


def test_a_process_that_cached_an_older_version_reads_the_rest_from_the_record(on_redis):
    """A process holding the match at version 5 (before it finished and was archived by another) gets the events
    after 5 from the record: the XRANGE from the cached version proves the stream gone."""
    from service.app.archive import archive_match
    envs = store_finished(on_redis)
    other = EventStore(on_redis.r, partitions=16)
    assert archive_match(other, "m1", 0)["status"] == "archived"
    assert on_redis.read("m1", after=5).envelopes == envs[5:]
    assert on_redis.read_many({"m1": 5})["m1"] == envs[5:]
    assert on_redis.read("m1", after=len(envs)).envelopes == [] and on_redis.known_archived("m1")


def test_the_switch_keeps_a_match_that_moved_on(store):
    """A record made before an event was appended (a chat message) is dropped at the switch; the stream stays."""
    from service.store.archive_codec import encode
    envs = store_finished(store)
    texts, meta, secret = store.archive_source("m1")
    record = encode("m1", texts, meta["head"], secret)
    store.archive_write("m1", record)
    chat = finished_match(len(envs) + 1)[-1]
    chat.update(type="chat_posted", scope="platform", data={"text": "gg"}, prev=envs[-1]["hash"])
    chat["hash"] = event_hash(chat["prev"], chat, "")
    assert store.append(Append("m1", "g", len(envs), [chat], envs[-1]["hash"], chat["hash"], "finished")).status == "ok"
    assert store.archive_switch("m1", len(envs), envs[-1]["hash"], record) == ("moved", len(envs) + 1)
    assert store.archive_read_back("m1") is None and not store.archived("m1")
    assert store.read("m1").envelopes[-1] == chat


def test_the_archive_script_names_every_key_it_touches():
    """The switch script reaches Redis only through KEYS and deletes only what it is given."""
    from service.store.events import ARCHIVE_LUA
    calls = [line for line in ARCHIVE_LUA.splitlines() if "redis.call(" in line]
    assert calls and all("KEYS[" in line for line in calls)
