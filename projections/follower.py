"""The projection follower: a worker thread that reads the partition logs as they grow and projects each batch."""
from __future__ import annotations

import logging
import threading
import time

from redis.exceptions import RedisError

from projections.delivery import BATCH, project_entries
from projections.leases import FOLLOWERS_KEY, FOLLOWERS_MS, PAUSE_KEY, Leases
from projections.projector import Projector

log = logging.getLogger("turnstream.worker")

BLOCK_MS = 500  # one XREAD waits this long for new entries; below RENEW_SECONDS so leases stay fresh
RENEW_SECONDS = 1.0  # leases are renewed, and free partitions taken, this often
CLUSTER_POLL_SECONDS = 0.02  # a cluster cannot XREAD keys of several slots at once: poll each partition
FAILED_PAUSE_SECONDS = 2.0  # a partition whose batch failed is read again after this pause; the others go on


class ProjectionFollower:
    """Holds the leases of its share of the partitions and applies their new log entries as soon as
    they are appended (one blocking XREAD over all of them), so the read models trail the event store by one
    read and one batch. Started by `turnstream worker` when it serves projections; `followups` gets each
    batch's changed rows (the worker schedules deadlines, bot turns and notifications from them)."""

    def __init__(self, projector: Projector, owner: str, stop: threading.Event, cluster: bool = False,
                 gather_seconds: float = 0.0, followups=None):
        self.projector = projector
        self.redis = projector.redis
        self.keys = projector.keys
        self.followups = followups
        self.leases = Leases(self.redis, self.keys, owner)
        self.owner = owner
        self.stop = stop
        self.cluster = cluster
        self.gather_seconds = gather_seconds  # after a batch, entries arriving this long are read together
        self.positions: dict = {}  # partition held -> last log id projected
        self.paused: dict = {}  # partition whose batch failed -> when to read it again (monotonic seconds)
        self.batches = 0  # batches projected (a figure for tests and logs)

    def run(self) -> None:
        """Follow until `stop` is set, riding out Redis outages; give every lease up at the end."""
        next_claim, delay = 0.0, 0.5
        try:
            while not self.stop.is_set():
                try:
                    if time.monotonic() >= next_claim:
                        self.claim()
                        next_claim = time.monotonic() + RENEW_SECONDS
                    if not self.positions:
                        self.stop.wait(RENEW_SECONDS)
                        continue
                    batches = self.read()
                    for p, entries in batches:
                        self.project_or_pause(p, entries)
                    if batches and self.gather_seconds:  # under load, fewer and larger batches: a batch's
                        self.stop.wait(self.gather_seconds)  # round trips are most of its cost
                    delay = 0.5
                except RedisError as exc:
                    log.warning("projection follower: Redis unavailable (%s); retrying in %.1f s", exc, delay)
                    self.stop.wait(delay)
                    delay = min(delay * 2, 5.0)
                    next_claim = 0.0  # leases may have lapsed meanwhile: check them before reading again
                except Exception:  # a bad batch must not end the thread; it is retried after a pause
                    log.exception("projection follower: a batch failed; retrying")
                    self.stop.wait(1.0)
        finally:
            self.release_all()

    def share(self) -> int:
        """How many partitions this follower should hold: an even share among the followers alive (each counts
        itself alive for FOLLOWERS_MS at every claim), so a second worker takes half the work."""
        now_ms = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(FOLLOWERS_KEY, {self.owner: now_ms + FOLLOWERS_MS})
        pipe.zremrangebyscore(FOLLOWERS_KEY, "-inf", now_ms)
        pipe.zcard(FOLLOWERS_KEY)
        alive = max(pipe.execute()[-1], 1)
        return -(-self.keys.partitions // alive)

    def claim(self) -> None:
        """Renew the leases held, give up those beyond this follower's share, take free ones up to it (starting
        from their checkpoints). While a rebuild pauses the projections, give every lease up and take none."""
        if self.redis.exists(PAUSE_KEY):
            if self.positions:
                log.info("projection follower %s: a rebuild runs; giving %d partitions up", self.owner,
                         len(self.positions))
                self.release_all()
            return
        held = list(self.positions)
        lost = [p for p, kept in zip(held, self.leases.renew_many(held) if held else []) if not kept]
        for p in lost:  # lapsed (an outage outlasted it) or taken: another follower goes on from the checkpoint
            del self.positions[p]
        if lost:
            log.warning("projection follower: lost the lease of %d partition%s (%s)", len(lost),
                        "" if len(lost) == 1 else "s", spans(lost))
        share = self.share()
        extra = sorted(self.positions)[share:]
        for p in extra:  # another follower takes them from their checkpoints
            self.leases.release(p)
            del self.positions[p]
        if extra:
            log.info("projection follower %s: gave %d partitions up to share them, following %d", self.owner,
                     len(extra), len(self.positions))
        wanted = share - len(self.positions)
        free = [] if wanted <= 0 else [p for p, holder in zip(range(self.keys.partitions),
                                                               self.leases.holders(range(self.keys.partitions)))
                                       if holder is None]
        taken = []
        for p in free[:max(wanted, 0)]:
            if self.leases.take(p):
                self.positions[p] = self.redis.get(self.keys.checkpoint(p)) or "0-0"
                taken.append(p)
        if taken:
            log.info("projection follower %s: took %d partitions, following %d of %d", self.owner, len(taken),
                     len(self.positions), self.keys.partitions)

    def read(self) -> list:
        """[(partition, entries)] appended after the positions: one XREAD blocking up to BLOCK_MS on a plain
        Redis; on a cluster one non-blocking read per partition in a pipeline, after a short pause."""
        if self.paused:
            now = time.monotonic()
            self.paused = {p: until for p, until in self.paused.items() if until > now}
        by_key = {self.keys.log(p): p for p in self.positions if p not in self.paused}
        if not by_key:
            self.stop.wait(BLOCK_MS / 1000)
            return []
        if self.cluster:
            self.stop.wait(CLUSTER_POLL_SECONDS)
            pipe = self.redis.pipeline(transaction=False)
            for key, p in by_key.items():
                pipe.xrange(key, f"({self.positions[p]}", "+", count=BATCH)
            return [(p, entries) for p, entries in zip(by_key.values(), pipe.execute()) if entries]
        replies = self.redis.xread({key: self.positions[p] for key, p in by_key.items()}, count=BATCH,
                                     block=BLOCK_MS)
        return [(by_key[key], entries) for key, entries in replies or () if entries]

    def project_or_pause(self, p: int, entries: list) -> None:
        """Project a batch; if it fails (a bug, bad data), pause that partition alone and log why, so one bad
        batch never holds the other partitions up. A lost Redis is raised to `run`, which waits it out."""
        try:
            self.project(p, entries)
        except RedisError:
            raise
        except Exception:
            log.exception("projection follower: partition %d's batch failed; reading it again in %.0f s",
                          p, FAILED_PAUSE_SECONDS)
            self.paused[p] = time.monotonic() + FAILED_PAUSE_SECONDS

    def project(self, p: int, entries: list) -> None:
        """Project one batch of partition p and move past it (a batch that fails is read again)."""
        if p not in self.positions:
            return
        project_entries(self.projector, p, entries, self.followups)
        self.positions[p] = entries[-1][0]
        self.batches += 1

    def release_all(self) -> None:
        """Give up every lease held (another follower takes the partitions over)."""
        try:
            self.redis.zrem(FOLLOWERS_KEY, self.owner)
            for p in list(self.positions):
                self.leases.release(p)
        except RedisError as exc:
            log.warning("projection follower: could not release its leases (%s); they lapse by themselves", exc)
        self.positions.clear()


def start_follower(projector: Projector, owner: str, stop: threading.Event, cluster: bool = False,
                   gather_seconds: float = 0.0, followups=None) -> threading.Thread:
    """Start a ProjectionFollower in a daemon thread; return the thread."""
    follower = ProjectionFollower(projector, owner, stop, cluster, gather_seconds, followups)
    thread = threading.Thread(target=follower.run, name="projection-follower", daemon=True)
    thread.follower = follower
    thread.start()
    return thread


def spans(numbers: list) -> str:
    """Sorted numbers as runs: [0, 1, 2, 5, 7, 8] -> "0-2, 5, 7-8"."""
    runs: list = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
