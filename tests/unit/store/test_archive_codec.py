"""The archive record (service/store/archive_codec.py): every stored event text comes back byte for byte, the chain
recomputed from the seed; what the columns cannot carry is kept verbatim; a record that would not give the events
back, or a match whose chain does not hold, is refused."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domain.engine.hashing import GENESIS, event_hash, salt_for
from domain.engine.json_codec import compact_json
from domain.games import load_games
from service.app import invitations
from service.app.history import History
from service.app.matches import MatchService
from service.cli.golden import SHORT_OPTIONS, PLAYERS, play_one, seeded_secrets, stepping_clock
from service.store.archive_codec import ArchiveError, bodies, decode, encode
from service.store.memory import InMemoryEventStore

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "golden"
SEED = bytes(range(32))


def played(game_id: str, seed: str) -> tuple[str, list, dict, str]:
    """A short match played to its end in memory: (id, its stored texts, its meta, its secret)."""
    games = load_games()
    rnd = random.Random(seed)
    store = InMemoryEventStore()
    service = MatchService(store, games, clock=stepping_clock())
    history = History(store, service, None, games)
    game = games[game_id]
    with seeded_secrets(rnd):
        match = service.create(PLAYERS[0], game_id, game.options_schema.load(SHORT_OPTIONS[game_id]),
                               players=list(PLAYERS[:game.min_players]))
        invitations.accept_for_all(service, match)
        while not service.load(match.id).finished:
            play_one(service, history, match.id, rnd)
    texts, meta, secret = store.archive_source(match.id)
    return match.id, texts, meta, secret


@pytest.mark.parametrize("game_id", ["uchronia", "merchant-of-venus", "ti4-exploration", "origins"])
def test_a_played_match_comes_back_byte_for_byte_in_a_few_percent(game_id):
    """Both layouts the service writes (sealed commands: prev and hash first, the canonical body; creations and
    seat changes: the envelope's own order) are rebuilt exactly, draws and hashes recomputed from the seed."""
    match_id, texts, meta, secret = played(game_id, f"codec:{game_id}")
    record = encode(match_id, texts, meta["head"], secret)
    decoded = decode(record)
    assert decoded.texts == texts and decoded.head == meta["head"] and decoded.seed == secret
    assert decoded.envelopes(3, 5) == [json.loads(t) for t in texts[3:5]]
    assert len(record) < 0.1 * sum(len(t) for t in texts)
    assert json.loads(__import__("zstandard").ZstdDecompressor().decompress(record[1:]))["raw"] == {}


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*/golden-1.json")), ids=lambda p: p.parts[-3])
def test_an_imported_export_with_sorted_keys_comes_back(path):
    """A match restored from an export (its events' keys sorted, prev and hash among them) is a third layout."""
    doc = json.loads(path.read_text())
    texts = [compact_json(e) for e in doc["events"]]
    decoded = decode(encode(doc["match"], texts, doc["head"], doc["seed"]))
    assert decoded.texts == texts


def chain(events: list, seed: bytes = SEED) -> list:
    """Seal raw events into a format-2 chain."""
    prev, out = GENESIS, []
    for v, env in enumerate(events, 1):
        env = dict(env, version=v, prev=prev)
        env["hash"] = event_hash(prev, env, salt_for(2, seed, v))
        prev = env["hash"]
        out.append(env)
    return out


def base(n: int) -> list:
    evs = [{"type": "match_created", "scope": "platform", "actor": "u_1", "at": "2026-01-01T00:00:00.000Z",
            "data": {"chain": 2}, "rng": None, "cmd": None}]
    evs += [{"type": "moved", "scope": "game", "actor": "u_1", "at": f"2026-01-01T00:00:{i:02d}.500Z",
             "data": {"i": i}, "rng": None, "cmd": f"u_1:c{i}"} for i in range(1, n)]
    return evs


def test_what_the_columns_cannot_carry_is_kept_verbatim():
    """A float the chain wrote otherwise than orjson, a timestamp in another format, a draw whose value the seed
    does not give, an extra key: each such event is kept as it is, the others compacted (an unusual key order is
    no reason: the record keeps each order seen)."""
    evs = base(8)
    evs[2]["data"] = {"tiny": 1e-08}
    evs[4]["at"] = "2026-01-01T00:00:04+00:00"
    evs[5]["rng"] = [[0, 1, 6, 7]]  # not what the seed draws
    evs[6]["extra"] = True
    envs = chain(evs)
    texts = [compact_json(e) for e in envs]
    texts[3] = json.dumps({k: envs[3][k] for k in reversed(list(envs[3]))}, separators=(",", ":"))
    record = encode("m1", texts, envs[-1]["hash"], SEED.hex())
    assert decode(record).texts == texts
    raw = json.loads(__import__("zstandard").ZstdDecompressor().decompress(record[1:]))["raw"]
    assert sorted(raw) == ["2", "4", "5", "6"]


def test_a_match_whose_chain_does_not_hold_is_refused():
    """A rewritten event, a head the store does not have, no seed for a salted chain, no events: ArchiveError."""
    envs = chain(base(5))
    texts = [compact_json(e) for e in envs]
    bad = list(texts)
    bad[2] = bad[2].replace('"i":2', '"i":3')
    with pytest.raises(ArchiveError, match="breaks at version 3"):
        encode("m1", bad, envs[-1]["hash"], SEED.hex())
    with pytest.raises(ArchiveError, match="head"):
        encode("m1", texts, "f" * 64, SEED.hex())
    with pytest.raises(ArchiveError, match="seed"):
        encode("m1", texts, envs[-1]["hash"], None)
    with pytest.raises(ArchiveError):
        encode("m1", [], GENESIS, SEED.hex())


def test_a_damaged_record_is_refused_on_reading():
    """A record cut short, of another format or with a changed byte is an ArchiveError, never wrong events."""
    envs = chain(base(30))
    record = encode("m1", [compact_json(e) for e in envs], envs[-1]["hash"], SEED.hex())
    for damaged in (record[:-5], b"\x09" + record[1:], record[:40] + bytes([record[40] ^ 1]) + record[41:], b""):
        with pytest.raises(ArchiveError):
            decode(damaged)


@pytest.mark.parametrize("game_id", ["uchronia", "merchant-of-venus"])
def test_a_replay_read_gives_the_events_without_their_chain(game_id):
    """`bodies` (a replay's read, no chain recomputed) gives versions 1..upto as the stored texts read, prev and
    hash left out, and the types of the events after them."""
    match_id, texts, meta, secret = played(game_id, f"bodies:{game_id}")
    record = encode(match_id, texts, meta["head"], secret)
    upto = len(texts) // 2
    length, envelopes, later = bodies(record, upto)
    stored = [json.loads(t) for t in texts]
    assert length == len(texts) and len(envelopes) == upto
    assert envelopes == [{k: v for k, v in e.items() if k not in ("prev", "hash")} for e in stored[:upto]]
    assert later == {e["type"] for e in stored[upto:]}
    assert decode(record).bodies(upto) == (length, envelopes, later), "the decoded record reads the same"


def test_a_damaged_record_is_refused_by_a_replay_read_too():
    """Any one bit flipped anywhere in a record: `bodies`, which recomputes no chain, refuses it (zstd's checksum,
    the frame's header) or reads the very same events (a bit the format ignores), never other ones."""
    envs = chain(base(30))
    record = encode("m1", [compact_json(e) for e in envs], envs[-1]["hash"], SEED.hex())
    intact, refused = bodies(record, 20), 0
    for at in range(len(record)):
        for bit in (1, 2, 4, 8, 16, 32, 64, 128):
            try:
                assert bodies(record[:at] + bytes([record[at] ^ bit]) + record[at + 1:], 20) == intact
            except ArchiveError:
                refused += 1
    assert refused > 7 * len(record)
