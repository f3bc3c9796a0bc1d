"""Rendered match states, kept per process: a (match, viewer) at one version is viewed and encoded once."""
from __future__ import annotations

import json
import threading

import orjson

from service.app.rules_upgrade import proposal_shown

# keys sorted: the same answer is the same bytes in any process, whatever order its dicts were built in
OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS
MAX_ENTRIES = 2048  # (match, viewer) pairs per process; the oldest half goes when full


def response_body(obj, default=None, fallback=None) -> bytes:
    """A JSON response's body, keys sorted: orjson's bytes and a newline; what orjson refuses (an integer beyond
    64 bits) through `fallback(obj) -> str` (compact `json.dumps` with sorted keys when none is given)."""
    try:
        return orjson.dumps(obj, default=default, option=OPTIONS | orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        obj = str_keys(obj)  # sorting keys of mixed types would fail in the json module
        text = fallback(obj) if fallback is not None else json.dumps(obj, separators=(",", ":"), sort_keys=True)
        return (text + "\n").encode()


def str_keys(obj):
    """`obj` with every dict key written as JSON writes it (`1` -> "1", None -> "null"), as orjson's
    OPT_NON_STR_KEYS does."""
    if isinstance(obj, dict):
        return {k if isinstance(k, str) else json.dumps(k): str_keys(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [str_keys(v) for v in obj]
    return obj


def state_document(match, user_id: str | None) -> dict:
    """The match as `user_id` (or a spectator, None) may see it: what GET /state answers."""
    viewer = match.viewer_for(user_id)
    return {"id": match.id, "game": match.game_id, "rules_version": match.game.rules_version,
            "status": match.status, "version": match.version,
            "players": list(match.players), "active_players": match.active_players(),
            "view": match.view(viewer), "result": match.result, "rules_proposal": proposal_shown(match)}


def entity_tag(version: int, viewer: str | None) -> str:
    """The ETag of a state: its version and whom it is seen as (a player's view is not a spectator's)."""
    return f"{version}.{viewer or 'spectator'}"


class StateViews:
    """GET /state's bodies: the match is caught up on every read (one round trip, as before), and its
    view is rendered again only when its version moved on since this process last rendered it for the
    same viewer. Polling players and spectators of a quiet match then cost no view and no encoding."""

    def __init__(self, matches, max_entries: int = MAX_ENTRIES):
        self.matches = matches
        self.max_entries = max_entries
        self._bodies: dict = {}  # (match id, viewer) -> (version, body)
        self._lock = threading.Lock()

    def render(self, match_id: str, user_id: str | None) -> tuple[bytes, str]:
        """(the JSON body, its ETag) of the match as `user_id` may see it now."""
        def seen(match):
            viewer = match.viewer_for(user_id)
            key = (match.id, viewer)
            kept = self._bodies.get(key)
            if kept is not None and kept[0] == match.version:
                return kept[1], entity_tag(match.version, viewer)
            body = response_body(state_document(match, user_id))
            self._keep(key, match.version, body)
            return body, entity_tag(match.version, viewer)

        return self.matches.read(match_id, seen)

    def _keep(self, key: tuple, version: int, body: bytes) -> None:
        with self._lock:
            if len(self._bodies) >= self.max_entries:
                for old in list(self._bodies)[: self.max_entries // 2]:
                    del self._bodies[old]
            self._bodies[key] = (version, body)
