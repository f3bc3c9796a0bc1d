"""Canonical JSON and the hash chain over a match's events."""
from __future__ import annotations

import hashlib
import json

GENESIS = "0" * 64
HASHED_FIELDS = ("version", "type", "scope", "actor", "at", "data", "rng", "cmd")


def canonical_json(value) -> str:
    """JSON with sorted keys and no insignificant whitespace."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(prev: str, envelope: dict) -> str:
    """SHA-256 over the previous hash and the canonical JSON of the envelope's hashed fields."""
    body = {k: envelope.get(k) for k in HASHED_FIELDS}
    return hashlib.sha256((prev + canonical_json(body)).encode()).hexdigest()


def verify_chain(envelopes: list[dict]) -> int | None:
    """Return the first version whose hash, link or numbering is wrong, or None if the chain holds."""
    prev = GENESIS
    for expected_version, env in enumerate(envelopes, start=1):
        if env.get("version") != expected_version or env.get("prev") != prev:
            return expected_version
        if event_hash(prev, env) != env.get("hash"):
            return expected_version
        prev = env["hash"]
    return None
