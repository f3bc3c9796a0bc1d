"""The offline audit of an export document: no Redis, just the events and what the document claims."""
from __future__ import annotations

import json

from domain.engine import audit as audit_mod
from domain.engine import platform_events as pe

EXPORT_FORMAT = "turnstream-export/1"


def audit_export(doc, games: dict | None = None, kept_heads: list | None = None) -> dict:
    """Audit an export document offline (no Redis): its events, its claims of head, commitment and seed,
    and the heads (version, hash) a player kept while the match ran."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT or not isinstance(doc.get("events"), list) \
            or not all(isinstance(e, dict) for e in doc["events"]):
        raise ValueError(f"not a {EXPORT_FORMAT} document")
    report = audit_mod.audit(str(doc.get("match")), doc["events"], games, claimed_length=doc.get("length"),
                             claimed_head=doc.get("head"), kept_heads=kept_heads)
    rnd = report["randomness"]
    if doc.get("commitment") != rnd["commitment"]:
        report["problems"].append("the document's commitment differs from the one in match_created")
    revealed = next((e for e in doc["events"] if e.get("type") == pe.SEED_REVEALED), None)
    if doc.get("seed") is not None and (revealed is None or revealed["data"].get("seed") != doc["seed"]):
        report["problems"].append("the document's seed differs from the revealed one")
    if report["problems"]:
        report["ok"] = False
        if rnd["revealed"]:
            rnd["verified"] = False
    return report


def load_export(path: str) -> dict:
    """Read an export document from a file."""
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
