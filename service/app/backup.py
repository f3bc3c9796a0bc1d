"""Operator backup and restore: every match (events, hashes, commitment and its secret seed) and every user (id,
name, token digest, webhook; never a raw token) to a directory, and back into an empty or another Redis."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from domain.engine import audit as audit_mod
from domain.engine import platform_events as pe

from service.app.history import EXPORT_FORMAT, History
from service.store.keys import Keys

BACKUP_KIND = "turnstream-operator-backup/1"
WARNING = ("OPERATOR BACKUP: holds the secret seed of every running match (future dice and shuffles) and "
           "every player's token digest. Keep it private; never hand it to a player.")
USER_FIELDS = ("id", "name", "token_hash", "webhook", "webhook_secret")


class RestoreRefused(Exception):
    """A match or user could not be restored (bad chain, already there, not a backup)."""


# -- export ----------------------------------------------------------------------------------------
def match_ids(w) -> list:
    """Every stored match id (one SCAN over the match meta keys; every node of a cluster)."""
    found = set()
    for key in w.redis.scan_iter(match="ts:{p*}:m:*:meta", count=1000):
        found.add(key.split(":m:", 1)[1].rsplit(":meta", 1)[0])
    return sorted(found)


def user_ids(w) -> list:
    """Every user id."""
    return sorted(key.split("ts:user:", 1)[1] for key in w.redis.scan_iter(match="ts:user:*", count=1000))


def backup_match(history: History, match_id: str) -> dict:
    """The match's export document plus its secret seed, marked as an operator backup."""
    doc = history.export(match_id)
    doc.update(kind=BACKUP_KIND, warning=WARNING, secret_seed=history.store.secret(match_id))
    return doc


def backup_user(w, user_id: str) -> dict | None:
    """A user's record: id, name, token digest, webhook and its signing secret (and whether a legacy token key names it)."""
    rec = w.redis.hgetall(Keys.user(user_id))
    if not rec:
        return None
    out = {k: rec[k] for k in USER_FIELDS if rec.get(k)}
    if rec.get("token_hash") and w.redis.exists(Keys.token(rec["token_hash"])):
        out["legacy_token_key"] = True
    return out


def export_all(w, directory: Path, say=print) -> dict:
    """Write DIR/users.json, DIR/matches/<id>.json and DIR/manifest.json; return the counts."""
    directory = Path(directory)
    (directory / "matches").mkdir(parents=True, exist_ok=True)
    history = History.from_wiring(w)
    ids = match_ids(w)
    events = 0
    for n, match_id in enumerate(ids, 1):
        doc = backup_match(history, match_id)
        (directory / "matches" / f"{match_id}.json").write_text(json.dumps(doc, ensure_ascii=False) + "\n")
        events += doc["length"]
        if n % 100 == 0 or n == len(ids):
            say(f"  matches {n}/{len(ids)}: {events} events")
    users = [u for u in (backup_user(w, uid) for uid in user_ids(w)) if u]
    (directory / "users.json").write_text(json.dumps({"kind": BACKUP_KIND, "warning": WARNING, "users": users},
                                                     ensure_ascii=False, indent=1) + "\n")
    manifest = {"kind": BACKUP_KIND, "warning": WARNING, "matches": len(ids), "events": events, "users": len(users),
                "written_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "partitions": w.store.keys.partitions}
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


# -- import ----------------------------------------------------------------------------------------
def backup_files(paths) -> list:
    """The JSON files named, a backup directory expanded to its users file then its match files."""
    out = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out += [p for p in (path / "users.json",) if p.exists()] + sorted((path / "matches").glob("*.json"))
        else:
            out.append(path)
    return out


def verify_match(doc: dict, games: dict) -> dict:
    """The audit report of a backed-up match (chain with its seed, commitment, draws); refuses a bad one."""
    if doc.get("format") != EXPORT_FORMAT or not isinstance(doc.get("events"), list) or not doc["events"]:
        raise RestoreRefused("not a turnstream match export")
    seed = doc.get("secret_seed") or doc.get("seed")
    if not seed:
        raise RestoreRefused("no seed: only an operator backup (turnstream export --all) can be restored")
    report = audit_mod.audit(doc["match"], doc["events"], games, claimed_length=doc.get("length"),
                             claimed_head=doc.get("head"), seed=bytes.fromhex(seed))
    if not report["ok"]:
        raise RestoreRefused(f"the chain does not verify (broken at {report['broken_at']}; "
                             f"{'; '.join(report.get('problems', [])) or 'see turnstream audit --file'})")
    return report


def restore_match(w, doc: dict) -> int:
    """Verify a match's chain, then write it through the store's append script (its keys, partition and
    log entry as a live append makes them) if no match of that id exists; the number of events written."""
    verify_match(doc, w.games)
    created = doc["events"][0]
    if created.get("type") != pe.MATCH_CREATED or created["data"].get("game") not in w.games:
        raise RestoreRefused(f"game {created.get('data', {}).get('game')!r} is not hosted here")
    status = doc.get("status") or "active"
    secret = doc.get("secret_seed") or doc.get("seed")
    res = w.store.append(doc["match"], created["data"]["game"], 0, doc["events"], "0" * 64, doc["head"], status,
                         secret=secret)
    if res.status != "ok":
        raise RestoreRefused("a match with this id already exists here")
    return res.version


def restore_users(w, doc: dict) -> tuple[int, list]:
    """Write the users that do not exist yet (records and name index); (written, refused messages)."""
    from service.app.users import name_entry
    if doc.get("kind") != BACKUP_KIND or not isinstance(doc.get("users"), list):
        raise RestoreRefused("not a users file of an operator backup")
    written, refused = 0, []
    for user in doc["users"]:
        uid = user.get("id")
        if not uid or not user.get("name"):
            refused.append(f"user {uid!r}: no id or name")
            continue
        if w.redis.exists(Keys.user(uid)):
            refused.append(f"user {uid}: already exists here")
            continue
        pipe = w.redis.pipeline(transaction=False)
        pipe.hset(Keys.user(uid), mapping={k: user[k] for k in USER_FIELDS if user.get(k)})
        pipe.zadd(Keys.user_names(), {name_entry(user["name"], uid): 0})
        if user.get("legacy_token_key") and user.get("token_hash"):
            pipe.set(Keys.token(user["token_hash"]), uid)
        pipe.execute()
        written += 1
    return written, refused


def import_files(w, paths, say=print) -> dict:
    """Restore users and matches from backup files (each match verified first); then rebuild the projections.
    Returns {"users", "matches", "events", "refused": [messages]}."""
    from projections.rebuild import rebuild_projections
    counts = {"users": 0, "matches": 0, "events": 0, "refused": []}
    files = backup_files(paths)
    for n, path in enumerate(files, 1):
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            if isinstance(doc, dict) and "users" in doc and "events" not in doc:
                written, refused = restore_users(w, doc)
                counts["users"] += written
                counts["refused"] += [f"{path}: {r}" for r in refused]
            else:
                counts["events"] += restore_match(w, doc)
                counts["matches"] += 1
        except (OSError, ValueError, KeyError, TypeError, RestoreRefused) as exc:
            counts["refused"].append(f"{path}: {exc}")
        if n % 100 == 0 or n == len(files):
            say(f"  files {n}/{len(files)}: {counts['matches']} matches, {counts['users']} users restored")
    rebuild_projections(w, say)
    return counts
