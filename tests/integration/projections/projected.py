"""What the projection tests feed the projections and read back: a finished match as the ratings read it, and
the version of a match's summary row."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

GAME = "dice-race"


@dataclass
class Finished:
    """What the ratings projection reads of a finished match."""
    id: str
    players: list
    result: dict
    finished_at: str
    game_id: str = GAME
    status: str = "finished"
    extra: dict = field(default_factory=dict)

    def envelopes_since(self, start: int) -> list:
        """The match's events as the ratings read them: one move of each player, made by the player."""
        return [{"version": n, "type": "moved", "scope": "game", "actor": p, "data": {}}
                for n, p in enumerate(self.players, start)]


def row_version(w, match_id: str) -> int:
    """The version of a match's summary row (0 when it has none yet)."""
    raw = w.redis.get(w.store.keys.summary(match_id))
    return json.loads(raw)["version"] if raw else 0
