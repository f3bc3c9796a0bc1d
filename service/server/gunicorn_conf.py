"""The production web server's settings (gunicorn, gevent workers): used by the Procfile, `turnstream up` and `web`.

Loaded by gunicorn as a file (`-c service/server/gunicorn_conf.py`), so the master process imports nothing of the
service but the connection board it shares with its workers (service/server/accept_balance.py): each worker patches
the standard library with gevent first, then builds the app.
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

from gunicorn import glogging

# every open stream is a socket: allow as many open files as the system lets this process have
from service.server.limits import raise_open_files  # noqa: E402 (light: the standard library only)

raise_open_files(int(os.environ.get("TURNSTREAM_OPEN_FILES") or 65536))


def _bind(chosen: str, port: str) -> str:
    """Where the Procfile's web server listens: loopback on $PORT unless TURNSTREAM_BIND says otherwise, as a
    gunicorn address (`127.0.0.1:8000`, `unix:/run/turnstream.sock`) or a bare host that takes $PORT (`0.0.0.0`,
    `::`: every interface, for a platform that routes to $PORT)."""
    chosen = chosen.strip()
    if not chosen:
        return f"127.0.0.1:{port}"
    if chosen.startswith(("unix:", "fd://")):
        return chosen
    if chosen.startswith("["):  # [v6] or [v6]:port
        return chosen if "]:" in chosen else f"{chosen}:{port}"
    if chosen.count(":") == 1:  # host:port
        return chosen
    if ":" in chosen:  # a bare IPv6 address
        return f"[{chosen}]:{port}"
    return f"{chosen}:{port}"  # a bare host


bind = _bind(os.environ.get("TURNSTREAM_BIND", ""), os.environ.get("PORT") or "8000")
# gevent: one greenlet per connection, so an open live-update stream costs no OS thread; gunicorn's gevent worker
# with a short path for plain command requests (service/server/command_worker.py)
worker_class = "service.server.command_worker.CommandWorker"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)  # one per core: commands are CPU-bound in each process
worker_connections = int(os.environ.get("TURNSTREAM_WORKER_CONNECTIONS") or 6000)  # open sockets per worker
timeout = 30  # a worker that stops answering the arbiter's heartbeat for this long is restarted
graceful_timeout = 5  # on stop, commands in flight finish; live streams are cut and browsers resume them
keepalive = 5  # seconds an idle keep-alive connection waits for its next request
backlog = 2048
# no access log of gunicorn's own: the app writes one line per request (service/logs.py), to standard error with
# the rest or, with TURNSTREAM_ACCESS_LOG (`-`: standard output, else a file), there only; it carries the
# request's id, user, match and command, and the path without its query string
accesslog = None
errorlog = "-"


class ServiceLogger(glogging.Logger):
    """gunicorn's logger, without its access line unless `accesslog` names one: with a logging config (ours, below)
    gunicorn gathers every request's atoms and logs them to a logger that writes nowhere (3-6% of a worker's CPU)."""

    def access(self, resp, req, environ, request_time):
        """gunicorn's access line, when an access log is configured."""
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)


logger_class = ServiceLogger
loglevel = os.environ.get("TURNSTREAM_LOG_LEVEL") or "info"
control_socket_disable = True  # one shared default path would clash between servers on one machine
# metrics: every worker writes its counters to files here and /metrics sums them (prometheus_client's
# multiprocess mode); a fresh directory per server unless the operator names one (wiped at start then)
_OWN_METRICS_DIR = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _OWN_METRICS_DIR:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="turnstream-metrics-")
# gunicorn's own lines in the service's format (text, or JSON with TURNSTREAM_LOG_FORMAT=json), its time format
# (ISO-8601 UTC, milliseconds), one line each and not repeated by the app's handler (service/logs.py)
from service.logs import gunicorn_logconfig  # noqa: E402 (light: nothing of Flask or Redis)

logconfig_dict = gunicorn_logconfig("json" if os.environ.get("TURNSTREAM_LOG_FORMAT", "").lower() == "json"
                                    else "text", loglevel)

# open connections per worker, shared by the workers forked from here (service/server/accept_balance.py)
BALANCE = os.environ.get("TURNSTREAM_ACCEPT_BALANCE", "1") != "0"
if BALANCE:
    from service.server.accept_balance import Board
    BOARD = Board()


def refuse_misconfiguration() -> None:
    """A REDIS_URL or RQ_REDIS_URL that is no Redis URL, or REDIS_SENTINELS or TURNSTREAM_MIN_REPLICAS that cannot
    work, stops the server at once, in one line and with EX_CONFIG (78), instead of workers failing to boot. Checked
    without importing redis-py or anything that imports ssl: the gevent workers forked from here patch the standard
    library first."""
    # checked in the master, which imports no more of the service than it must (the module's docstring)
    from service.config import ConfigError, redis_url, replicas, sentinels
    try:
        for name in ("REDIS_URL", "RQ_REDIS_URL"):
            if os.environ.get(name):
                redis_url(name, os.environ[name])
        sentinels(os.environ.get("REDIS_SENTINELS", ""))
        replicas(os.environ.get, os.environ.get("REDIS_CLUSTER", "") in ("1", "true", "yes"))
    except ConfigError as exc:
        print(f"turnstream web: {exc}", file=sys.stderr, flush=True)
        if _OWN_METRICS_DIR:
            shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
        sys.exit(78)


def on_starting(server):
    """Refuse a configuration that cannot work; empty the metrics directory: counts left by an earlier server
    would be added to this one's."""
    refuse_misconfiguration()
    directory = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()


def on_exit(server):
    """Remove the metrics directory this server made for itself."""
    if _OWN_METRICS_DIR:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def child_exit(server, worker):
    """Drop a dead worker's live gauges (open streams) from the metrics files."""
    from prometheus_client import multiprocess  # the master loads the metrics library only when a worker dies
    multiprocess.mark_process_dead(worker.pid)
    if BALANCE and getattr(worker, "balance_slot", None) is not None:
        BOARD.leave(worker.balance_slot)


def pre_fork(server, worker):
    """Hand the worker about to be forked a free slot on the connection board (the master forks one at a time)."""
    if BALANCE:
        worker.balance_slot = BOARD.take_slot()


def post_fork(server, worker):
    """Name the worker in the log; it builds its own app, connections and live reader after the fork."""
    server.log.info("web worker %s: gevent, up to %d connections", worker.pid, worker_connections)


def post_worker_init(worker):
    """Once the worker is told to stop, end its live-update streams so that browsers resume elsewhere at once
    (instead of holding the graceful shutdown for `graceful_timeout`); answer each sized response in one send;
    freeze what the app has built, and what survives each full collection, out of the collector's way."""
    # in the worker after the fork: the service loads once gevent has patched the standard library
    import gevent

    from service.server import gc_policy
    from service import logs, metrics
    from service.config import from_env
    from service.server.web_response import install
    from service.store.connections import Misconfigured, check_topology
    settings = from_env()
    logs.configure(settings)  # the app's log handler (service/logs.py), in text mode too
    try:
        check_topology(settings)
    except Misconfigured as exc:  # gunicorn stops when a worker fails to boot (exit 3): one line, no loop
        worker.log.error("turnstream web: %s", exc)
        raise SystemExit(3) from None
    install()
    from service.server.limits import open_files, stream_cap  # (the same: in the worker only)
    count = None
    if BALANCE:
        from service.server import accept_balance  # (the same: in the worker only)
        count = accept_balance.install(worker, BOARD)
    if os.environ.get("TURNSTREAM_PARK_STREAMS", "1") != "0":
        from service.server import stream_parking  # (the same: in the worker only)
        stream_parking.install(count)
    gc_policy.install(settings.gc_sweep_seconds, on_pause=metrics.observe_gc_pause)
    # logged last: the line says the worker is ready (its balance and stream parking installed)
    worker.log.info("web worker %s: up to %d live streams (TURNSTREAM_STREAMS_PER_PROCESS %d, %d open files)",
                    worker.pid, stream_cap(settings.streams_per_process), settings.streams_per_process, open_files())

    def end_streams_on_stop():
        while worker.alive:
            gevent.sleep(0.5)
        wiring = worker.wsgi.extensions.get("turnstream")
        if wiring is not None:
            wiring.live.stop()
            gevent.sleep(0.2)  # the parked streams' writer ends their connections cleanly

    gevent.spawn(end_streams_on_stop)
