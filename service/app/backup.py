"""Operator backup and restore: every match (events, hashes, commitment and its secret seed), every user (id,
name, token digest, webhook, proven address, notification preferences and mail language; never a raw token) and
the installation's signing keys (mail links, webhooks of old) to a directory, and back into an empty or another
Redis: a restored installation serves the same people the same way."""
from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

from domain.engine import aggregate as agg
from domain.engine import audit as audit_mod
from domain.engine import platform_events as pe
from domain.engine.bot_seats import is_bot
from domain.engine.hashing import LEGACY_FORMAT, SALTED_FORMAT
from projections.rebuild import rebuild_projections

from service.app.display_names import MAX_LENGTH as MAX_NAME, display_name
from service.app.errors import Invalid
from service.app.history import EXPORT_FORMAT, History
from service.app.ids import id_refusal
from service.app.mail.contacts import DIGEST, LANGUAGES, check_address, check_preferences
from service.app.users import name_entry
from service.app.webhook_targets import literal_refusal, parse_allowlist
from service.store.archive_codec import ArchiveError
from service.store.backup_records import INSTALLATION
from service.store.results import Append

BACKUP_KIND = "turnstream-operator-backup/1"
WARNING = ("OPERATOR BACKUP: holds the secret seed of every running match (future dice and shuffles), "
           "every player's token digest and address, and the keys that sign mailed links. Keep it private; never "
           "hand it to a player.")
USER_FIELDS = ("id", "name", "token_hash", "webhook", "webhook_secret", "email", "email_verified", "lang", "notify")
# the installation's own keys, by their name in installation.json: without them a restore breaks every link mailed
INSTALLATION_KEYS = tuple(INSTALLATION)
INSTALLATION_KEY = re.compile(r"[\x21-\x7e]{16,256}")


class RestoreRefused(Exception):
    """A match or user could not be restored (bad chain, already there, not a backup)."""


# -- export ----------------------------------------------------------------------------------------
def match_ids(w) -> list:
    """Every stored match id (one SCAN over the match meta keys; every node of a cluster)."""
    return w.backups.match_ids()


def user_ids(w) -> list:
    """Every user id."""
    return w.backups.user_ids()


def backup_match(history: History, match_id: str) -> dict:
    """The match's export document plus its secret seed, marked as an operator backup."""
    doc = history.export(match_id)
    doc.update(kind=BACKUP_KIND, warning=WARNING, secret_seed=history.store.secret(match_id))
    return doc


def backup_installation(w) -> dict:
    """The installation's signing keys this Redis holds, by name."""
    values = w.backups.installation(INSTALLATION_KEYS)
    return {name: value for name, value in values.items() if value}


def backup_user(w, user_id: str) -> dict | None:
    """A user's record: id, name, token digest, webhook and its signing secret, address (proven or not), mail
    language and notification preferences (and whether a legacy token key names it)."""
    rec, legacy = w.backups.user(user_id)
    if not rec:
        return None
    out = {k: rec[k] for k in USER_FIELDS if rec.get(k)}
    if legacy:
        out["legacy_token_key"] = True
    return out


PRIVATE_FILE, PRIVATE_DIR = 0o600, 0o700  # a backup holds every seed: readable by its owner only


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` readable and writable by its owner only (0600), also when it existed before."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    with open(fd, "w", encoding="utf-8") as fh:
        os.fchmod(fh.fileno(), PRIVATE_FILE)
        fh.write(text)


def private_directory(directory: Path, say=print) -> None:
    """Make the backup's folder (and matches/) 0700. A folder that held other files before is not the
    backup's own: its mode is left alone, and said (the files in it are 0600 all the same)."""
    own = {"matches", "users.json", "installation.json", "manifest.json"}
    existed = directory.exists() and any(p.name not in own for p in directory.iterdir())
    directory.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    (directory / "matches").mkdir(mode=PRIVATE_DIR, exist_ok=True)
    os.chmod(directory / "matches", PRIVATE_DIR)
    if not existed:
        os.chmod(directory, PRIVATE_DIR)
    elif directory.stat().st_mode & 0o077:
        say(f"  {directory} holds other files, so its mode is left as it is ({directory.stat().st_mode & 0o777:o}); "
            f"the backup files in it are readable by their owner only")


def export_all(w, directory: Path, say=print) -> dict:
    """Write DIR/users.json, DIR/installation.json, DIR/matches/<id>.json and DIR/manifest.json, each 0600 in a
    0700 folder; return the counts."""
    directory = Path(directory)
    private_directory(directory, say)
    history = History.from_wiring(w)
    ids = match_ids(w)
    events, damaged = 0, []
    for n, match_id in enumerate(ids, 1):
        try:
            doc = backup_match(history, match_id)
        except ArchiveError as exc:  # one damaged record: said, and the others are still saved
            damaged.append(match_id)
            say(f"  {match_id}: NOT in the backup: {exc}")
            continue
        write_private(directory / "matches" / f"{match_id}.json", json.dumps(doc, ensure_ascii=False) + "\n")
        events += doc["length"]
        if n % 100 == 0 or n == len(ids):
            say(f"  matches {n}/{len(ids)}: {events} events")
    users = [u for u in (backup_user(w, uid) for uid in user_ids(w)) if u]
    write_private(directory / "users.json", json.dumps({"kind": BACKUP_KIND, "warning": WARNING, "users": users},
                                                       ensure_ascii=False, indent=1) + "\n")
    keys = backup_installation(w)
    write_private(directory / "installation.json", json.dumps({"kind": BACKUP_KIND, "warning": WARNING,
                                                               "installation": keys}, indent=1) + "\n")
    manifest = {"kind": BACKUP_KIND, "warning": WARNING, "matches": len(ids) - len(damaged), "events": events,
                "users": len(users), "damaged": damaged, "installation": sorted(keys),
                "written_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "partitions": w.store.keys.partitions}
    write_private(directory / "manifest.json", json.dumps(manifest, indent=1) + "\n")
    return manifest


# -- import ----------------------------------------------------------------------------------------
# `turnstream import` trusts nothing in the files: every file is checked first and, when anything is refused,
# nothing at all is written. A match: its id, the chain with the secret seed, the seed against the commitment,
# the chain format against what match_created records, every draw, the ids it names, and its status, version and
# head recomputed by folding its events. A user: the id and name checks of the API, no token for a bot, a token
# digest and webhook as the service stores them (the webhook target checked as a registration checks it).
TOKEN_DIGEST = re.compile(r"[0-9a-f]{64}")
MAX_DEPTH = 64  # arrays and objects in a backup file (the API refuses bodies nesting more than 32)
WEBHOOK_SECRET = re.compile(r"[\x21-\x7e]{16,128}")  # as PUT /api/users/me/webhook takes one
# match_created fields written only by versions that salt every chain (format 2): a format-1 stream with one of
# them had its chain rewritten unsalted (the hash oracle reopened)
SALTED_ERA_FIELDS = ("invited", "rules_version", "rules_digest")


def backup_files(paths) -> list:
    """The JSON files named, a backup directory expanded to its installation and users files then its match files."""
    out = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out += [p for p in (path / "installation.json", path / "users.json") if p.exists()]
            out += sorted((path / "matches").glob("*.json"))
        else:
            out.append(path)
    return out


def _seed_of(doc: dict) -> tuple[bytes | None, str | None]:
    """(the backup's secret seed as bytes, why it cannot be used)."""
    seed = doc.get("secret_seed") or doc.get("seed")
    if not seed:
        return None, "no seed: only an operator backup (turnstream export --all) can be restored"
    try:
        return bytes.fromhex(seed), None
    except (ValueError, TypeError):
        return None, "the secret seed is not hexadecimal"


def _chain_problems(created: dict) -> list:
    """A chain format match_created cannot have declared: unknown, or unsalted (1) where it was salted."""
    data = created["data"]
    if "chain" not in data:
        era = [k for k in SALTED_ERA_FIELDS if k in data]
        if not era:
            return []  # a match from before the salt: it keeps its unsalted chain
        return [f"match_created declares no chain format (the unsalted format 1 of old matches) but records "
                f"{', '.join(era)}, written only since every chain is salted (format 2): a downgraded chain"]
    fmt = data["chain"]
    if isinstance(fmt, bool) or fmt not in (LEGACY_FORMAT, SALTED_FORMAT):
        return [f"match_created declares the unknown chain format {fmt!r}"]
    if fmt == LEGACY_FORMAT:  # the service never wrote "chain": 1 (old matches name none, new ones 2)
        return ["match_created declares the unsalted chain format 1, which no match was created with: a downgraded "
                "chain"]
    return []


def _named_ids(match) -> list:
    """The problems with the user and match ids a folded match names (players, creator, invited, actors, rematch)."""
    problems = []
    users = dict.fromkeys([*match.players, *match.invited, *([match.created_by] if match.created_by else [])])
    users.update(dict.fromkeys(e.get("actor") for e in match.envelopes if e.get("actor") is not None))
    for uid in users:
        why = id_refusal("user_id", uid)
        if why:
            problems.append(f"it names a user whose id is refused: {why}")
    if match.rematch is not None and id_refusal("match_id", match.rematch):
        problems.append(f"its rematch is refused: {id_refusal('match_id', match.rematch)}")
    return problems


def check_match(doc, games: dict) -> tuple[dict | None, list]:
    """(what to write, []) for a backed-up match that verifies in every way this file lets it be verified, else
    (None, [one line per problem])."""
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT or not isinstance(doc.get("events"), list) \
            or not doc["events"] or not all(isinstance(e, dict) for e in doc["events"]):
        return None, ["not a turnstream match export"]
    match_id, events = doc.get("match"), doc["events"]
    problems = []
    if id_refusal("match_id", match_id):
        return None, [f"the match id is refused: {id_refusal('match_id', match_id)}"]
    seed, why = _seed_of(doc)
    if seed is None:
        return None, [why]
    created = events[0]
    data = created.get("data") if isinstance(created.get("data"), dict) else {}
    if created.get("type") != pe.MATCH_CREATED or created.get("version") != 1 or not data.get("commitment"):
        return None, ["the stream does not open with match_created"]
    if data.get("game") not in games:
        return None, [f"game {data.get('game')!r} is not hosted here"]
    if hashlib.sha256(seed).hexdigest() != data["commitment"]:
        problems.append("the secret seed does not match the commitment published in match_created "
                        "(sha256(seed) differs)")
    elif doc.get("commitment") not in (None, data["commitment"]):
        problems.append("the file's commitment is not the one match_created published")
    problems += _chain_problems(created)
    if problems:  # without the right seed or format the chain cannot be checked as it was made
        return None, problems
    report = audit_mod.audit(match_id, events, games, claimed_length=doc.get("length"),
                             claimed_head=doc.get("head"), seed=seed)
    if not report["ok"]:
        return None, [f"the chain does not verify (broken at {report['broken_at']}; "
                      f"{'; '.join(report.get('problems', [])) or 'see turnstream audit --file'})"]
    if not report["randomness"]["revealed"]:  # the audit checks draws once revealed: check them with the secret
        problems += [f"randomness: {p}" for p in audit_mod.check_draws(match_id, seed, events)]
    try:
        match = agg.fold(match_id, events, games)
    except Exception as exc:  # noqa: BLE001 - any failure to fold is a refusal with its reason
        return None, problems + [f"the events do not fold into a match ({type(exc).__name__}: {exc})"]
    problems += _named_ids(match)
    if doc.get("status") not in (None, match.status):
        problems.append(f"the file says status {doc['status']!r}, its events say {match.status!r}")
    if doc.get("game") not in (None, match.game_id):
        problems.append(f"the file says game {doc['game']!r}, its match_created says {match.game_id!r}")
    if problems:
        return None, problems
    return {"match": match_id, "game": match.game_id, "events": events, "version": match.version,
            "head": match.head, "status": match.status, "secret": seed.hex(), "report": report}, []


def _webhook_problems(user: dict, allow: tuple) -> list:
    """A webhook as PUT /api/users/me/webhook would refuse it: not an http(s) URL, a bad port, a target that is not
    public (nor allowlisted by TURNSTREAM_WEBHOOK_ALLOW), a malformed signing secret."""
    url, secret = user.get("webhook"), user.get("webhook_secret")
    problems = []
    if url is not None:
        try:
            parts = urlsplit(url) if isinstance(url, str) else None
            port_ok = parts is not None and parts.port != 0
        except ValueError:
            parts, port_ok = None, False
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
                or any(ch.isspace() or ord(ch) < 0x20 for ch in url):
            problems.append(f"webhook {url!r} is not an http or https URL")
        elif not port_ok:
            problems.append(f"webhook {url!r}: the port must be 1-65535")
        else:
            refusal = literal_refusal(url, allow)
            if refusal:
                problems.append(f"webhook {url!r} is refused: {refusal}")
    if secret is not None and not (isinstance(secret, str) and WEBHOOK_SECRET.fullmatch(secret)):
        problems.append("the webhook secret is not 16-128 printable ASCII characters without spaces")
    return problems


def check_user(user) -> list:
    """The problems with one user record of a users file, as the API would see them (empty: it can be written)."""
    if not isinstance(user, dict):
        return ["not a user record"]
    uid, problems = user.get("id"), []
    why = id_refusal("user_id", uid)
    if why:
        return [f"the user id is refused: {why}"]
    name = user.get("name")
    if not isinstance(name, str):
        problems.append("no name")
    else:
        reasons = []
        try:
            if display_name(name) != name:
                reasons.append("the API stores names without spaces at either end")
        except ValueError as exc:
            reasons.append(str(exc))
            try:  # too long: what else is wrong with it
                display_name(name.strip()[:MAX_NAME])
            except ValueError as more:
                reasons.append(str(more))
        if reasons:
            problems.append(f"name {name[:24]!r}{'...' if len(name) > 24 else ''} ({len(name)} characters) is "
                            f"refused: {'; '.join(dict.fromkeys(reasons))}")
    digest = user.get("token_hash")
    if is_bot(uid):
        if digest or user.get("legacy_token_key"):
            problems.append("a bot has no token: its record may not carry one")
    elif digest is not None and not (isinstance(digest, str) and TOKEN_DIGEST.fullmatch(digest)):
        problems.append("the token digest is not a SHA-256 in lowercase hex")
    if user.get("legacy_token_key") and not digest:
        problems.append("a legacy token key without a token digest")
    return problems + _contact_problems(user)


def _contact_problems(user: dict) -> list:
    """An address, its proof, a mail language and preferences as the API would store them."""
    problems, email = [], user.get("email")
    if email is not None:
        try:
            if check_address(email) != email:
                problems.append("the address has spaces at either end")
        except Invalid:
            problems.append("the address is not an e-mail address")
    if user.get("email_verified") not in (None, "", "1") or (user.get("email_verified") and not email):
        problems.append("email_verified is \"1\" for a proven address, else empty")
    if user.get("lang") is not None and user.get("lang") not in LANGUAGES:
        problems.append(f"the mail language is not one of {', '.join(LANGUAGES)}")
    if user.get("notify") is not None:
        try:
            prefs = json.loads(user["notify"]) if isinstance(user["notify"], str) else None
            if not isinstance(prefs, dict):
                raise ValueError("not an object")
            check_preferences(prefs)
        except (ValueError, Invalid):
            problems.append("the notification preferences are not ones the API would store")
    return problems


def check_users(doc, allow: tuple = ()) -> tuple[list, list]:
    """(the user records to write, [one line per problem]) of a users file."""
    if not isinstance(doc, dict) or doc.get("kind") != BACKUP_KIND or not isinstance(doc.get("users"), list):
        return [], ["not a users file of an operator backup"]
    records, problems = [], []
    for user in doc["users"]:
        found = check_user(user) + (_webhook_problems(user, allow) if isinstance(user, dict) else [])
        label = f"user {user.get('id')!r}" if isinstance(user, dict) and isinstance(user.get("id"), str) else "a user"
        problems += [f"{label}: {p}" for p in found]
        if not found:
            records.append(user)
    return records, problems


def plan_import(w, paths) -> tuple[dict, list]:
    """Read and check every file, then what is already in this Redis: ({"users", "matches"}, problems). Nothing
    is written; any problem refuses the whole import."""
    allow = parse_allowlist(getattr(w.settings, "webhook_allow", "") or "")
    plan: dict = {"users": [], "matches": [], "installation": {}}
    problems: list = []
    user_src, match_src = {}, {}
    for path in backup_files(paths):
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            problems.append(f"{path}: cannot be read as JSON ({exc})")
            continue
        except RecursionError:
            problems.append(f"{path}: nests arrays and objects more than {MAX_DEPTH} levels deep")
            continue
        if nesting(doc) > MAX_DEPTH:
            problems.append(f"{path}: nests arrays and objects more than {MAX_DEPTH} levels deep")
            continue
        if isinstance(doc, dict) and "installation" in doc and "events" not in doc:
            keys, found = check_installation(doc)
            problems += [f"{path}: {p}" for p in found]
            plan["installation"].update(keys)
        elif isinstance(doc, dict) and "users" in doc and "events" not in doc:
            records, found = check_users(doc, allow)
            problems += [f"{path}: {p}" for p in found]
            for user in records:
                if user["id"] in user_src:
                    problems.append(f"{path}: user {user['id']!r} is also in {user_src[user['id']]}")
                    continue
                user_src[user["id"]] = path
                plan["users"].append(user)
        else:
            match, found = check_match(doc, w.games)
            problems += [f"{path}: {p}" for p in found]
            if match is not None:
                if match["match"] in match_src:
                    problems.append(f"{path}: match {match['match']} is also in {match_src[match['match']]}")
                    continue
                match_src[match["match"]] = path
                plan["matches"].append(match)
    digests: dict = {}
    for user in plan["users"]:
        if user.get("token_hash"):
            if user["token_hash"] in digests:
                problems.append(f"{user_src[user['id']]}: user {user['id']!r} has the token digest of user "
                                f"{digests[user['token_hash']]!r}")
            digests.setdefault(user["token_hash"], user["id"])
    proven: dict = {}
    for user in plan["users"]:
        if user.get("email_verified"):
            address = user["email"].casefold()
            if address in proven:
                problems.append(f"{user_src[user['id']]}: user {user['id']!r} proved the address of user "
                                f"{proven[address]!r}")
            proven.setdefault(address, user["id"])
    problems += _already_here(w, plan, user_src, match_src)
    return plan, problems


def nesting(value) -> int:
    """How deep arrays and objects nest in a JSON value (iteratively: no depth can exhaust the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def check_installation(doc) -> tuple[dict, list]:
    """(the installation keys to restore, [one line per problem]) of an installation file."""
    keys = doc.get("installation") if isinstance(doc, dict) and doc.get("kind") == BACKUP_KIND else None
    if not isinstance(keys, dict):
        return {}, ["not an installation file of an operator backup"]
    problems = [f"unknown installation key {name!r}" for name in keys if name not in INSTALLATION_KEYS]
    problems += [f"the {name} is not 16-256 printable ASCII characters" for name, value in keys.items()
                 if name in INSTALLATION_KEYS and not (isinstance(value, str) and INSTALLATION_KEY.fullmatch(value))]
    return ({} if problems else dict(keys)), problems


def _already_here(w, plan: dict, user_src: dict, match_src: dict) -> list:
    """What of the plan this Redis already holds (users, legacy token keys, matches): one pipelined read."""
    users, matches = plan["users"], plan["matches"]
    legacy = [u for u in users if u.get("legacy_token_key")]
    if not users and not matches:
        return []
    proven = [u for u in users if u.get("email_verified")]
    found = iter(w.backups.already_here([u["id"] for u in users], [u["token_hash"] for u in legacy],
                                        [u["email"] for u in proven], [m["match"] for m in matches]))
    problems = [f"{user_src[u['id']]}: user {u['id']}: already exists here" for u in users if next(found)]
    problems += [f"{user_src[u['id']]}: user {u['id']}: its legacy token key is already in use here"
                 for u in legacy if next(found)]
    problems += [f"{user_src[u['id']]}: user {u['id']}: its proven address is another player's here"
                 for u in proven if next(found)]
    problems += [f"{match_src[m['match']]}: a match with this id already exists here" for m in matches if next(found)]
    return problems


def restore_match(w, plan: dict) -> int:
    """Write one checked match through the store's append script (its keys, partition and log entry as a live
    append makes them), with the status and head its events gave; the number of events written."""
    res = w.store.append(Append(plan["match"], plan["game"], 0, plan["events"], "0" * 64, plan["head"],
                                plan["status"], secret=plan["secret"]))
    if res.status != "ok":
        raise RestoreRefused("a match with this id appeared here during the import")
    return res.version


def restore_user(w, user: dict) -> None:
    """Write one checked user record and its name index entry (and a legacy token key when it had one)."""
    w.backups.restore_user({k: user[k] for k in USER_FIELDS if user.get(k)}, name_entry(user["name"], user["id"]),
                           user["token_hash"] if user.get("legacy_token_key") and user.get("token_hash") else None,
                           user["email"] if user.get("email_verified") else None,
                           bool(user.get("notify")) and json.loads(user["notify"]).get("your_move") == DIGEST)


def restore_installation(w, keys: dict) -> list:
    """Write the installation's signing keys (the links mailed before the backup work again); the names of those
    that replaced a different key this Redis held (the links it mailed itself stop working)."""
    held = w.backups.installation(keys)
    w.backups.set_installation(keys)
    return [name for name, value in keys.items() if held.get(name) not in (None, value)]


def import_files(w, paths, say=print) -> dict:
    """Restore users and matches from backup files: every file checked first (plan_import); if anything is
    refused nothing is written; else users, then matches, then every projection rebuilt.
    Returns {"users", "matches", "events", "refused": [one line per problem]}."""
    counts = {"users": 0, "matches": 0, "events": 0, "refused": []}
    plan, problems = plan_import(w, paths)
    if problems:
        counts["refused"] = problems
        say(f"  nothing restored: {len(problems)} problem{'s' if len(problems) != 1 else ''} found")
        return counts
    replaced = restore_installation(w, plan["installation"])
    if plan["installation"]:
        say(f"  installation keys restored: {', '.join(sorted(plan['installation']))}"
            + (f" (replacing this Redis's own {', '.join(replaced)}: links it mailed stop working)" if replaced else ""))
    for user in plan["users"]:
        restore_user(w, user)
        counts["users"] += 1
    for n, match in enumerate(plan["matches"], 1):
        try:
            counts["events"] += restore_match(w, match)
            counts["matches"] += 1
        except RestoreRefused as exc:  # a writer raced the import since it was checked
            counts["refused"].append(f"match {match['match']}: {exc}")
        if n % 100 == 0 or n == len(plan["matches"]):
            say(f"  matches {n}/{len(plan['matches'])} restored ({counts['events']} events)")
    say(f"  users {counts['users']} restored")
    rebuild_projections(w.projector, say)
    return counts
