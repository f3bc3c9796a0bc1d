"""`turnstream up --replicas N`'s Redis: the embedded primary, N replicas and three Sentinels on this machine (a
RedisGroup with `up`'s durability), each restarted with backoff when it exits, as `up` restarts its one Redis."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from service.server.embedded_redis import EmbeddedRedis
from service.server.redis_group import RedisGroup
from service.server.supervisor import Supervisor, say

SENTINELS = 3
DOWN_AFTER_MS = 5000  # the sentinels' timings of docs/operations.md, so that a trial behaves as production would
FAILOVER_TIMEOUT_MS = 60000
MAX_LAG = 10  # min-replicas-max-lag: a primary that hears from no replica refuses writes after 10 s


def embedded_group(data, replicas: int) -> RedisGroup:
    """The group `up --replicas` runs: the primary's data in `data` (where `up` alone keeps it), each replica's and
    sentinel's in a folder of its own there (replica1, sentinel1, ...); AOF `appendfsync always` on every server."""
    data = Path(data).resolve()
    return RedisGroup(data, replicas=replicas, sentinels=SENTINELS, down_after_ms=DOWN_AFTER_MS,
                      failover_timeout_ms=FAILOVER_TIMEOUT_MS, min_replicas_to_write=1, max_lag=MAX_LAG,
                      appendfsync="always", link=False, primary_dir=data)


def started(group: RedisGroup) -> RedisGroup:
    """The group once every process of it runs and knows the others; what started is stopped when it cannot all
    start (RuntimeError) or the start is interrupted."""
    try:
        return group.start()
    except BaseException:
        group.stop()
        raise


def listening(group: RedisGroup) -> list[str]:
    """One line per process of the group: its role and where it listens."""
    lines = [f"primary at {group.primary.url} (AOF appendfsync always, data in {group.primary.data_dir})"]
    lines += [f"replica {i} at {replica.url} (data in {replica.data_dir})"
              for i, replica in enumerate(group.replicas, 1)]
    lines += [f"sentinel {i} at 127.0.0.1:{sentinel.port} (watching {group.master!r}, data in {sentinel.data_dir})"
              for i, sentinel in enumerate(group.sentinels, 1)]
    return lines


def follow_current_primary(group: RedisGroup, server: EmbeddedRedis) -> None:
    """Give a data server about to restart the role the sentinels give it now: the primary, or a replica of the
    server they name (the role it had when no majority of them answers)."""
    primary = group.primary_port()
    if primary is not None:
        server.extra_args = group.writes + ([] if primary == server.port else
                                            ["--replicaof", "127.0.0.1", str(primary)])


@dataclass
class Member:
    """One process of the group and its restart bookkeeping."""

    name: str
    server: object  # an EmbeddedRedis (the primary or a replica) or a SentinelServer
    started_at: float
    restart_at: float | None = None
    backoff: float = 0.0

    def alive(self) -> bool:
        """True while the process runs."""
        return self.server.proc is not None and self.server.proc.poll() is None


class GroupSupervisor(Supervisor):
    """`up`'s Supervisor over a RedisGroup: the children as `up` runs them, and any process of the group that exits
    restarted with backoff (a data server in the role the sentinels give it then); the group stops last."""

    def __init__(self, children: list, group: RedisGroup, **kwargs):
        super().__init__(children, redis=group, **kwargs)
        now = time.monotonic()
        self.members = [Member(f"redis-server on port {s.port}", s, now) for s in [group.primary] + group.replicas]
        self.members += [Member(f"sentinel on port {s.port}", s, now) for s in group.sentinels]

    def _redis_up(self) -> bool:
        return True  # the children find the primary through the sentinels and ride out its absence

    def _check_redis(self, now: float) -> None:
        for member in self.members:
            if member.restart_at is None and not member.alive():
                self._later(member, now - member.started_at, f"exited with code {member.server.proc.returncode}")
            elif member.restart_at is not None and now >= member.restart_at:
                self._restart(member)

    def _later(self, member: Member, ran_for: float, what: str) -> None:
        """Schedule a member's restart after its backoff, and say so."""
        member.backoff = self._next_backoff(member.backoff, ran_for)
        member.restart_at = time.monotonic() + member.backoff
        say(f"{member.name} {what}; restarting in {member.backoff:.1f} s")

    def _restart(self, member: Member) -> None:
        if isinstance(member.server, EmbeddedRedis):
            follow_current_primary(self.redis, member.server)
        try:
            member.server.start()
        except RuntimeError as exc:
            self._later(member, 0.0, f"did not start ({exc})")
            return
        member.started_at, member.restart_at = time.monotonic(), None
        say(f"{member.name} restarted{role(member.server)}")


def role(server) -> str:
    """What a restarted server is, said after its name: the primary, a replica of a port, or nothing (a sentinel)."""
    if not isinstance(server, EmbeddedRedis):
        return ""
    args = server.extra_args
    return f" as a replica of port {args[args.index('--replicaof') + 2]}" if "--replicaof" in args \
        else " as the primary"
