"""`turnstream bench`: its options, and the run of the one benchmark they choose on the Redis they name."""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile

from service.cli.bench import bots
from service.server.embedded_redis import EmbeddedRedis


def add_commands(sub) -> None:
    """Register `turnstream bench`."""
    p = sub.add_parser("bench", help="measure command throughput and latency, replay, projection lag, memory",
                       description="Benchmark the service on its own embedded redis-server in a temporary "
                                   "directory (REDIS_URL is never used: the bench writes matches and users), or on "
                                   "the Redis given with --redis. Progress goes to stderr.")
    p.add_argument("--json", action="store_true", help="print one JSON object with every figure last")
    p.add_argument("--matches", type=int, default=0, help="concurrent Uchronia matches (default: enough for --commands)")
    p.add_argument("--commands", type=int, default=0, help="in-process commands to time (default 6000, quick 2000)")
    p.add_argument("--clients", type=int, default=8, help="concurrent HTTP clients (default 8)")
    p.add_argument("--threads", type=int, default=1,
                   help="submitting threads per process (default 1: on few cores the GIL makes more threads slower)")
    p.add_argument("--processes", type=int, default=min(4, os.cpu_count() or 1),
                   help="processes running the command path at once (default: the CPU count, at most 4)")
    p.add_argument("--appendfsync", choices=("always", "everysec", "no"), default="everysec",
                   help="AOF fsync policy of the embedded Redis (default everysec)")
    p.add_argument("--quick", action="store_true", help="fewer commands and shorter phases")
    p.add_argument("--redis", metavar="URL", default="",
                   help="measure on this Redis instead of an embedded one; it must be empty (the bench writes "
                        "matches and users into it and leaves them) unless --redis-allow-nonempty")
    p.add_argument("--redis-allow-nonempty", action="store_true",
                   help="with --redis: write into a database that already holds keys")
    bots.add_arguments(p)
    p.add_argument("--http", action="store_true",
                   help="instead: the production web server (gunicorn) in separate processes, driven over HTTP by "
                        "a separate load generator at 1, 8, 16 and 32 clients, against the in-process command path")
    p.add_argument("--web-workers", type=int, default=0,
                   help="with --http: gunicorn workers (default: the server configuration's)")
    p.add_argument("--worker-class", default="",
                   help="with --http: another gunicorn worker class to compare (e.g. gthread; default: the configuration's)")
    p.add_argument("--seconds", type=float, default=0,
                   help="with --http: measured seconds per phase and client count (default 4, quick 2)")
    p.add_argument("--streams", type=int, default=0,
                   help="instead: hold N live streams from a separate process against the production web server "
                        "while commands are submitted: streams held, delivery p50/p99, command p99, memory per stream")
    p.add_argument("--stream-matches", type=int, default=10,
                   help="with --streams: the matches the streams watch (default 10)")
    p.add_argument("--command-rate", type=float, default=100.0,
                   help="with --streams: commands a second submitted while the streams are open (default 100)")
    p.add_argument("--archive", action="store_true",
                   help="instead: Redis bytes of finished matches (every game) live and archived, bytes per event, "
                        "matches per GiB, and cold page and replay times of archived matches")
    p.add_argument("--archive-matches", type=int, default=0,
                   help="with --archive: finished matches played per game (default 6, quick 3)")
    p.add_argument("--versus", action="store_true",
                   help="instead: the production server against a peer already running (--peer) and an earlier build "
                        "(--baseline), one load generator at 1, 8 and 16 clients, phases interleaved: requests/s, "
                        "p50/p99, server CPU per request (docs/performance.md)")
    p.add_argument("--peer", metavar="URL", default="",
                   help="with --versus: a running boardgame.io server with the bench game (its note move)")
    p.add_argument("--baseline", metavar="DIR", default="",
                   help="with --versus: a checkout of an earlier build, served beside this one on the same Redis")
    p.add_argument("--rounds", type=int, default=3, help="with --versus: rounds of every phase (default 3)")
    p.add_argument("--kinds", default="", help="with --versus: phases, of note,commands,state (default all)")
    p.add_argument("--failover", action="store_true",
                   help="instead: a Redis primary with two replicas and three sentinels; the web server and a worker "
                        "with TURNSTREAM_MIN_REPLICAS=1 under load; the replicas paused, the primary's host lost, a "
                        "replica promoted: acknowledged, lost, refused while unreplicated, seconds to recover")
    p.add_argument("--replica-cost", action="store_true",
                   help="instead: commands/s and p50/p99 over HTTP with TURNSTREAM_MIN_REPLICAS 0 and 1 (a primary "
                        "and two replicas; --clients, --seconds, --web-workers)")
    p.set_defaults(func=cmd_bench)


class BenchRefused(RuntimeError):
    """The bench will not write into the database it was given."""


@contextlib.contextmanager
def bench_redis(appendfsync: str, url: str = "", allow_nonempty: bool = False):
    """(url, description) of the Redis given with --redis (refused when it holds keys, unless allowed), else of
    an embedded redis-server in a temporary directory. REDIS_URL is never read: it may name real data."""
    if url:
        # redis-py loads when the bench runs, not for the command line's --help
        import redis
        from redis.exceptions import RedisError
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
            keys = client.dbsize()
            client.close()
        except (RedisError, ValueError) as exc:
            raise BenchRefused(f"--redis {url}: {exc}") from None
        if keys and not allow_nonempty:
            raise BenchRefused(f"--redis {url} holds {keys} keys; the bench writes matches and users into the "
                               f"database it measures and leaves them there: give an empty database, or add "
                               f"--redis-allow-nonempty to write into this one on purpose")
        yield url, f"{url} (--redis; its own persistence settings)"
        return
    tmp = tempfile.mkdtemp(prefix="turnstream-bench-")
    try:
        server = EmbeddedRedis(tmp, appendfsync=appendfsync).start()
        try:
            yield server.url, f"embedded redis-server, AOF appendfsync {appendfsync}, data in {tmp}"
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cmd_bench(args) -> int:
    """Run the benchmark on an embedded Redis in a temporary directory, or on --redis URL (--bots: the bot
    levels; --http: the production web server)."""
    if args.bots:
        return bots.cmd_bench_bots(args)
    if args.failover or args.replica_cost:  # on a Redis group of their own
        from service.cli.bench import failover  # each benchmark loads the service: imported only when chosen
        return failover.cmd_failover(args)
    if args.versus:
        from service.cli.bench import versus  # (only when chosen, as above)
        measure, describe = versus.run_versus, versus.report
    elif args.archive:
        from service.cli.bench import archive  # (only when chosen)
        measure, describe = archive.run_archive_bench, archive.report_archive
    elif args.streams:
        from service.cli.bench import streams  # (only when chosen)
        measure, describe = streams.run_streams, streams.report
    elif args.http:
        from service.cli.bench import http  # (only when chosen)
        measure, describe = http.run_http, http.report
    else:
        from service.cli.bench import engine  # (only when chosen)
        measure, describe = engine.run, engine.report
    try:
        with bench_redis(args.appendfsync, args.redis, args.redis_allow_nonempty) as (url, note):
            figures = measure(args, url, note)
    except RuntimeError as exc:
        print(f"turnstream bench: {exc}", file=sys.stderr)
        return 2
    print(describe(figures), flush=True)
    if args.json:
        print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m service.cli.bench.command")
    add_commands(parser.add_subparsers(dest="command", required=True))
    parsed = parser.parse_args()
    sys.exit(parsed.func(parsed))
