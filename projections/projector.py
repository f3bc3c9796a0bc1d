"""What projecting needs, typed: the events Redis and its key names, the ratings, the snapshots, and two ports the
use cases implement (folding matches, reading players' webhooks), built by service/bootstrap.py."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from domain.engine.aggregate import Match
from projections.ratings import Ratings
from projections.shadow import ShadowKeys
from projections.snapshots import SnapshotStore
from service.store.keys import Keys


class MatchLoader(Protocol):
    """Folds matches to their latest versions (service.app.matches.MatchService)."""

    def load(self, match_id: str) -> Match: ...

    def load_many(self, match_ids: list) -> list[Match]: ...


class WebhookReads(Protocol):
    """Queues the reads of players' webhooks on a pipeline (service.app.users.Users)."""

    def queue_webhook_reads(self, pipe, user_ids) -> None: ...


@dataclass(frozen=True)
class Projector:
    """The collaborators of projection delivery, catch-up and rebuild."""

    redis: Any  # the events Redis (a client, a cluster client or the in-memory twin)
    keys: Keys | ShadowKeys
    ratings: Ratings
    matches: MatchLoader
    forget: Callable[[str], None]  # drop a match's cached fold (one that failed half way)
    webhooks: WebhookReads
    snapshots: SnapshotStore
    archived: Callable[[str], bool]  # this process has seen the match archived (it keeps no snapshots)

    def shadowed(self) -> Projector:
        """The same projector writing a rebuild's shadow read models (projections/shadow.py)."""
        return dataclasses.replace(self, keys=ShadowKeys(self.keys), ratings=Ratings(self.redis, shadowed=True))
