"""Rate limits shared by every web process: flask-limiter on the `limits` Redis storage (fixed windows).

Each limited endpoint costs ONE Redis round trip per limit it has (an EVALSHA that increments and
expires the window's counter); the command path has exactly one limit, per user. A refusal is a 429
JSON error with `Retry-After`. Which endpoint is limited by what is the RULES table: add a row to limit
another endpoint (e.g. opening a live stream) by a setting, per client address or per user.
"""
from __future__ import annotations

import math
import time

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded

from .http import current_user

KEY_PREFIX = "ts:rl"


def client_address() -> str:
    """The client's address (the proxies' X-Forwarded-For is trusted as far as TURNSTREAM_TRUSTED_PROXIES says)."""
    return request.remote_addr or "unknown"


def caller_id() -> str:
    """The authenticated caller's user id (a bad or missing token is the view's own 401)."""
    return current_user()["id"]


KEYS = {"address": client_address, "user": caller_id}

# (endpoint, Settings attribute holding the limit string, shared scope, key): endpoints of one scope
# share one budget (the lobby form and the API create matches from the same allowance)
RULES = (
    ("users.create_user", "account_rate_limit", "accounts", "address"),
    ("pages.signup", "account_rate_limit", "accounts", "address"),
    ("matches.create_match", "match_rate_limit", "matches", "address"),
    ("pages.new_match", "match_rate_limit", "matches", "address"),
    ("matches.rematch", "match_rate_limit", "matches", "address"),
    ("matches.submit", "command_rate_limit", "commands", "user"),
    ("history.takeback", "command_rate_limit", "commands", "user"),
    ("history.open_dispute", "command_rate_limit", "commands", "user"),
    ("history.vote", "command_rate_limit", "commands", "user"),
    ("matches.chat", "chat_rate_limit", "chat", "user"),
)


def storage(settings, redis_client) -> tuple[str, dict]:
    """(storage URI, options) for the `limits` Redis storage: the service's own connection pool on a plain
    Redis, a cluster client of its own on a Redis Cluster."""
    if settings.redis_cluster:
        scheme, rest = settings.redis_url.split("://", 1)
        return f"{scheme}+cluster://{rest}", {}
    return settings.redis_url, {"connection_pool": redis_client.connection_pool}


def install(app: Flask, w) -> Limiter:
    """Attach a limiter to `app` and wrap the RULES' view functions with their limits."""
    uri, options = storage(w.settings, w.redis)
    limiter = Limiter(key_func=client_address, app=app, storage_uri=uri, storage_options=options,
                      strategy="fixed-window", key_prefix=KEY_PREFIX, headers_enabled=False)
    scopes: dict = {}
    for endpoint, setting, scope, key in RULES:
        value = getattr(w.settings, setting)
        if not value or endpoint not in app.view_functions:
            continue
        if scope not in scopes:
            scopes[scope] = limiter.shared_limit(value, scope=scope, key_func=KEYS[key])
        app.view_functions[endpoint] = scopes[scope](app.view_functions[endpoint])
    return limiter


def retry_after(limiter: Limiter) -> int:
    """Whole seconds until the breached limit's window resets (at least 1, at most the window)."""
    breached = limiter.current_limit
    if breached is None:
        return 1
    return max(1, min(breached.limit.get_expiry(), math.ceil(breached.reset_at - time.time())))


def refusal(exc: RateLimitExceeded, limiter: Limiter) -> tuple[dict, int]:
    """The 429 body and the Retry-After seconds."""
    wait = retry_after(limiter)
    message = f"too many requests ({exc.limit.limit}); retry in {wait} s"
    return {"error": {"code": "rate_limited", "message": message, "retry_after": wait}}, wait
