"""Tampering with a match's history behind the service's back, as an audit must catch."""
from __future__ import annotations

import json


def rewrite_stream(w, mid, envelopes):
    """Tamper directly in Redis: replace the match's stream with these envelopes (ids 0-1, 0-2, ...)."""
    key = w.store.keys.stream(mid)
    w.redis.delete(key)
    for i, env in enumerate(envelopes, start=1):
        w.redis.xadd(key, {"e": json.dumps(env)}, id=f"0-{i}")
