"""Builds the service's dependencies in one place, typed (no connection is opened at import time)."""
from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from domain.engine.contract import Game
from domain.games import load_games
from projections.projector import Projector
from projections.ratings import Ratings
from projections.readers import ReadModels
from projections.snapshots import SnapshotStore
from service.app.live import BATCH as LIVE_BATCH, BLOCK_MS, LiveHub, StreamCaps
from service.app.mail.service import MailService
from service.app.matches import MatchService
from service.app.state_views import StateViews
from service.app.users import Users
from service.config import Settings, from_env
from service.store.auth_cache import AuthCache
from service.store.backup_records import BackupRecords, RedisBackupRecords
from service.store.connections import make_queue_redis, make_redis, make_stream_redis
from service.store.events import EventStore
from service.store.log_feed import RedisLogFeed
from service.store.mail_marks import RedisMailMarks
from service.store.presence import Presence
from service.store.queues import NOTIFICATIONS
from service.store.user_records import RedisUserRecords
from service.server.limits import stream_cap


@dataclass
class Wiring:
    """Everything a request, a job or a command needs."""

    settings: Settings
    redis: Redis
    store: EventStore
    users: Users
    games: dict[str, Game]
    matches: MatchService
    read_models: ReadModels
    ratings: Ratings
    live: LiveHub
    state_views: StateViews
    backups: BackupRecords | None = None
    mail: MailService | None = None

    @property
    def projector(self) -> Projector:
        """What projecting needs, from the parts wired now (a test may swap one after build)."""
        return Projector(redis=self.redis, keys=self.store.keys, ratings=self.ratings, matches=self.matches,
                         forget=self.matches.cache.evict, webhooks=self.users, snapshots=self.matches.snapshots,
                         archived=self.store.known_archived)


def build(settings: Settings | None = None, redis_client=None, games: dict[str, Game] | None = None,
          store=None) -> Wiring:
    """Build the wiring from settings (defaults: the environment); `redis_client` and `store` replace the
    connections (tests); a memory:// Redis URL builds the whole service in this process, with no Redis server."""
    settings = settings or from_env()
    r = redis_client if redis_client is not None else make_redis(settings)
    games = games if games is not None else load_games()
    store = store if store is not None else EventStore(r, settings.partitions)
    snapshots = SnapshotStore(r, store.keys, settings.snapshot_every, games, store.read_range)
    matches = MatchService(store, games, cache_size=settings.cache_size, snapshots=snapshots)
    users = Users(RedisUserRecords(r), AuthCache(r, settings.auth_cache_seconds))
    return Wiring(settings=settings, redis=r, store=store, games=games, matches=matches, users=users,
                  read_models=ReadModels(r, store.keys), ratings=Ratings(r), backups=RedisBackupRecords(r, store.keys),
                  live=build_live(settings, redis_client, games, matches), state_views=StateViews(matches),
                  mail=MailService(RedisMailMarks(r), users, settings.public_url, mail_queue_factory(settings)))


def mail_queue_factory(settings: Settings):
    """The notifications queue, on a queue connection made on first use (mails are sent by its jobs)."""
    made: list = []

    def factory():
        from rq import Queue  # RQ loads only in a process that queues a mail (the command line's tools never do)
        if not made:
            made.append(Queue(NOTIFICATIONS, connection=make_queue_redis(settings)))
        return made[0]
    return factory


def build_live(settings: Settings, redis_client, games: dict[str, Game], matches: MatchService) -> LiveHub:
    """The live-update hub on its own connections (the given client in tests), sharing the match cache."""
    lr = redis_client if redis_client is not None else make_stream_redis(settings, BLOCK_MS / 1000)
    store = EventStore(lr, settings.partitions)
    snapshots = SnapshotStore(lr, store.keys, settings.snapshot_every, games, store.read_range)
    live_matches = MatchService(store, games, cache=matches.cache, snapshots=snapshots)
    caps = StreamCaps(stream_cap(settings.streams_per_process), settings.streams_per_user, settings.streams_per_address)
    feed = RedisLogFeed(lr, store.keys, cluster=settings.redis_cluster, block_ms=BLOCK_MS, batch=LIVE_BATCH)
    return LiveHub(feed, live_matches, ReadModels(lr, store.keys), caps, Presence(lr),
                   log_keep_hours=settings.log_keep_hours)
