"""Wires the service's dependencies in one place (no connection is opened at import time)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.games import load_games
from projections.ratings import Ratings
from projections.readers import ReadModels
from projections.snapshots import SnapshotStore

from .auth_cache import AuthCache
from .config import Settings, from_env
from .connections import make_queue_redis, make_redis, make_stream_redis
from .live_hub import BLOCK_MS, LiveHub, StreamCaps
from .matches import MatchService
from .state_views import StateViews
from .store import EventStore
from .trigger import ProjectionTrigger
from .users import Users


@dataclass
class Wiring:
    """Everything a request or a command needs."""

    settings: Settings
    redis: Any
    store: EventStore
    users: Users
    games: dict
    matches: MatchService
    read_models: ReadModels
    ratings: Ratings
    trigger: Any
    live: LiveHub
    state_views: StateViews


def build(settings: Settings | None = None, redis_client=None, queue_redis=None, games=None,
          start_trigger: bool = True) -> Wiring:
    """Build the wiring from settings (defaults: the environment)."""
    settings = settings or from_env()
    r = redis_client if redis_client is not None else make_redis(settings)
    games = games if games is not None else load_games()
    store = EventStore(r, settings.partitions)
    trigger = ProjectionTrigger(lambda: queue_redis if queue_redis is not None else make_queue_redis(settings),
                                settings.trigger_interval_ms / 1000)
    if start_trigger:
        trigger.start()
    snapshots = SnapshotStore(r, store.keys, settings.snapshot_every, games, store.read_range)
    matches = MatchService(store, games, notify=trigger.notify, cache_size=settings.cache_size, snapshots=snapshots)
    return Wiring(settings=settings, redis=r, store=store, users=Users(r, AuthCache(r, settings.auth_cache_seconds)), games=games, matches=matches,
                  read_models=ReadModels(r, store.keys), ratings=Ratings(r),
                  trigger=trigger,
                  live=build_live(settings, redis_client, games, matches), state_views=StateViews(matches))


def build_live(settings: Settings, redis_client, games: dict, matches: MatchService) -> LiveHub:
    """The live-update hub on its own connections (the given client in tests), sharing the match cache."""
    lr = redis_client if redis_client is not None else make_stream_redis(settings, BLOCK_MS / 1000)
    store = EventStore(lr, settings.partitions)
    snapshots = SnapshotStore(lr, store.keys, settings.snapshot_every, games, store.read_range)
    live_matches = MatchService(store, games, cache=matches.cache, snapshots=snapshots)
    caps = StreamCaps(settings.streams_per_process, settings.streams_per_user, settings.streams_per_address)
    return LiveHub(lr, store.keys, live_matches, ReadModels(lr, store.keys), caps, cluster=settings.redis_cluster)
