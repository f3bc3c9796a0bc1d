"""Rate limits shared by every web process, on fixed windows counted in Redis.

Accounts, matches and chat: flask-limiter on the `limits` Redis storage, one round trip (an EVALSHA that
increments and expires the window's counter) per limit per request. Commands (the hot path): a LeasedLimit,
where a process takes a user's budget from the same kind of shared window counter in leases of a fiftieth
of the limit, so a user sending many commands costs one round trip per lease instead of one per command;
the window's count never passes the limit, and what other processes hold unspent can refuse a user
early by at most (processes - 1) x (lease - 1) commands in a window; within a process one request per user
fetches at a time and the others spend from its lease, so concurrency loses nothing. A refusal is a 429 JSON error with
`Retry-After`. Which endpoint is limited by what is the RULES table: add a row to limit another endpoint
(e.g. opening a live stream) by a setting, per client address or per user.
"""
from __future__ import annotations

import functools
import math
import threading
import time

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import RateLimitItem, parse_many

from service.store.keys import Keys
from service.web.errors import ApiError
from service.web.browser import page_user
from service.web.http import bearer_token, current_user

KEY_PREFIX = Keys.RATE_LIMIT_PREFIX


def client_address() -> str:
    """The client's address (the proxies' X-Forwarded-For is trusted as far as TURNSTREAM_TRUSTED_PROXIES says)."""
    return request.remote_addr or "unknown"


def caller_id() -> str:
    """The authenticated caller's user id (a bad or missing token is the view's own 401)."""
    return current_user()["id"]


def account_id() -> str:
    """The account a request acts for: the Bearer caller's, else the page's signed-in player's ("-" for none: the
    view refuses it)."""
    if bearer_token():
        return caller_id()
    user = page_user()
    return user["id"] if user else "-"


def email_address() -> str:
    """The e-mail address a request names (the JSON body's or the form's `email`), casefolded."""
    data = request.get_json(silent=True) if request.is_json else request.form
    value = data.get("email") if isinstance(data, dict) or hasattr(data, "get") else None
    return value.strip().casefold()[:254] if isinstance(value, str) else "-"


KEYS = {"address": client_address, "user": caller_id, "account": account_id, "email": email_address}
LEASED_SCOPES = {"commands"}  # limits taken in leases (see LeasedLimit)
LEASE_FRACTION = 50  # a lease is this fraction of the limit (at least one request)
MAX_LEASES = 50_000  # per process; expired leases are dropped beyond this

# KEYS: one window counter per limit; ARGV: per key (window seconds, lease wanted, limit). Answers per key
# (granted, ms until the window ends): never counts past the limit, a refused lease takes nothing.
LEASE_SCRIPT = """
local out = {}
for i, key in ipairs(KEYS) do
  local expiry, want, limit = tonumber(ARGV[i*3-2]), tonumber(ARGV[i*3-1]), tonumber(ARGV[i*3])
  local count = redis.call('INCRBY', key, want)
  if count == want then redis.call('EXPIRE', key, expiry) end
  local granted = want
  if count > limit then
    granted = math.max(0, limit - (count - want))
    redis.call('DECRBY', key, want - granted)
  end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then ttl = expiry * 1000 end
  out[i] = {granted, ttl}
end
return out
"""


class LeasedLimit:
    """Limits shared by all processes, spent from local leases: a lease of a user's budget is taken from
    the window's Redis counter in one round trip and spent here until it runs out or the window ends.

    Under concurrency (gevent greenlets, threads) one request per identity and limit fetches at a time; the
    others wait for its lease and spend from it, so no lease is taken only to be overwritten by another
    (8 parallel connections were served 317 of 600 a minute), and a lease that arrives while one is held is
    added to it. Once Redis refuses a lease the window is spent everywhere (its counter never goes down):
    later requests are refused here until it ends, without a round trip."""

    FETCH_WAIT = 5.0  # seconds a request waits for another's lease fetch before it looks again

    def __init__(self, redis_client, value: str, scope: str, key_func, clock=time.monotonic):
        self.items: list[RateLimitItem] = list(parse_many(value))
        self.scope = scope
        self.key_func = key_func
        self.clock = clock
        self.script = redis_client.register_script(LEASE_SCRIPT)
        self._leases: dict = {}  # (identity, item index) -> [units left, window ends at (clock)]
        self._spent: dict = {}  # (identity, item index) -> window ends at: Redis refused, refuse here until then
        self._fetching: dict = {}  # (identity, item index) -> Event set when the fetch in flight has landed
        self._lock = threading.Lock()

    @staticmethod
    def lease_size(item: RateLimitItem) -> int:
        """How many requests one lease of this limit covers."""
        return max(1, item.amount // LEASE_FRACTION)

    def redis_key(self, identity: str, item: RateLimitItem) -> str:
        """The window counter of one identity and limit (one hash slot per identity on a cluster)."""
        return f"{KEY_PREFIX}:lease:{{{self.scope}/{identity}}}/{item.amount}/{item.multiples}/{item.GRANULARITY.name}"

    def hit(self, identity: str) -> None:
        """Spend one request of `identity`'s budget under every limit, or raise a 429 ApiError."""
        pending = list(range(len(self.items)))
        while True:
            now = self.clock()
            with self._lock:
                pending = [i for i in pending if not self._spend(identity, i, now)]
                if not pending:
                    return
                for i in pending:
                    ends = self._spent.get((identity, i))
                    if ends is not None and ends > now:
                        self._refuse(self.items[i], ends - now)
                busy = next((self._fetching[(identity, i)] for i in pending if (identity, i) in self._fetching), None)
                if busy is None:
                    landed = threading.Event()
                    for i in pending:
                        self._fetching[(identity, i)] = landed
                    break
            busy.wait(self.FETCH_WAIT)  # another request of this identity is fetching: spend from what it brings
        try:
            refused = self._fetch(identity, pending)
        finally:
            with self._lock:
                for i in pending:
                    if self._fetching.get((identity, i)) is landed:
                        del self._fetching[(identity, i)]
            landed.set()
        if refused is not None:
            self._refuse(*refused)

    def _fetch(self, identity: str, missing: list):
        """Take a lease of every limit in `missing` (one round trip), keep what is granted, spend one unit of each;
        (the limit, seconds to its window's end) of a refused one, or None."""
        keys = [self.redis_key(identity, self.items[i]) for i in missing]
        args = []
        for i in missing:
            item = self.items[i]
            args += [item.get_expiry(), self.lease_size(item), item.amount]
        answers = self.script(keys=keys, args=args)
        now = self.clock()
        refused = None
        with self._lock:
            if len(self._leases) + len(self._spent) >= MAX_LEASES:
                self._leases = {k: v for k, v in self._leases.items() if v[1] > now}
                self._spent = {k: v for k, v in self._spent.items() if v > now}
            for i, (granted, ttl_ms) in zip(missing, answers):
                granted, ends = int(granted), now + int(ttl_ms) / 1000
                if granted > 0:
                    lease = self._leases.get((identity, i))
                    if lease is not None and lease[1] > now and abs(lease[1] - ends) < 1.0:  # the same window
                        lease[0] += granted - 1
                    else:
                        self._leases[(identity, i)] = [granted - 1, ends]
                else:
                    self._spent[(identity, i)] = ends
                    if refused is None or ends - now > refused[1]:
                        refused = (self.items[i], ends - now)
        return refused

    @staticmethod
    def _refuse(item: RateLimitItem, seconds: float):
        wait = max(1, min(item.get_expiry(), math.ceil(seconds)))
        raise ApiError(429, "rate_limited", f"too many requests ({item}); retry in {wait} s", retry_after=wait)

    def _spend(self, identity: str, index: int, now: float) -> bool:
        lease = self._leases.get((identity, index))
        if lease is None or lease[0] <= 0 or lease[1] <= now:
            return False
        lease[0] -= 1
        return True

    def wrap(self, view):
        """`view` behind this limit (the identity from the key function, e.g. the caller's user id)."""
        @functools.wraps(view)
        def limited(*args, **kwargs):
            self.hit(self.key_func())
            return view(*args, **kwargs)
        return limited

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
    ("history.propose_rules_upgrade", "command_rate_limit", "commands", "user"),  # each replays the history
    ("history.vote_rules_upgrade", "command_rate_limit", "commands", "user"),
    ("history.propose_rules", "command_rate_limit", "commands", "user"),
    ("history.accept_rules_proposal", "command_rate_limit", "commands", "user"),
    ("history.decline_rules_proposal", "command_rate_limit", "commands", "user"),
    ("matches.chat", "chat_rate_limit", "chat", "user"),
    ("concede.concede", "command_rate_limit", "commands", "user"),
    ("suggestions.suggestion", "command_rate_limit", "commands", "user"),  # each runs a bot's search
    # every path that mails a link: one budget per mailbox (whichever path and account asks), one per account (the
    # API and the account page alike) or, to sign in, per client address
    ("mail_api.put_email", "email_rate_limit", "mail-account", "account"),
    ("mail_api.put_email", "email_rate_limit", "mail-to", "email"),
    ("account.account_email", "email_rate_limit", "mail-account", "account"),
    ("account.account_email", "email_rate_limit", "mail-to", "email"),
    ("mail_api.sign_in_by_email", "signin_rate_limit", "sign-in-mail", "address"),
    ("mail_api.sign_in_by_email", "email_rate_limit", "mail-to", "email"),
    ("account.request_sign_in", "signin_rate_limit", "sign-in-mail", "address"),
    ("account.request_sign_in", "email_rate_limit", "mail-to", "email"),
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
    # no default, application or blueprint limits: flask-limiter's before-request hook would look for
    # them on every request (a twentieth of a GET's CPU) and find none; the RULES' decorators check theirs.
    # Its after-request hook only adds headers (disabled) and applies `deduct_when` limits (none here), and its
    # teardown resets a context that lives on the request context anyway: 17 µs per request for nothing
    app.before_request_funcs[None].remove(limiter._check_request_limit)
    app.after_request_funcs[None] = [f for f in app.after_request_funcs[None]
                                     if getattr(f, "func", None) is not Limiter._Limiter__inject_headers]
    app.teardown_request_funcs[None].remove(limiter._Limiter__release_context)
    scopes: dict = {}
    leased = app.extensions.setdefault("leased_limits", {})
    for endpoint, setting, scope, key in RULES:
        value = getattr(w.settings, setting)
        if not value or endpoint not in app.view_functions:
            continue
        if scope in LEASED_SCOPES:
            if scope not in leased:
                leased[scope] = LeasedLimit(w.redis, value, scope, KEYS[key])
            app.view_functions[endpoint] = leased[scope].wrap(app.view_functions[endpoint])
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
