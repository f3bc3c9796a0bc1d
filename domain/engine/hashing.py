"""Canonical JSON and the hash chain over a match's events (format 2: salted per event with a secret).

Format 1 (matches created before the salt): hash = SHA-256(prev + canonical JSON of the hashed fields).
Format 2 (`match_created {chain: 2}`): hash = SHA-256(prev + salt + canonical JSON), where the salt of
version v is HMAC-SHA256(seed, "chain/<v>") in hex. The seed is the match's secret until
`seed_revealed`, so nobody can hash a guessed hidden field against a published hash; once revealed,
anyone re-verifies the whole chain. The salt message has no ":" so it never equals a draw's message
("<match id>:<n>", rng.derive_draw).
"""
from __future__ import annotations

import hashlib
import hmac

from .json_codec import canonical_json

GENESIS = "0" * 64
HASHED_FIELDS = ("version", "type", "scope", "actor", "at", "data", "rng", "cmd")
LEGACY_FORMAT = 1
SALTED_FORMAT = 2
CHAIN_FORMAT = SALTED_FORMAT  # the format of new matches


def chain_salt(seed: bytes, version: int) -> str:
    """The secret salt of event `version` of a format-2 chain: HMAC-SHA256(seed, "chain/<version>"), hex."""
    return hmac.digest(seed, f"chain/{version}".encode(), "sha256").hex()


def salt_for(chain: int, seed: bytes | None, version: int) -> str:
    """The salt an event of a chain of format `chain` carries ("" for format 1); format 2 needs the seed."""
    if chain < SALTED_FORMAT:
        return ""
    if seed is None:
        raise ValueError("a salted (format 2) hash chain needs the match's seed")
    return chain_salt(seed, version)


def hash_body(prev: str, salt: str, body: str) -> str:
    """The hash of one event from its predecessor's hash, its salt and its canonical JSON."""
    return hashlib.sha256((prev + salt + body).encode()).hexdigest()


def event_hash(prev: str, envelope: dict, salt: str = "") -> str:
    """SHA-256 over the previous hash, the salt and the canonical JSON of the envelope's hashed fields."""
    body = {k: envelope.get(k) for k in HASHED_FIELDS}
    return hash_body(prev, salt, canonical_json(body))


def chain_format(envelopes: list) -> int:
    """The chain format a stream declares in its opening match_created (1 when it names none)."""
    first = envelopes[0] if envelopes else {}
    if first.get("type") == "match_created" and isinstance(first.get("data"), dict):
        declared = first["data"].get("chain", LEGACY_FORMAT)
        return declared if isinstance(declared, int) and not isinstance(declared, bool) else -1
    return LEGACY_FORMAT


def verify_chain(envelopes: list[dict], seed: bytes | None = None, links_only: bool = False) -> int | None:
    """Return the first version whose hash, link or numbering is wrong, or None if the chain holds.

    A format-2 chain needs the seed (ValueError without it) unless `links_only`, which checks the
    numbering and the prev links but recomputes no hash; an unknown format breaks at version 1."""
    chain = chain_format(envelopes)
    if chain not in (LEGACY_FORMAT, SALTED_FORMAT):
        return 1
    prev = GENESIS
    for expected_version, env in enumerate(envelopes, start=1):
        if env.get("version") != expected_version or env.get("prev") != prev:
            return expected_version
        if not links_only and event_hash(prev, env, salt_for(chain, seed, expected_version)) != env.get("hash"):
            return expected_version
        prev = env.get("hash")
    return None
