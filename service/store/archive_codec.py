"""The archive record of a finished match: what cannot be recomputed, in columns, compressed with zstd.

A finished match's seed is public, so every event's `prev` and `hash` (128 hex characters, half of them random)
and every draw's number and value follow from the other fields: the record keeps neither. It keeps, per event,
the order of its top-level keys (an index into a small table: the service has written two layouts), its type,
scope and actor (indexes into tables), its time (milliseconds after the previous event's), its data (as stored,
key order included), its draws as (low, high) pairs, and its command marker (or "same as the previous event's").
An event that does not come back byte for byte from these fields is kept verbatim.

`decode` rebuilds every event's stored JSON text: the same bytes the stream held, the hash chain recomputed from
the seed on the way. `encode` refuses (ArchiveError) unless the record decodes to exactly the given texts and
the recomputed chain verifies and ends at the given head, so a record that exists is known to be lossless.
"""
from __future__ import annotations

import hmac
from datetime import datetime, timedelta, timezone
from hashlib import sha256

import orjson
import zstandard

from domain.engine.hashing import GENESIS, HASHED_FIELDS, SALTED_FORMAT, chain_format, salt_for, verify_chain
from domain.engine.json_codec import canonical_json, compact_json, loads
from domain.engine.rng import derive_draw

FORMAT = 2  # the first byte of a record: 2 = the columns below, zstd with its content checksum (required)
MAX_DOCUMENT = 64 * 1024 * 1024  # a record's document decompressed (a 5,000-event match: about 2 MB)
MAX_RATIO = 256  # and at most this many times the record's own size (the service's records: 4-6 times): a small
# record that claims a large document is a forgery, refused before a byte is decompressed
FORMATS = (1, 2)  # what this decoder reads: 1 = the same without the checksum (records written before it)
LEVEL = 19  # zstd level: records are written once, in a worker, and read many times (decoding speed is the same)
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
CHAINED = ("prev", "hash")
SAME = 1  # in the command column: the same marker as the previous event
NONE = 0  # in the command column: no marker


class ArchiveError(ValueError):
    """A match that cannot be archived (or a record that cannot be read), with the reason."""


# -- fields -------------------------------------------------------------------------------------------------
def _ms(at) -> int:
    """Milliseconds since the epoch of a stored timestamp; ValueError unless it is written back identically."""
    if not isinstance(at, str) or not at.endswith("Z"):
        raise ValueError("not a UTC timestamp")
    moment = datetime.fromisoformat(at[:-1] + "+00:00")
    delta = moment - EPOCH
    ms = (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000
    if _at(ms) != at:
        raise ValueError("a timestamp the service would not write")
    return ms


_DAYS: dict = {}


def _at(ms: int) -> str:
    """The stored timestamp of milliseconds since the epoch (ISO-8601 UTC, milliseconds, Z), as format_time writes
    it (a record's events mostly share a few days: each day's date is formatted once)."""
    days, ms = divmod(ms, 86_400_000)
    date = _DAYS.get(days)
    if date is None:
        if len(_DAYS) > 4096:
            _DAYS.clear()
        date = _DAYS[days] = (EPOCH + timedelta(days=days)).date().isoformat()
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    seconds, ms = divmod(ms, 1000)
    return f"{date}T{hours:02d}:{minutes:02d}:{seconds:02d}.{ms:03d}Z"


def _draw(seed: bytes | None, match_id: str, n: int, lo: int, hi: int) -> int:
    """The value of draw n in lo..hi, as HmacRng derives it."""
    return lo + derive_draw(seed, match_id, n) % (hi - lo + 1)


class _Table:
    """Distinct values in first-seen order, and each value's index."""

    def __init__(self):
        self.values: list = []
        self._index: dict = {}

    def index(self, value) -> int:
        key = compact_json(value) if isinstance(value, list) else value
        if key not in self._index:
            self._index[key] = len(self.values)
            self.values.append(value)
        return self._index[key]


# -- encoding -----------------------------------------------------------------------------------------------
def encode(match_id: str, texts: list, head: str, seed_hex: str | None) -> bytes:
    """The record of a match whose stored events are `texts` (JSON, versions 1..n in order), whose store says
    `head` is its last hash and whose secret seed is `seed_hex`. ArchiveError unless the record decodes to the
    same texts and its chain verifies and ends at `head`."""
    if not texts:
        raise ArchiveError("the match has no events")
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    envelopes = [loads(t) for t in texts]
    chain = chain_format(envelopes)
    try:
        broken = verify_chain(envelopes, seed)
    except ValueError as exc:
        raise ArchiveError(f"the hash chain cannot be checked: {exc}") from None
    if broken is not None:
        raise ArchiveError(f"the hash chain breaks at version {broken}")
    if envelopes[-1].get("hash") != head:
        raise ArchiveError("the last event's hash is not the stored head")
    orders, types, scopes, actors = _Table(), _Table(), _Table(), _Table()
    cols: dict = {k: [] for k in COLUMNS}
    raw: dict = {}
    last_ms, last_cmd, next_draw = 0, None, 0
    for i, (text, env) in enumerate(zip(texts, envelopes)):
        fields = _fields(match_id, env, seed, last_ms, last_cmd, next_draw)
        hashed = {k: env.get(k) for k in HASHED_FIELDS}
        if fields is not None and _rebuild(hashed, list(env), chain, seed, i + 1, env["prev"])[0] != text:
            fields = None
        if fields is None:  # kept verbatim; placeholders in the columns
            raw[str(i)] = text
            fields = (0, 0, 0, 0, 0, None, None, NONE)
        else:
            order, type_, scope, actor, dt, data, rng, cmd = fields
            fields = (orders.index(order), types.index(type_), scopes.index(scope), actors.index(actor), dt, data,
                      rng, cmd)
        for col, value in zip(COLUMNS, fields):
            cols[col].append(value)
        last_ms = _ms_or(env.get("at"), last_ms)
        last_cmd = env.get("cmd")
        next_draw = _after_draws(env.get("rng"), next_draw)
    doc = {"format": FORMAT, "match": match_id, "length": len(texts), "head": head, "seed": seed_hex,
           "orders": orders.values, "types": types.values, "scopes": scopes.values, "actors": actors.values,
           **cols, "raw": raw}
    compressor = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True)
    record = bytes([FORMAT]) + compressor.compress(compact_json(doc).encode())
    decoded = decode(record)
    if decoded.texts != list(texts):
        bad = next((i for i, (a, b) in enumerate(zip(decoded.texts, texts)) if a != b), len(texts)) + 1
        raise ArchiveError(f"the record does not give back event {bad} byte for byte")
    return record


COLUMNS = ("o", "t", "s", "a", "at", "d", "r", "c")


def _ms_or(at, default: int) -> int:
    """_ms(at), or `default` when `at` is not a timestamp the service writes."""
    try:
        return _ms(at)
    except (ValueError, TypeError):
        return default


def _after_draws(rng, next_draw: int) -> int:
    """The next draw number after an event's draws."""
    if isinstance(rng, list) and rng and isinstance(rng[-1], list) and rng[-1] and type(rng[-1][0]) is int:
        return rng[-1][0] + 1
    return next_draw


def _fields(match_id: str, env: dict, seed: bytes | None, last_ms: int, last_cmd, next_draw: int):
    """(key order, type, scope, actor, ms after the previous event, data, draws, command) of an event, or None
    when some field has no encoding (the event is then kept verbatim)."""
    order = list(env)
    if set(order) - set(HASHED_FIELDS) - set(CHAINED) or any(k not in env for k in CHAINED):
        return None
    try:
        dt = _ms(env.get("at")) - last_ms
    except (ValueError, TypeError):
        return None
    rng = env.get("rng")
    if rng is not None:
        rng = _draw_pairs(match_id, rng, seed, next_draw)
        if rng is None:
            return None
    cmd = env.get("cmd")
    if cmd is None:
        cmd = NONE
    elif not isinstance(cmd, str):
        return None
    elif cmd == last_cmd:
        cmd = SAME
    type_, scope, actor = env.get("type"), env.get("scope"), env.get("actor")
    if not all(v is None or isinstance(v, str) for v in (type_, scope, actor)):
        return None
    return order, type_, scope, actor, dt, env.get("data"), rng, cmd


def _draw_pairs(match_id: str, draws, seed: bytes | None, next_draw: int) -> list | None:
    """[lo, hi, lo, hi, ...] of draws numbered on from `next_draw` whose values the seed gives, else None."""
    if seed is None or not isinstance(draws, list) or not draws:
        return None
    pairs = []
    for n, draw in enumerate(draws, next_draw):
        if (not isinstance(draw, list) or len(draw) != 4 or not all(type(x) is int for x in draw)
                or draw[0] != n or draw[2] < draw[1] or _draw(seed, match_id, n, draw[1], draw[2]) != draw[3]):
            return None
        pairs += draw[1:3]
    return pairs


SEALED_ORDER = ["prev", "hash", *sorted(HASHED_FIELDS)]  # MatchService._seal: prev, hash, then the canonical body


def _body(fields: dict) -> str:
    """The canonical JSON of an event's hashed fields, written by orjson. It is the hash chain's canonical JSON
    for every event without floats; an event whose floats it writes otherwise does not come back byte for byte at
    encoding, and is kept verbatim."""
    try:
        return orjson.dumps(fields, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # what orjson cannot write (integers beyond 64 bits, ...): the chain's own function
        return canonical_json(fields)


def _rebuild(env: dict, keys: list, chain: int, seed: bytes | None, version: int, prev: str) -> tuple[str, str]:
    """(an event's stored text, its hash) from its hashed fields, its top-level key order and its predecessor's
    hash (hashing.hash_body and salt_for, inlined: this runs once per event of every archived match read)."""
    body = _body(env)
    if chain == SALTED_FORMAT and seed is not None:
        salt = hmac.digest(seed, b"chain/%d" % version, "sha256").hex()
    else:
        salt = salt_for(chain, seed, version)
    digest = sha256((prev + salt + body).encode()).hexdigest()
    if keys == SEALED_ORDER:
        return f'{{"prev":"{prev}","hash":"{digest}",{body[1:]}', digest
    values = dict(env, prev=prev, hash=digest)
    return compact_json({k: values.get(k) for k in keys}), digest


# -- decoding -----------------------------------------------------------------------------------------------
class Decoded:
    """A decoded record: the stored texts of versions 1..length, the head, the secret seed (hex)."""

    __slots__ = ("match_id", "texts", "head", "seed", "size", "_parse")

    def __init__(self, match_id: str, texts: list, head: str, seed: str | None, rebuilt_only: bool = False):
        self.match_id, self.texts, self.head, self.seed = match_id, texts, head, seed
        self.size = sum(len(t) for t in texts) + 64 * len(texts) + 200  # about what it holds in memory
        # texts the decoder wrote itself (orjson) parse with orjson alone unless a long digit run may hide an
        # integer beyond 64 bits (json_codec.loads decides that per call; here once per record)
        self._parse = _orjson_first if rebuilt_only and not any(map(_may_hide_big_integer, texts)) else loads

    @property
    def version(self) -> int:
        """The last version."""
        return len(self.texts)

    def bodies(self, upto: int) -> tuple[int, list, set]:
        """archive_codec.bodies, from the decoded texts: the same envelopes, without prev and hash."""
        later = {self._parse(t)["type"] for t in self.texts[max(upto, 0):]}
        first = [{k: v for k, v in env.items() if k not in CHAINED} for env in self.envelopes(0, max(upto, 0))]
        return self.version, first, later

    def envelopes(self, after: int = 0, end: int | None = None) -> list:
        """Fresh envelopes (dicts) of versions after+1..end (end None: to the head), as json_codec.loads reads
        the stored texts."""
        parse = self._parse
        return [parse(t) for t in self.texts[max(after, 0):end]]


_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")


def _orjson_first(text: str):
    """orjson's reading of a text, the json module's for what orjson refuses (as json_codec.loads)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return loads(text)


def _may_hide_big_integer(text: str) -> bool:
    """True when a text has a run of 19 digits (json_codec.loads then parses it with the json module)."""
    return "0" * 19 in text.translate(_DIGITS_AS_ZERO)


def decode(record: bytes) -> Decoded:
    """Every stored event text of a record, its chain recomputed (ArchiveError when the record is unreadable or
    its chain does not end at its head)."""
    try:
        doc = _document(record)
        return _decoded(doc)
    except (zstandard.ZstdError, ValueError, KeyError, IndexError, TypeError, MemoryError) as exc:
        raise ArchiveError(f"the archive record cannot be read: {type(exc).__name__}: {exc}") from None


def _document(record: bytes) -> dict:
    """A record's document, decompressed (its frame's checksum checked: a format 2 record without one is damaged)."""
    if not record or record[0] not in FORMATS:
        raise ArchiveError(f"an archive record of unknown format {record[:1]!r}")
    frame = zstandard.get_frame_parameters(record[1:])
    if record[0] == 2 and not frame.has_checksum:
        raise ArchiveError("the archive record has lost its checksum")
    if frame.content_size > MAX_DOCUMENT:  # a damaged size field must not make a read allocate gigabytes
        raise ArchiveError(f"the archive record claims {frame.content_size} bytes")
    if frame.content_size > MAX_RATIO * len(record):
        raise ArchiveError(f"the archive record claims {frame.content_size} bytes from {len(record)}: more than "
                           f"{MAX_RATIO} times its size")
    return loads(zstandard.ZstdDecompressor().decompress(record[1:]))


def _chain_of(first: dict) -> int:
    """The chain format the first event declares (one the service can recompute, else ArchiveError)."""
    chain = chain_format([first])
    if chain not in (1, 2):
        raise ArchiveError(f"unknown chain format {chain}")
    return chain


def _events(doc: dict, upto: int | None = None):
    """(verbatim text or None, envelope without prev and hash, key order) of versions 1..upto of a record's document
    (a verbatim event's envelope is its text read, prev and hash included)."""
    match_id, seed_hex, raw = doc["match"], doc["seed"], doc["raw"]
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    orders, types, scopes, actors = doc["orders"], doc["types"], doc["scopes"], doc["actors"]
    o, t, s, a, at, d, r, c = (doc[k] for k in COLUMNS)
    ms, stamp_ms, stamp, cmd, next_draw = 0, None, "", None, 0
    for i in range(doc["length"] if upto is None else min(upto, doc["length"])):
        text = raw.get(str(i)) if raw else None
        if text is not None:  # verbatim
            env = loads(text)
            ms = _ms_or(env.get("at"), ms)
            cmd = env.get("cmd")
            next_draw = _after_draws(env.get("rng"), next_draw)
            yield text, env, None
            continue
        ms += at[i]
        if ms != stamp_ms:
            stamp_ms, stamp = ms, _at(ms)
        pairs = r[i]
        rng = None
        if pairs is not None:
            rng = [[n, pairs[k], pairs[k + 1], _draw(seed, match_id, n, pairs[k], pairs[k + 1])]
                   for n, k in zip(range(next_draw, next_draw + len(pairs) // 2), range(0, len(pairs), 2))]
            next_draw += len(pairs) // 2
        cc = c[i]
        cmd = None if cc == NONE else cmd if cc == SAME else cc
        # the keys in the sorted order a stored text has them (SEALED_ORDER), as a read of that text gives them
        yield None, {"actor": actors[a[i]], "at": stamp, "cmd": cmd, "data": d[i], "rng": rng,
                     "scope": scopes[s[i]], "type": types[t[i]], "version": i + 1}, orders[o[i]]


def bodies(record: bytes, upto: int) -> tuple[int, list, set]:
    """(the record's length, the envelopes of versions 1..upto without prev and hash, the types of the events after
    them): what a replay folds, read
    without recomputing the chain (as a replay of a stream does not verify it; zstd's checksum, which records
    written since it was added carry, still refuses a damaged one). ArchiveError when the record is unreadable."""
    try:
        doc = _document(record)
        envelopes = [env for _text, env, _order in _events(doc, upto)]
        raw, types = doc["raw"], doc["types"]
        later = {loads(raw[str(i)])["type"] if raw and str(i) in raw else types[doc["t"][i]]
                 for i in range(max(upto, 0), doc["length"])}
        return doc["length"], envelopes, later
    except (zstandard.ZstdError, ValueError, KeyError, IndexError, TypeError, MemoryError) as exc:
        raise ArchiveError(f"the archive record cannot be read: {type(exc).__name__}: {exc}") from None


def _decoded(doc: dict) -> Decoded:
    match_id, seed_hex = doc["match"], doc["seed"]
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    texts: list = []
    append, dumps, sorted_keys, digest = texts.append, orjson.dumps, orjson.OPT_SORT_KEYS, hmac.digest
    prev, chain = GENESIS, 1
    for version, (text, env, order) in enumerate(_events(doc), 1):
        if version == 1:
            chain = _chain_of(env)
        if text is not None:  # verbatim
            prev = env.get("hash")
            append(text)
        elif order == SEALED_ORDER and chain == SALTED_FORMAT and seed is not None:  # the common case, inlined
            try:
                body = dumps(env, option=sorted_keys).decode()
            except TypeError:
                body = canonical_json(env)
            salt = digest(seed, b"chain/%d" % version, "sha256").hex()
            h = sha256((prev + salt + body).encode()).hexdigest()
            append(f'{{"prev":"{prev}","hash":"{h}",{body[1:]}')
            prev = h
        else:
            text, prev = _rebuild(env, order, chain, seed, version, prev)
            append(text)
    if prev != doc["head"]:
        raise ArchiveError("the record's recomputed chain does not end at its head")
    return Decoded(match_id, texts, doc["head"], seed_hex, rebuilt_only=not doc["raw"])
