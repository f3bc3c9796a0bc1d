"""A replicated Redis on one machine, to try and test failover with real processes: a primary reached through a
link that can be cut (a host's death: what is in flight on the wire is lost, as it would be, while a kill on
loopback would still deliver it), replicas of it, and Redis Sentinels (`redis-server --sentinel`) watching it."""
from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.server.embedded_redis import EmbeddedRedis, find_redis_server, free_port

RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() sends a reset and drops whatever is unsent


def redis_binary() -> str:
    """The system's redis-server (Debian's) when there is one, else the one find_redis_server finds."""
    return shutil.which("redis-server") or find_redis_server()


def answers_ping(port: int) -> bool:
    """True when something on 127.0.0.1:`port` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _reset(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
    sock.close()


class Link:
    """A TCP relay from 127.0.0.1:`port` to 127.0.0.1:`target_port` in one thread. `cut()` resets every connection
    and refuses new ones, and what the relay held unsent is dropped: the peers see a dead host."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.port = 0
        self._cut = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "Link":
        """Listen on a free loopback port and relay from a thread of its own."""
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self._wake_read, self._wake_write = socket.socketpair()
        self._thread = threading.Thread(target=self._relay, name=f"link-{self.port}", daemon=True)
        self._thread.start()
        return self

    def cut(self) -> None:
        """Reset every connection at once, refuse any new one; nothing held is delivered."""
        self._cut.set()
        with contextlib.suppress(OSError):
            self._wake_write.send(b"x")
        if self._thread is not None:
            self._thread.join(5)

    def _relay(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._listener, selectors.EVENT_READ)
        selector.register(self._wake_read, selectors.EVENT_READ)
        peers: dict = {}
        unsent: dict = {}
        while not self._cut.is_set():
            for key, mask in selector.select(0.5):
                sock = key.fileobj
                if sock is self._listener:
                    self._accept(selector, peers, unsent)
                elif sock is not self._wake_read:
                    self._move(selector, sock, mask, peers, unsent)
        for sock in list(peers) + [self._listener]:
            _reset(sock)
        selector.close()

    def _accept(self, selector, peers: dict, unsent: dict) -> None:
        try:
            near, _address = self._listener.accept()
            far = socket.create_connection(("127.0.0.1", self.target_port), timeout=2)
        except OSError:
            return
        for one, other in ((near, far), (far, near)):
            one.setblocking(False)
            one.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            peers[one], unsent[one] = other, bytearray()
            selector.register(one, selectors.EVENT_READ)

    def _move(self, selector, sock, mask: int, peers: dict, unsent: dict) -> None:
        """Read what `sock` has for its peer, write what it was owed; either side ending ends both."""
        try:
            if mask & selectors.EVENT_READ:
                data = sock.recv(65536)
                if not data:
                    raise ConnectionError("closed")
                unsent[peers[sock]] += data
                self._flush(selector, peers[sock], unsent)
            if mask & selectors.EVENT_WRITE:
                self._flush(selector, sock, unsent)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            other = peers.pop(sock, None)
            for one in (sock, other):
                if one is not None:
                    peers.pop(one, None)
                    unsent.pop(one, None)
                    with contextlib.suppress(KeyError, ValueError):
                        selector.unregister(one)
                    one.close()

    @staticmethod
    def _flush(selector, sock, unsent: dict) -> None:
        buffer = unsent[sock]
        if buffer:
            with contextlib.suppress(BlockingIOError):
                del buffer[:sock.send(buffer)]
        selector.modify(sock, selectors.EVENT_READ | (selectors.EVENT_WRITE if buffer else 0))


class SentinelServer:
    """One `redis-server --sentinel` process watching `master` at 127.0.0.1:`monitor_port`."""

    def __init__(self, data_dir, master: str, monitor_port: int, quorum: int, down_after_ms: int,
                 failover_timeout_ms: int, exe: str = ""):
        self.data_dir = Path(data_dir).resolve()
        self.port = free_port()
        self.config = (f"port {self.port}\nbind 127.0.0.1\ndir {self.data_dir}\nlogfile {self.data_dir / 'sentinel.log'}\n"
                       f"sentinel monitor {master} 127.0.0.1 {monitor_port} {quorum}\n"
                       f"sentinel down-after-milliseconds {master} {down_after_ms}\n"
                       f"sentinel failover-timeout {master} {failover_timeout_ms}\n"
                       f"sentinel parallel-syncs {master} 1\n")
        self.exe = exe or redis_binary()
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> "SentinelServer":
        """Write its configuration (Sentinel rewrites it as it learns) and start it; wait until it answers. A restart
        keeps the file as Sentinel left it: its id (else the others count one sentinel more), the current primary."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        conf = self.data_dir / "sentinel.conf"
        if self.proc is None or not conf.exists():
            conf.write_text(self.config)
        self.proc = subprocess.Popen([self.exe, str(conf), "--sentinel"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + timeout
        while not answers_ping(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"sentinel on port {self.port} did not start: see {self.data_dir}/sentinel.log")
            time.sleep(0.05)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop it (SIGTERM, then SIGKILL after `timeout` s)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class RedisGroup:
    """A primary behind a Link (or reached directly: `link=False`), `replicas` replicas of it and `sentinels`
    sentinels (quorum: a majority) watching it, each a real process with its data under `root` (the primary's in
    `primary_dir` if given). The primary and the replicas refuse writes with fewer than `min_replicas_to_write`
    replicas `max_lag` s behind at most (split brain: a primary cut off from its replicas soon stops taking writes)."""

    def __init__(self, root, replicas: int = 2, sentinels: int = 3, master: str = "turnstream",
                 down_after_ms: int = 1000, failover_timeout_ms: int = 4000, min_replicas_to_write: int = 1,
                 max_lag: int = 2, appendfsync: str = "everysec", link: bool = True, primary_dir=None):
        self.root = Path(root)
        self.cuttable = link
        self.master = master
        self.exe = redis_binary()
        writes = ["--min-replicas-to-write", str(min_replicas_to_write), "--min-replicas-max-lag", str(max_lag)]
        self.primary = EmbeddedRedis(primary_dir or self.root / "primary", appendfsync=appendfsync, extra_args=writes,
                                     exe=self.exe)
        self.link: Link | None = None
        self.replica_count, self.sentinel_count = replicas, sentinels
        self.timings = (down_after_ms, failover_timeout_ms)
        self.writes, self.appendfsync = writes, appendfsync
        self.replicas: list = []
        self.sentinels: list = []

    def start(self, timeout: float = 60.0) -> "RedisGroup":
        """Start every process and wait until each replica follows the primary and each sentinel knows them all."""
        self.primary.start()
        self.link = Link(self.primary.port).start() if self.cuttable else None
        for i in range(self.replica_count):
            follow = ["--replicaof", "127.0.0.1", str(self.primary_address_given)] + self.writes
            self.replicas.append(EmbeddedRedis(self.root / f"replica{i + 1}", appendfsync=self.appendfsync,
                                               extra_args=follow, exe=self.exe).start())
        quorum = self.sentinel_count // 2 + 1
        for i in range(self.sentinel_count):
            self.sentinels.append(SentinelServer(self.root / f"sentinel{i + 1}", self.master, self.primary_address_given,
                                                 quorum, *self.timings, exe=self.exe).start())
        self._wait(self._settled, timeout, "the replicas and sentinels to find each other")
        return self

    @property
    def primary_address_given(self) -> int:
        """The port replicas and sentinels are told the primary is on: the link's, or its own."""
        return self.link.port if self.link is not None else self.primary.port

    @property
    def sentinels_setting(self) -> str:
        """REDIS_SENTINELS for this group."""
        return ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)

    def _client(self, port: int):
        # one try: a server that is down is passed over at once (redis-py's own retries take 7 s)
        return redis.Redis(port=port, decode_responses=True, socket_connect_timeout=1, socket_timeout=2,
                           retry=Retry(NoBackoff(), 0))

    def _settled(self) -> bool:
        try:
            for sentinel in self.sentinels:
                state = self._client(sentinel.port).sentinel_master(self.master)
                if (int(state["num-slaves"]) < self.replica_count
                        or int(state["num-other-sentinels"]) < self.sentinel_count - 1):
                    return False
            return all(self._client(r.port).info("replication").get("master_link_status") == "up"
                       for r in self.replicas)
        except redis.RedisError:
            return False

    @staticmethod
    def _wait(predicate, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")
            time.sleep(0.1)

    def primary_port(self) -> int | None:
        """The port of the primary as a majority of the sentinels name it now (the link's for the first one)."""
        named = []
        for sentinel in self.sentinels:
            with contextlib.suppress(redis.RedisError):
                named.append(int(self._client(sentinel.port).sentinel_get_master_addr_by_name(self.master)[1]))
        best = max(set(named), key=named.count) if named else None
        return best if best is not None and named.count(best) > self.sentinel_count // 2 else None

    def signal_replicas(self, sig: int) -> None:
        """Send `sig` to every replica (SIGSTOP pauses them: nothing taken, nothing confirmed; SIGCONT resumes)."""
        for replica in self.replicas:
            os.kill(replica.proc.pid, sig)

    def lose_primary(self) -> None:
        """The primary's host dies: the link is cut (in-flight bytes lost), the process killed (-9), its disk gone."""
        if self.link is not None:
            self.link.cut()
        self.primary.kill()
        shutil.rmtree(self.primary.data_dir, ignore_errors=True)

    def stop(self) -> None:
        """Stop every process this group started (a paused one is resumed first so that it can stop)."""
        for server in self.sentinels + self.replicas + [self.primary]:
            if server.proc is not None and server.proc.poll() is None:
                os.kill(server.proc.pid, signal.SIGCONT)
        for server in self.sentinels + self.replicas + [self.primary]:
            with contextlib.suppress(Exception):
                server.stop()
        if self.link is not None:
            self.link.cut()
