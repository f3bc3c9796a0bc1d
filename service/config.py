"""Configuration from the environment, read once in one place."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """Every setting the service reads, with its default."""

    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_cluster: bool = False
    rq_redis_url: str = ""
    redis_sentinels: tuple = ()  # ((host, port), ...): find the primary through Redis Sentinel
    redis_sentinel_master: str = "turnstream"
    min_replicas: int = 0  # a write is answered as done only once this many replicas hold it (Redis WAIT)
    replica_wait_ms: int = 500
    partitions: int = 64
    max_body_bytes: int = 64 * 1024
    cache_size: int = 2000
    snapshot_every: int = 200
    archive_after_hours: float = 24.0  # a finished match quiet this long is archived by the worker (< 0: never)
    log_keep_hours: float = 24.0  # projected partition-log entries are kept this long (live streams resume in it)
    reconcile_seconds: float = 2.0
    follow_gather_ms: float = 4.0
    rate_limit_per_minute: int = 600
    account_rate_limit: str = "30/hour"
    match_rate_limit: str = "10/minute;120/hour"
    chat_rate_limit: str = "20/minute"
    trusted_proxies: int = 0
    webhook_secret: str = ""  # empty: the installation's own, generated once (service/app/installation.py)
    webhook_allow: str = ""
    webhook_connect_seconds: float = 3.0
    webhook_read_seconds: float = 5.0
    public_url: str = "http://127.0.0.1:8000"
    dispute_hours: float = 48.0
    stream_lifetime_seconds: float = 300.0
    auth_cache_seconds: float = 10.0
    streams_per_process: int = 30000
    streams_per_user: int = 32
    streams_per_address: int = 64
    stream_retry_after_seconds: int = 5
    stream_redis_connections: int = 16
    gc_sweep_seconds: float = 900.0
    bot_ms: float = 300.0
    metrics_token: str = ""
    log_format: str = "text"
    log_level: str = ""
    access_log: str = ""
    smtp_url: str = ""  # smtp:// or smtps://, credentials in the URL; empty: mails become .eml files in mail_dir
    mail_from: str = "turnstream@localhost"
    mail_dir: str = "var/mail"
    email_rate_limit: str = "5/hour"  # mails a player may ask for (verification, sign-in links) per address
    signin_rate_limit: str = "30/hour"  # sign-in mails asked for from one client address

    @property
    def command_rate_limit(self) -> str:
        """The per-user limit on commands, take-backs, disputes and votes ("" = none)."""
        return f"{self.rate_limit_per_minute}/minute" if self.rate_limit_per_minute > 0 else ""

    @property
    def queue_url(self) -> str:
        """Where the RQ queues live (a plain Redis)."""
        return self.rq_redis_url or self.redis_url


class ConfigError(ValueError):
    """A setting that cannot work: the command line and the web server say it in one line and stop."""


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def redis_url(name: str, value: str) -> str:
    """A Redis URL, checked now so a typo fails at start-up in one line (not in redis-py, as a traceback)."""
    if not value.startswith(REDIS_SCHEMES):
        shown = re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", value)
        raise ConfigError(f"{name}={shown!r} is not a Redis URL: it starts with redis://, rediss:// or unix:// "
                          f"(e.g. redis://127.0.0.1:6379/0)")
    return value


def sentinels(value: str) -> tuple:
    """REDIS_SENTINELS: `host:port,host:port,...` as ((host, port), ...), checked now (a typo fails at start-up)."""
    found = []
    for item in (part.strip() for part in value.split(",") if part.strip()):
        host, _, port = item.rpartition(":")
        if not host or not port.isdigit():
            raise ConfigError(f"REDIS_SENTINELS: {item!r} is not host:port (e.g. 10.0.0.1:26379,10.0.0.2:26379)")
        found.append((host.strip("[]"), int(port)))
    return tuple(found)


def replicas(get, cluster: bool) -> tuple[int, int]:
    """(TURNSTREAM_MIN_REPLICAS, TURNSTREAM_REPLICA_WAIT_MS), checked now."""
    try:
        count, wait = int(get("TURNSTREAM_MIN_REPLICAS") or 0), int(get("TURNSTREAM_REPLICA_WAIT_MS") or 500)
    except ValueError:
        raise ConfigError("TURNSTREAM_MIN_REPLICAS and TURNSTREAM_REPLICA_WAIT_MS are whole numbers") from None
    if count < 0 or wait <= 0:
        raise ConfigError("TURNSTREAM_MIN_REPLICAS is 0 or more and TURNSTREAM_REPLICA_WAIT_MS more than 0")
    if count and cluster:
        raise ConfigError("TURNSTREAM_MIN_REPLICAS works on one primary (a plain Redis or Sentinel), not on a Redis "
                          "Cluster: unset it, or REDIS_CLUSTER")
    return count, wait


def archive_hours(value: str, name: str = "TURNSTREAM_ARCHIVE_AFTER_HOURS") -> float:
    """Hours (default 24), or `off` (-1: never): TURNSTREAM_ARCHIVE_AFTER_HOURS (the worker archives nothing),
    TURNSTREAM_LOG_KEEP_HOURS (the partition logs are never trimmed)."""
    value = value.strip().lower()
    if value in ("off", "never", "no"):
        return -1.0
    try:
        return float(value) if value else 24.0
    except ValueError:
        raise ConfigError(f"{name}={value!r} is not a number of hours (or off)") from None


def rate_limit(value: str) -> str:
    """A limit string such as "30/hour" or "10/minute;120/hour", checked now so a typo fails at start-up."""
    from limits import parse_many  # the rate-limit library loads only where a limit is set, not for --help
    parse_many(value)
    return value


def from_env(env=None) -> Settings:
    """Build Settings from environment variables (REDIS_URL, REDIS_CLUSTER, RQ_REDIS_URL, REDIS_SENTINELS,
    REDIS_SENTINEL_MASTER, TURNSTREAM_*)."""
    env = os.environ if env is None else env
    get = env.get
    cluster = get("REDIS_CLUSTER", "") in ("1", "true", "yes")
    found = sentinels(get("REDIS_SENTINELS", ""))
    if found and cluster:
        raise ConfigError("REDIS_SENTINELS and REDIS_CLUSTER exclude each other: a cluster fails over by itself")
    min_replicas, replica_wait_ms = replicas(get, cluster)
    return Settings(
        redis_url=redis_url("REDIS_URL", get("REDIS_URL") or "redis://127.0.0.1:6379/0"),
        redis_cluster=cluster,
        rq_redis_url=get("RQ_REDIS_URL") and redis_url("RQ_REDIS_URL", get("RQ_REDIS_URL")) or "",
        redis_sentinels=found,
        redis_sentinel_master=get("REDIS_SENTINEL_MASTER") or "turnstream",
        min_replicas=min_replicas,
        replica_wait_ms=replica_wait_ms,
        partitions=int(get("TURNSTREAM_PARTITIONS") or 64),
        max_body_bytes=int(get("TURNSTREAM_MAX_BODY_BYTES") or 64 * 1024),
        cache_size=int(get("TURNSTREAM_CACHE_SIZE") or 2000),
        snapshot_every=int(get("TURNSTREAM_SNAPSHOT_EVERY") or 200),
        archive_after_hours=archive_hours(get("TURNSTREAM_ARCHIVE_AFTER_HOURS", "")),
        log_keep_hours=archive_hours(get("TURNSTREAM_LOG_KEEP_HOURS", ""), "TURNSTREAM_LOG_KEEP_HOURS"),
        reconcile_seconds=float(get("TURNSTREAM_RECONCILE_SECONDS") or 2.0),
        follow_gather_ms=float(get("TURNSTREAM_FOLLOW_GATHER_MS") or 4.0),
        rate_limit_per_minute=int(get("TURNSTREAM_RATE_LIMIT_PER_MINUTE") or 600),
        account_rate_limit=rate_limit(get("TURNSTREAM_ACCOUNT_RATE_LIMIT") or "30/hour"),
        match_rate_limit=rate_limit(get("TURNSTREAM_MATCH_RATE_LIMIT") or "10/minute;120/hour"),
        chat_rate_limit=rate_limit(get("TURNSTREAM_CHAT_RATE_LIMIT") or "20/minute"),
        trusted_proxies=int(get("TURNSTREAM_TRUSTED_PROXIES") or 0),
        webhook_secret=get("TURNSTREAM_WEBHOOK_SECRET", ""),
        webhook_allow=get("TURNSTREAM_WEBHOOK_ALLOW", ""),
        webhook_connect_seconds=float(get("TURNSTREAM_WEBHOOK_CONNECT_SECONDS") or 3.0),
        webhook_read_seconds=float(get("TURNSTREAM_WEBHOOK_READ_SECONDS") or 5.0),
        public_url=get("TURNSTREAM_PUBLIC_URL") or "http://127.0.0.1:8000",
        dispute_hours=float(get("TURNSTREAM_DISPUTE_HOURS") or 48.0),
        stream_lifetime_seconds=float(get("TURNSTREAM_STREAM_SECONDS") or 300.0),
        auth_cache_seconds=float(get("TURNSTREAM_AUTH_CACHE_SECONDS") or 10.0),
        streams_per_process=int(get("TURNSTREAM_STREAMS_PER_PROCESS") or 30000),
        streams_per_user=int(get("TURNSTREAM_STREAMS_PER_USER") or 32),
        streams_per_address=int(get("TURNSTREAM_STREAMS_PER_ADDRESS") or 64),
        stream_retry_after_seconds=int(get("TURNSTREAM_STREAM_RETRY_AFTER") or 5),
        stream_redis_connections=int(get("TURNSTREAM_STREAM_REDIS_CONNECTIONS") or 16),
        gc_sweep_seconds=float(get("TURNSTREAM_GC_SWEEP_SECONDS") or 900.0),
        bot_ms=float(get("TURNSTREAM_BOT_MS") or 300.0),
        metrics_token=get("TURNSTREAM_METRICS_TOKEN", ""),
        log_format="json" if get("TURNSTREAM_LOG_FORMAT", "").lower() == "json" else "text",
        log_level=get("TURNSTREAM_LOG_LEVEL", "").upper(),
        access_log=get("TURNSTREAM_ACCESS_LOG", ""),
        smtp_url=get("TURNSTREAM_SMTP_URL", ""),
        mail_from=get("TURNSTREAM_MAIL_FROM") or "turnstream@localhost",
        mail_dir=get("TURNSTREAM_MAIL_DIR") or "var/mail",
        email_rate_limit=rate_limit(get("TURNSTREAM_EMAIL_RATE_LIMIT") or "5/hour"),
        signin_rate_limit=rate_limit(get("TURNSTREAM_SIGNIN_RATE_LIMIT") or "30/hour"),
    )
