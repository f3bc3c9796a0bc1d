"""Webhook notifications ("your turn", "invitation", "match finished", "dispute opened"): HMAC-signed,
retried, sent once."""
from __future__ import annotations

import hashlib
import hmac
import json
import logging

from rq import Retry

from domain.engine import platform_events as pe
from projections.summary import INVITATION, turns_started, waits, waits_started
from service.app import installation
from service.app.webhook_targets import parse_allowlist
from service.store.keys import Keys
from service.store.webhook_outcomes import record_webhook

from .context import wiring
from .queues import NOTIFICATIONS, queue
from .webhook_sender import post_json, DeliveryFailed, UnsafeTarget

log = logging.getLogger("turnstream.notifications")
JOB = "workers.notifications.deliver"
SIGNATURE_HEADER = "X-Turnstream-Signature"
SENT_TTL_SECONDS = 30 * 24 * 3600
RETRY_INTERVALS = [1, 2, 4, 8, 16]


def sent_key(user_id: str, match_id: str, version: int, kind: str) -> str:
    """The Redis key that marks one notification as handed to the queue (SET NX)."""
    return Keys.notified(user_id, match_id, version, kind)


def signature(secret: str, body: bytes) -> str:
    """The signature header value: sha256=<hex HMAC-SHA256 of the body>."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def notices(match, prev: dict | None, row: dict, public_url: str) -> list:
    """The (user, notice) pairs one projection change calls for."""
    base = {"match": row["id"], "game": row["game"], "url": f"{public_url.rstrip('/')}/matches/{row['id']}"}
    out = [(player, {**base, "kind": "your_turn", "version": row["version"], "waiting_since": since})
           for player, since in turns_started(prev, row).items()]
    reasons = waits(row)
    out += [(player, {**base, "kind": "invitation", "version": row["version"], "waiting_since": since,
                      "from": row.get("created_by"), "players": row["players"]})
            for player, since in waits_started(prev, row).items() if reasons.get(player) == INVITATION]
    if row["status"] == "finished" and (prev or {}).get("status") != "finished":
        for player in row["players"]:
            out.append((player, {**base, "kind": "match_finished", "version": row["version"],
                                 "result": row.get("result")}))
    seen = (prev or {}).get("version", 0)
    for env in match.envelopes_since(seen + 1):
        if env["type"] == pe.DISPUTE_OPENED:
            d = env["data"]
            for player in match.players:
                if player != d.get("by"):
                    out.append((player, {**base, "kind": "dispute_opened", "version": env["version"],
                                         "dispute": {"id": d.get("dispute"), "version": d.get("version"),
                                                     "reason": d.get("reason"), "by": d.get("by")}}))
    return out


def notify(changes: list, matches: dict, webhooks: dict | None = None) -> list:
    """Enqueue one delivery per (user, match, version, kind) for users with a webhook (`matches`: the
    folded matches by id; `webhooks`: {user id: has a webhook} as the caller read them already, if it did);
    return the keys."""

    w = wiring()
    wanted = [(row, user_id, notice) for prev, row in changes
              for user_id, notice in notices(matches[row["id"]], prev, row, w.settings.public_url)]
    noticed = {user_id for _row, user_id, _notice in wanted}
    if webhooks is not None and noticed <= webhooks.keys():
        hooked = {user_id for user_id in noticed if webhooks[user_id]}
    else:
        hooked = w.users.with_webhook(noticed)
    enqueued = []
    for row, user_id, notice in wanted:
        if user_id not in hooked:
            continue
        key = sent_key(user_id, row["id"], notice["version"], notice["kind"])
        if not w.redis.set(key, "1", nx=True, ex=SENT_TTL_SECONDS):
            continue
        notice = {**notice, "user": user_id, "id": f"{user_id}:{row['id']}:{notice['version']}:{notice['kind']}"}
        queue(NOTIFICATIONS).enqueue(JOB, user_id, notice, retry=Retry(max=5, interval=RETRY_INTERVALS),
                                     result_ttl=3600, failure_ttl=7 * 24 * 3600)
        enqueued.append(key)
    return enqueued


def deliver(user_id: str, notice: dict) -> int:
    """POST the notice as signed JSON to the user's current webhook; raise on failure so RQ retries.
    A URL that resolves to a non-public address is refused for good (logged, not retried)."""
    w = wiring()
    url, secret = w.users.webhook_target(user_id)
    if not url:
        return 0
    body = json.dumps(notice, sort_keys=True, separators=(",", ":")).encode()
    # the user's own secret; the installation's (TURNSTREAM_WEBHOOK_SECRET, else generated and kept in Redis)
    # only for a webhook registered before each had its own
    key = secret or installation.webhook_secret(w.settings, w.redis)
    headers = {"Content-Type": "application/json", "User-Agent": "turnstream-webhook/1",
               "X-Turnstream-Event": notice["kind"], SIGNATURE_HEADER: signature(key, body)}
    s = w.settings
    try:
        status = post_json(url, body, headers, parse_allowlist(s.webhook_allow),
                           s.webhook_connect_seconds, s.webhook_read_seconds)
    except UnsafeTarget as exc:
        record_webhook(w.redis, "refused")
        log.warning("webhook %s for %s refused: %s", notice["kind"], user_id, exc)
        return 0
    except DeliveryFailed as exc:
        record_webhook(w.redis, "failed")
        log.warning("webhook %s for %s failed (RQ retries it): %s", notice["kind"], user_id, exc)
        raise
    record_webhook(w.redis, "delivered")
    log.info("webhook %s for %s: HTTP %s", notice["kind"], user_id, status)
    return status
