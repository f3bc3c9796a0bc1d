"""Parked live streams: once a stream's greeting and catch-up are formatted, the request that opened it ends and its
connection is handed to one writer per web process, which keeps only the socket, the subscriber and its cursor. The
writer sends the response's headers and first bytes too, without blocking, so a stream is bounded from its first
byte: what a client has not taken counts against MAX_PENDING and MAX_PENDING_TOTAL, and the lifetime and keep-alives
hold while a write waits.

An open stream held by its request keeps a greenlet's saved stack, the WSGI environ, werkzeug's request and
response and gunicorn's read buffer: about 30 kB each while nothing happens. Parked, it keeps a few hundred bytes
of Python objects (the kernel's socket buffers are not the process's memory). Messages are written without
blocking; what one pass of the live reader queued for a connection goes out in one write, so a crowd on a busy
match costs one system call per connection per pass, not per event. Hang-ups are seen by one epoll set.

Only gunicorn's gevent workers park (service/server/web_response.py takes the hand-off); under any other server
the stream's request keeps pumping as before (service/web/api/stream.py).
"""
from __future__ import annotations

import logging
import os
import select
import time

from service.metrics import PARKED_STREAMS

log = logging.getLogger("turnstream.live")

KEEPALIVE_SECONDS = 15.0  # an idle stream gets a comment this often
CREDENTIAL_CHECK_SECONDS = 1.0  # while sign-outs may go unheard, a signed-in stream's token is re-checked this often
# (otherwise a rotation or sign-out wakes the stream itself and it ends at once); the check is cached: no round trip
SWEEP_SECONDS = 1.0  # how often lifetimes, keep-alives and credentials are looked at
MAX_PENDING = 256 << 10  # bytes a connection may fall behind (its client stopped reading) before it is ended
MAX_PENDING_TOTAL = 64 << 20  # and all of a process's connections together: a crowd of non-readers costs at most this
YIELD_EVERY = 256  # connections written between two yields to the commands of the same process
END_CHUNK = b"0\r\n\r\n"  # the end of a chunked body: the client sees the stream end cleanly and resumes


class HandOff(bytes):
    """The first bytes of a stream (greeting and catch-up), yielded by its response: a server that can park the
    connection calls `take(fd, chunked, head)` with the response's status line and headers, unsent, and sets
    `taken` (the parked streams write both without blocking); any other server just sends them."""

    def __new__(cls, data: bytes, take):
        self = super().__new__(cls, data)
        self.take = take
        self.taken = False
        return self


_parking = None


def install(on_count=None) -> None:
    """Let this (gevent) worker process park streams; `on_count(delta)` is told as parked streams come and go."""
    global _parking
    _parking = Parking(on_count)


def current():
    """This process's Parking, or None when its server cannot park (tests, the development server)."""
    return _parking


class Parked:
    """One parked stream: its connection, subscriber and writer (the cursor), and when it ends."""

    __slots__ = ("fd", "sub", "writer", "chunked", "ends", "quiet", "checked", "signed_in", "pushed", "release",
                 "out", "pending", "ended", "parking")

    def deliver(self, item: tuple) -> None:
        """A message from the live reader: formatted now (the writer's cursor moves), written on the next pass."""
        text = self.writer.message(item)
        if text:
            self.parking.queue(self, text)

    def recheck(self) -> None:
        """The user's tokens changed: check the credential before anything more is written."""
        self.parking.queue(self, None)

    def end(self) -> None:
        """End the stream soon (the server stops, or the hub drops it)."""
        self.parking.ending(self)


class Parking:
    """This process's parked streams: one writer greenlet, one epoll set for hang-ups, one sweep a second."""

    def __init__(self, on_count=None):
        # gevent loads only where streams park, in a gevent worker (any server imports this module)
        from gevent import monkey
        epoll = monkey.get_original("select", "epoll")
        self._epoll = epoll()
        self._streams: dict = {}  # fd -> Parked
        self._pending_total = 0  # bytes waiting for slow connections, all together
        self._dirty: list = []  # streams with something to write (or a credential to check)
        self._ends: list = []  # streams to end on the next pass
        self._wanted = None
        self._started = False
        self._on_count = on_count or (lambda delta: None)
        self.hub = None  # the process's LiveHub: its watermark moves user streams' cursors on when idle

    def __len__(self) -> int:
        return len(self._streams)

    # -- a stream arrives --------------------------------------------------------------------------------------
    def park(self, fd: int, chunked: bool, hub, sub, writer, lifetime_ends: float, signed_in, pushed,
             release, opening: bytes = b"", head: bytes = b"", last: bool = False) -> Parked:
        """Take over connection `fd` (non-blocking from now on) for `sub` of `hub`: the response's `head` and
        `opening` body bytes go first, under the budget of every write, then the messages it had queued (none
        when `last`: the stream ends after its opening)."""
        self._start()
        self.hub = hub
        os.set_blocking(fd, False)
        p = Parked()
        now = time.monotonic()
        p.fd, p.sub, p.writer, p.chunked, p.ends = fd, sub, writer, chunked, lifetime_ends
        p.quiet, p.checked, p.signed_in, p.pushed, p.release = now, now, signed_in, pushed, release
        p.out, p.pending, p.ended, p.parking = None, b"", False, self
        self._epoll.register(fd, select.EPOLLIN | select.EPOLLRDHUP)  # raises before anything is kept
        self._streams[fd] = p
        self._count(1)
        if head or opening:
            self._send(p, opening, head)
        queued = sub.hand_over(p)
        if sub.closed or last:
            self.ending(p)
            return p
        for item in queued:
            p.deliver(item)
        if sub.recheck:
            self.queue(p, None)
        return p

    def _count(self, delta: int) -> None:
        PARKED_STREAMS.inc(delta)
        self._on_count(delta)

    # -- the writer ------------------------------------------------------------------------------------------
    def queue(self, p: Parked, text: str | None) -> None:
        """Write `text` to `p` on the next pass (None: only look at its credential then)."""
        if p.ended:
            return
        if p.out is None:
            p.out = []
            self._dirty.append(p)
            self._wanted.set()
        if text is not None:
            p.out.append(text)

    def ending(self, p: Parked) -> None:
        """End `p` on the next pass."""
        if not p.ended:
            self._ends.append(p)
            self._wanted.set()

    def _start(self) -> None:
        if self._started:
            return
        # gevent loads only where streams park, in a gevent worker (any server imports this module)
        import gevent
        from gevent.event import Event
        self._wanted = Event()
        self._started = True
        for loop in (self._write_loop, self._watch_loop, self._sweep_loop):
            gevent.spawn(self._guarded, loop)

    @staticmethod
    def _guarded(loop) -> None:
        """Run a loop for ever: an unexpected error is logged and the loop starts again."""
        # gevent loads only where streams park, in a gevent worker (any server imports this module)
        import gevent
        while True:
            try:
                loop()
            except Exception:
                log.exception("parked streams: %s failed; restarting it", loop.__name__)
                gevent.sleep(0.1)

    def _write_loop(self) -> None:
        # gevent loads only where streams park, in a gevent worker (any server imports this module)
        import gevent
        while True:
            self._wanted.wait()
            self._wanted.clear()
            ends, self._ends = self._ends, []
            for p in ends:
                self._end(p, clean=True)
            dirty, self._dirty = self._dirty, []
            now = time.monotonic()
            for n, p in enumerate(dirty, 1):
                try:
                    self._flush(p, now)
                except Exception:  # one connection's trouble never stops the others
                    log.exception("parked streams: a stream could not be written; ending it")
                    self._end(p, clean=False)
                if n % YIELD_EVERY == 0:
                    gevent.sleep(0)  # let the process's commands run between slices of a crowd

    def _flush(self, p: Parked, now: float) -> None:
        out, p.out = p.out, None
        if p.ended:
            return
        if p.sub.recheck or (now - p.checked >= CREDENTIAL_CHECK_SECONDS and not p.pushed()):
            p.sub.recheck, p.checked = False, now
            if not p.signed_in():  # signed out everywhere: nothing more reaches this connection
                self._end(p, clean=True)
                return
        if out:
            p.quiet = now
            self._send(p, "".join(out).encode())

    def _send(self, p: Parked, body: bytes, head: bytes = b"") -> None:
        """Write `head` and `body` (framed) now as far as the connection takes them; the rest waits, within
        MAX_PENDING for `p` and MAX_PENDING_TOTAL for the process, or `p` is ended."""
        data = head + (b"%X\r\n%s\r\n" % (len(body), body) if p.chunked and body else body)
        if not p.pending:
            try:
                sent = os.write(p.fd, data)
            except BlockingIOError:
                sent = 0
            except OSError:
                self._end(p, clean=False)
                return
            data = data[sent:]
            if not data:
                return
            self._epoll.modify(p.fd, select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLOUT)
        self._keep(p, p.pending + data)
        if len(p.pending) > MAX_PENDING or self._pending_total > MAX_PENDING_TOTAL:
            self._end(p, clean=False)  # its client stopped reading: it resumes with Last-Event-ID

    def _keep(self, p: Parked, pending: bytes) -> None:
        """What waits for `p`'s connection is now `pending` (the process's total follows)."""
        self._pending_total += len(pending) - len(p.pending)
        p.pending = pending

    def _drain(self, p: Parked) -> None:
        """The connection can take more: write what waits."""
        try:
            sent = os.write(p.fd, p.pending)
        except BlockingIOError:
            return
        except OSError:
            self._end(p, clean=False)
            return
        self._keep(p, p.pending[sent:])
        if not p.pending:
            self._epoll.modify(p.fd, select.EPOLLIN | select.EPOLLRDHUP)

    def _end(self, p: Parked, clean: bool) -> None:
        """Close `p`'s connection (after the end of its body when `clean` and nothing waits) and release it."""
        if p.ended:
            return
        p.ended = True
        self._streams.pop(p.fd, None)
        try:
            self._epoll.unregister(p.fd)
        except OSError:
            pass  # the kernel dropped it already (the connection was reset)
        try:
            if clean and p.chunked and not p.pending:
                os.write(p.fd, END_CHUNK)
        except OSError:
            pass  # the client is gone: nothing to end cleanly
        os.close(p.fd)
        self._keep(p, b"")
        self._count(-1)
        try:
            p.release()
        except Exception:
            log.exception("parked streams: a stream could not be released")

    # -- hang-ups and slow readers -------------------------------------------------------------------------
    def _watch_loop(self) -> None:

        # gevent loads only where streams park, in a gevent worker (any server imports this module)
        from gevent.socket import wait_read
        gone = select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLHUP | select.EPOLLERR
        while True:
            wait_read(self._epoll.fileno())
            for fd, events in self._epoll.poll(0, 1024):
                p = self._streams.get(fd)
                if p is None:
                    continue
                if events & gone:  # the client hung up (a stream's client sends nothing once it is open)
                    self._end(p, clean=False)
                elif events & select.EPOLLOUT:
                    try:
                        self._drain(p)
                    except OSError:
                        self._end(p, clean=False)

    # -- lifetimes, keep-alives, credentials ---------------------------------------------------------------
    def _sweep_loop(self) -> None:
        # gevent loads only where streams park, in a gevent worker (any server imports this module)
        import gevent
        while True:
            gevent.sleep(SWEEP_SECONDS)
            self.sweep(time.monotonic())

    def sweep(self, now: float) -> None:
        """End the streams whose lifetime is over, send keep-alives to the quiet ones, and (while sign-outs may
        go unheard) look at credentials that are due."""
        watermark = self.watermark()  # read first: every entry it covers is queued on its streams by now
        for p in list(self._streams.values()):
            if now >= p.ends:
                self._end(p, clean=True)
            elif now - p.checked >= CREDENTIAL_CHECK_SECONDS and not p.pushed():
                self.queue(p, None)
            elif now - p.quiet >= KEEPALIVE_SECONDS and p.out is None:
                p.quiet = now
                self.queue(p, p.writer.keepalive(watermark))

    def watermark(self) -> int:
        """Every log entry appended before this time (ms) has been queued on its streams (the live hub's)."""
        return self.hub.watermark_ms if self.hub is not None else 0
