"""Audit of a match's stored events: the hash chain, the seed commitment and, once revealed, every draw.

What can be verified from the events alone: the chain (numbering, links, hashes: the first broken
version is named; a salted format-2 chain needs the seed: the server's secret while the match runs,
the revealed one after; heads a player kept are checked to lie on it), that `match_created` commits to sha256(seed), and after `seed_revealed` that the
seed matches the commitment, that the draw counter only ever moved forward (0, 1, 2, ... across the
whole stream, reverted commands included) and that every recorded draw [n, lo, hi, value] equals
draw_value(seed, match id, n, lo, hi). With the game module at hand, the opening setup events are
also re-derived from their recorded draws.
"""
from __future__ import annotations

import copy
import hashlib

from . import platform_events as pe
from .aggregate import game_event
from .contract import FIRST_RULES_VERSION
from .hashing import GENESIS, SALTED_FORMAT, chain_format, verify_chain
from .rng import ReplayRng, draw_value
from .text import T


def _first(envelopes: list, type_: str) -> dict | None:
    return next((e for e in envelopes if e.get("type") == type_ and e.get("scope") == pe.PLATFORM), None)


def check_draws(match_id: str, seed: bytes, envelopes: list) -> list[str]:
    """Problems with the recorded draws under `seed` (empty when every draw re-derives)."""
    problems = []
    expected_n = 0
    for env in envelopes:
        for draw in env.get("rng") or ():
            if not (isinstance(draw, list) and len(draw) == 4 and all(isinstance(x, int) for x in draw)):
                problems.append(T("version {version}: malformed draw {draw}", version=env.get("version"),
                                  draw=repr(draw)))
                continue
            n, lo, hi, value = draw
            if n != expected_n:
                problems.append(T("version {version}: draw {n} recorded where draw {due} was due",
                                  version=env.get("version"), n=n, due=expected_n))
            expected_n = n + 1
            if hi < lo or draw_value(seed, match_id, n, lo, hi) != value:
                gives = draw_value(seed, match_id, n, lo, hi) if hi >= lo else T("nothing")
                problems.append(T("version {version}: draw {n} in {lo}..{hi} recorded {value}, the seed gives {gives}",
                                  version=env.get("version"), n=n, lo=lo, hi=hi, value=value, gives=gives))
    return problems


def setup_events(envelopes: list) -> list:
    """The game events appended with `match_started` (the opening setup), in order."""
    out, started = [], False
    for env in envelopes:
        if env.get("type") == pe.MATCH_STARTED and env.get("scope") == pe.PLATFORM:
            started = True
            continue
        if started:
            if env.get("scope") != pe.GAME or env.get("actor") is not None or env.get("cmd") is not None:
                break
            out.append(env)
    return out


def check_setup(game, envelopes: list) -> list[str]:
    """Problems re-deriving the setup events from their recorded draws with the game's `setup`."""
    created = _first(envelopes, pe.MATCH_CREATED)
    started = _first(envelopes, pe.MATCH_STARTED)
    if created is None or started is None:
        return []
    recorded = setup_events(envelopes)
    draws = [d for env in [started] + recorded for d in (env.get("rng") or [])]
    try:
        rederived = game.setup(list(started["data"]["players"]), copy.deepcopy(created["data"]["options"]),
                               ReplayRng(draws))
    except (ValueError, KeyError, TypeError) as exc:
        return [T("setup does not re-derive from its draws: {why}", why=str(exc))]
    got = [game_event(game, e) for e in recorded]  # stored in an older payload shape: read as the game reads it
    want = [{"type": e["type"], "data": e["data"]} for e in rederived]
    return [] if got == want else [T("the setup events differ from those the game derives from the recorded draws")]


def _revealed_seed(envelopes: list) -> bytes | None:
    """The seed `seed_revealed` published, as bytes (None when none is, or it is not hex)."""
    revealed = _first(envelopes, pe.SEED_REVEALED)
    try:
        return bytes.fromhex((revealed or {}).get("data", {}).get("seed") or "") or None
    except (ValueError, AttributeError, TypeError):
        return None


def check_kept_heads(envelopes: list, kept: list) -> tuple[list, list]:
    """([{version, hash, on_chain}], problems) for heads (version, hash) a player kept while the match ran."""
    out, problems = [], []
    for version, digest in kept:
        on_chain = 1 <= version <= len(envelopes) and envelopes[version - 1].get("hash") == digest
        out.append({"version": version, "hash": digest, "on_chain": on_chain})
        if version > len(envelopes):  # the history once reached further: events were lost (a failover, a restore)
            problems.append(T("the stored history ends at version {length}, before the head kept at version "
                              "{version}: its head moved backwards", length=len(envelopes), version=version))
        elif not on_chain:
            problems.append(T("the head kept at version {version} ({digest}...) is not on this chain",
                              version=version, digest=digest[:16]))
    return out, problems


def check_chain(envelopes: list, seed: bytes | None) -> tuple[int | None, dict, list]:
    """(first broken version or None, {format, hashes_verified}, problems) of the hash chain.

    A salted chain without its seed has only its numbering and links checked, and says so."""
    chain = chain_format(envelopes)
    salted = chain == SALTED_FORMAT
    if salted and seed is None:
        broken = verify_chain(envelopes, links_only=True)
        return broken, {"format": chain, "hashes_verified": False}, [
            T("the hash chain is salted (format 2) and its seed is not revealed yet: its hashes can be "
              "verified once the match has finished")]
    return verify_chain(envelopes, seed), {"format": chain, "hashes_verified": True}, []


def check_randomness(match_id: str, envelopes: list, games: dict | None) -> tuple[dict, list]:
    """({commitment, revealed, verified}, problems): the commitment, and once revealed the seed and every draw."""
    created = _first(envelopes, pe.MATCH_CREATED)
    commitment = (created or {}).get("data", {}).get("commitment")
    revealed = _first(envelopes, pe.SEED_REVEALED)
    problems = []
    if revealed is not None:
        seed = _revealed_seed(envelopes)
        if seed is None or hashlib.sha256(seed).hexdigest() != commitment:
            problems.append(T("the revealed seed does not match the commitment published at creation"))
        else:
            problems += check_draws(match_id, seed, envelopes)
            problems += _check_setup_under_its_rules(games, created, envelopes)
    verified = None if revealed is None else not problems
    return {"commitment": commitment, "revealed": revealed is not None, "verified": verified}, problems


def _check_setup_under_its_rules(games: dict | None, created: dict | None, envelopes: list) -> list[str]:
    """check_setup under the rules version the match was created with (a problem when it is not installed)."""
    data = (created or {}).get("data", {})
    game = (games or {}).get(data.get("game"))
    if game is None:
        return []
    try:
        rules = game.created_under(data.get("rules_version"))
    except ValueError as exc:
        return [T("the match's rules cannot be loaded here: {why}", why=str(exc))]
    return check_setup(rules, envelopes)


def audit(match_id: str, envelopes: list, games: dict | None = None, claimed_length: int | None = None,
          claimed_head: str | None = None, seed: bytes | None = None, kept_heads: list | None = None) -> dict:
    """The audit report of a match's envelopes (in stored order): chain, commitment, revealed randomness.

    `claimed_length`/`claimed_head` are what the store's metadata (or an export) says the head is: a
    shorter or different stream than claimed is broken at the first missing version. `seed` (the
    server's secret) verifies a salted chain before the seed is revealed; `kept_heads` are
    (version, hash) pairs a player was shown, each checked to lie on the chain."""
    broken, chain, problems = check_chain(envelopes, seed or _revealed_seed(envelopes))
    length = len(envelopes)
    head = envelopes[-1].get("hash") if envelopes else GENESIS
    if broken is None and claimed_length is not None and claimed_length != length:
        broken = min(length, claimed_length) + 1
    if broken is None and claimed_head is not None and claimed_head != head:
        broken = length
    created = _first(envelopes, pe.MATCH_CREATED)
    if created is None or created.get("version") != 1:
        problems.append(T("the stream does not open with match_created"))
    kept, kept_problems = check_kept_heads(envelopes, kept_heads or [])
    randomness, random_problems = check_randomness(match_id, envelopes, games)
    problems += kept_problems + random_problems
    return {"ok": broken is None and not problems, "length": length, "head": head, "broken_at": broken,
            "chain": chain, "kept_heads": kept, "randomness": randomness, "rules": rules_periods(envelopes),
            "problems": problems}


def rules_periods(envelopes: list) -> list[dict]:
    """Which rules version judged which events: [{"from_version": v, "rules_version": r}], oldest first (the
    version of match_created, then each rules_upgraded)."""
    periods = []
    for env in envelopes:
        if env.get("scope") != pe.PLATFORM:
            continue
        if env.get("type") == pe.MATCH_CREATED:
            periods.append({"from_version": env.get("version"),
                            "rules_version": (env.get("data") or {}).get("rules_version") or FIRST_RULES_VERSION})
        elif env.get("type") == pe.RULES_UPGRADED:
            periods.append({"from_version": env.get("version"), "rules_version": (env.get("data") or {}).get("to")})
    return periods
