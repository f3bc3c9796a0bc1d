"""The `turnstream` command line: up, web, worker, projections rebuild, replay, audit, export, bench."""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from service import logs
from service.cli import archive as archive_cli, game as game_cli, history as history_cli
from service.cli import rules as rules_cli, upgrade as upgrade_cli
from service.cli.bench import command as bench
from service.config import ConfigError, from_env
from service.logs import say
from service.server.embedded_redis import EmbeddedRedis
from service.server.supervisor import Supervisor, python_child
from service.server.web_command import port_problem, web_command
from service.store.queues import DELIVERIES, MAIN


def _settings():
    return from_env()


EX_CONFIG = 78  # sysexits.h: the settings cannot work (`up` stops instead of restarting such a child)


def _refuse(command: str, problem: str) -> int:
    """Say why a command cannot run as configured, in one line; the exit status for it."""
    print(f"turnstream {command}: {problem}", file=sys.stderr)
    return EX_CONFIG


def cmd_web(args) -> int:
    """Serve the web app as production does: gunicorn with gevent workers (service/server/gunicorn_conf.py)."""
    from service.store.connections import check_topology  # redis-py loads when the command runs, not for --help
    busy = port_problem(args.host, args.port)
    if busy:
        return _refuse("web", busy)
    check_topology(_settings())
    cmd = web_command(args.host, args.port, args.workers)
    say(f"turnstream web: http://{args.host}:{args.port} (gunicorn, gevent workers)")
    os.execv(cmd[0], cmd)  # gunicorn takes over this process: signals reach its arbiter directly
    return 0


def cmd_worker(args) -> int:
    """Run an RQ worker on the given queues (default: projections, turn deadlines and bot turns)."""
    # the service loads when the command runs, not for the command line's --help
    from workers.runner import run_worker
    from service.store.connections import Misconfigured
    queues = tuple(q.strip() for q in args.queues.split(",") if q.strip())
    say(f"turnstream worker: processing queues {', '.join(queues)}")
    try:
        run_worker(_settings(), burst=args.burst, queues=queues, health_host=args.health_host,
                   health_port=args.health_port)
    except Misconfigured as exc:  # not an outage: waiting would loop for ever
        return _refuse("worker", str(exc))
    return 0


def up_children(args, env: dict) -> list:
    """The processes `turnstream up` runs: the web server, the main worker and the deliveries worker."""
    return [
        python_child("web", ["web", "--host", args.host, "--port", str(args.port)]
                     + (["--workers", str(args.workers)] if args.workers else []), env),
        python_child("worker", ["worker"], env),
        python_child("deliveries worker", ["worker", "--queues", ",".join(DELIVERIES)], env),
    ]


def up_mail(env: dict, data: Path) -> str:
    """Where `turnstream up`'s mails go: the SMTP server, or .eml files in the data folder's mail/ (set in `env`)."""
    if env.get("TURNSTREAM_SMTP_URL"):
        from service.app.mail.transport import parse_smtp_url  # smtplib and ssl load when `up` runs, not for --help
        target = parse_smtp_url(env["TURNSTREAM_SMTP_URL"])
        return f"sent through {'smtps' if target.tls else 'smtp'}://{target.host}:{target.port}"
    env.setdefault("TURNSTREAM_MAIL_DIR", str(data / "mail"))
    return f"no TURNSTREAM_SMTP_URL: each mail is written as an .eml file in {env['TURNSTREAM_MAIL_DIR']}"


def cmd_up(args) -> int:
    """Everything on one machine: Redis (embedded unless REDIS_URL or REDIS_SENTINELS is set), the web server and the
    workers, each restarted with backoff if it crashes; Ctrl-C stops everything."""
    from service.store.connections import check_topology, sentinels_shown, shown_url  # (redis-py: as in cmd_web)
    env = dict(os.environ)
    named = [name for name in REDIS_NAMED if env.get(name)]
    if args.replicas and named:
        return _refuse("up", "--replicas runs its own Redis primary, replicas and sentinels: unset "
                             + " and ".join(named))
    busy = port_problem(args.host, args.port)
    if busy:  # before anything starts: nothing to restart for ever, no other server's address printed
        return _refuse("up", busy)
    if args.replicas:
        return up_replicated(args, env)
    redis = None
    if not env.get("REDIS_URL") and not env.get("REDIS_SENTINELS"):
        data = Path(args.data).resolve()
        try:
            redis = EmbeddedRedis(data).start()
        except RuntimeError as exc:
            print(f"turnstream up: {exc}", file=sys.stderr)
            return 2
        env["REDIS_URL"] = redis.url
        say(f"redis: embedded at {redis.url} (AOF appendfsync always, data in {data})")
    else:
        settings = _settings()
        check_topology(settings, queues=True)
        say(f"redis: the primary {settings.redis_sentinel_master!r} through the sentinels {sentinels_shown(settings)}"
            if settings.redis_sentinels else f"redis: {shown_url(env['REDIS_URL'])}")
    return up_supervised(args, env, lambda children, **kw: Supervisor(children, redis=redis, **kw))


REDIS_NAMED = ("REDIS_URL", "REDIS_SENTINELS", "REDIS_CLUSTER")  # a Redis of the operator's: `up --replicas` refuses


def up_replicated(args, env: dict) -> int:
    """`up --replicas N`: the embedded primary, N replicas and three sentinels, and the service through them."""
    # the group's module loads redis-py: for `up --replicas` only, not for --help
    from service.server.embedded_group import GroupSupervisor, embedded_group, listening, started
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stopped while starting: nothing left behind
    try:
        group = started(embedded_group(args.data, args.replicas))
    except RuntimeError as exc:
        print(f"turnstream up: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        say("turnstream up: stopped while Redis was starting")
        return 130
    for line in listening(group):
        say(f"redis: {line}")
    env.update(REDIS_SENTINELS=group.sentinels_setting, REDIS_SENTINEL_MASTER=group.master)
    env.setdefault("TURNSTREAM_MIN_REPLICAS", "1")
    say(f"redis: the service finds the primary {group.master!r} through REDIS_SENTINELS={group.sentinels_setting}"
        f" and answers a change once TURNSTREAM_MIN_REPLICAS={env['TURNSTREAM_MIN_REPLICAS']} replica(s) hold it")
    return up_supervised(args, env, lambda children, **kw: GroupSupervisor(children, group, **kw))


def up_supervised(args, env: dict, supervisor) -> int:
    """Run `up`'s children under `supervisor(children, ready=..., ready_message=...)` until Ctrl-C or SIGTERM."""
    env.setdefault("TURNSTREAM_PUBLIC_URL", f"http://{args.host}:{args.port}")
    print(f"mail: {up_mail(env, Path(args.data).resolve())}", flush=True)
    url = f"http://{args.host}:{args.port}/"
    return supervisor(up_children(args, env), ready=lambda: web_answers(url),
                      ready_message=f"turnstream is up: open {url}  (Ctrl-C stops everything)").run()


def web_answers(url: str) -> bool:
    """True once the web server answers at `url` (its liveness path), whatever the status."""
    # urllib's request machinery loads for `up` only
    import urllib.error
    import urllib.request
    probe = url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:") + "livez"
    try:
        with urllib.request.urlopen(probe, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def cmd_rebuild(args) -> int:
    """Rebuild every read model from zero beside the live ones, with the followers paused, then switch them in."""
    # the service loads when the command runs, not for the command line's --help
    from projections.rebuild import RebuildRefused, rebuild_projections
    from service.bootstrap import build
    from service.store.connections import check_topology
    check_topology(_settings())  # a cluster node without REDIS_CLUSTER=1: said before anything is dropped
    try:
        rebuild_projections(build().projector, say)
    except RebuildRefused as exc:
        say(f"turnstream projections rebuild: refused: {exc}")
        return 1
    return 0


def _at_least_one(raw: str) -> int:
    """--replicas: a whole number, 1 or more."""
    if not raw.strip().isdigit() or int(raw) < 1:
        raise argparse.ArgumentTypeError(f"a whole number, 1 or more, not {raw!r}")
    return int(raw)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="turnstream",
        description="Event-sourced, turn-based board games for play-by-web matches. "
                    "Environment: REDIS_URL (events and read models), REDIS_CLUSTER=1, RQ_REDIS_URL (queues).")
    parser.add_argument("-v", "--verbose", action="store_true", help="log at INFO level")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    up = sub.add_parser("up", help="run everything on this machine (embedded Redis unless REDIS_URL is set)",
                        description="Run Redis (embedded, with its data in --data, unless REDIS_URL is set), "
                                    "the web server (gunicorn with gevent workers, as in production), the "
                                    "worker and the webhook deliveries worker. A process "
                                    "that crashes is restarted with backoff, and the console says so. "
                                    "With --replicas N, N Redis replicas and three Sentinels run beside the "
                                    "embedded primary, each listed with its address. "
                                    "Ctrl-C stops everything.")
    up.add_argument("--port", type=int, default=8000, help="web port (default 8000)")
    up.add_argument("--host", default="127.0.0.1", help="web host (default 127.0.0.1)")
    up.add_argument("--data", default="./var", help="embedded Redis data directory (default ./var)")
    up.add_argument("--workers", type=int, default=None, help="web processes (default: WEB_CONCURRENCY or 2)")
    up.add_argument("--replicas", type=_at_least_one, default=0, metavar="N",
                    help="also run N replicas of the embedded Redis and three Redis Sentinels on this machine, the "
                         "service finding the primary through them (REDIS_SENTINELS) and answering a change once a "
                         "replica holds it (TURNSTREAM_MIN_REPLICAS=1): the layout of docs/operations.md's "
                         "\"Replicas and failover\", to try before deploying it. Each server keeps its data in a "
                         "folder of --data. Not with REDIS_URL or REDIS_SENTINELS")
    up.set_defaults(func=cmd_up)

    web = sub.add_parser("web", help="run the web server alone: gunicorn with gevent workers, configured by "
                                     "service/server/gunicorn_conf.py exactly as the Procfile and `up` run it",
                         description="Run the production web server: gunicorn with gevent workers (one greenlet "
                                     "per connection, so open live-update streams cost no thread), configured "
                                     "by service/server/gunicorn_conf.py, the file the Procfile and `turnstream up` use. "
                                     "There is no separate development server.")
    web.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    web.add_argument("--host", default="127.0.0.1", help="host (default 127.0.0.1)")
    web.add_argument("--workers", type=int, default=None, help="web processes (default: WEB_CONCURRENCY or 2)")
    web.set_defaults(func=cmd_web)

    worker = sub.add_parser("worker", help="run a worker: projections, deadlines, bots (webhooks with --queues)",
                            description="Run a worker. With the projections role (the default) it follows the "
                                        "partition logs in a thread and projects each batch as it is appended; "
                                        "several workers share the partitions by lease. The RQ queues it serves "
                                        "run turn deadlines, bot turns and (with --queues notifications) webhook "
                                        "deliveries. It rides out a Redis restart (reconnects with backoff). Run "
                                        "one with the default queues and one with --queues notifications, so a "
                                        "slow webhook receiver never delays projections or turn deadlines (the "
                                        "Procfile and `up` do).")
    worker.add_argument("--burst", action="store_true", help="drain the queues and exit")
    worker.add_argument("--health-port", type=int, default=None, metavar="PORT",
                        help="answer GET /livez, /readyz and /metrics (Prometheus) on this port (default: off; "
                             "0: any free port, logged)")
    worker.add_argument("--health-host", default="127.0.0.1", metavar="HOST",
                        help="the address of --health-port (default 127.0.0.1)")
    worker.add_argument("--queues", default=",".join(MAIN),
                        help=f"comma-separated queues to serve, in priority order (default: {','.join(MAIN)};"
                             " webhook deliveries: notifications)")
    worker.set_defaults(func=cmd_worker)

    proj = sub.add_parser("projections", help="manage read models")
    proj_sub = proj.add_subparsers(dest="action", required=True, metavar="ACTION")
    rebuild = proj_sub.add_parser("rebuild", help="rebuild every read model from the event streams (running "
                                  "workers pause their projections meanwhile and resume after)")
    rebuild.set_defaults(func=cmd_rebuild)

    history_cli.add_commands(sub)
    rules_cli.add_commands(sub)
    upgrade_cli.add_commands(sub)
    archive_cli.add_commands(sub)
    game_cli.add_commands(sub)
    bench.add_commands(sub)
    return parser


def load_env_file(path: str = ".env") -> None:
    """Settings from ./.env as the Procfile's runner (honcho) reads them; the process environment wins."""
    from dotenv import load_dotenv  # read when a command runs, not for --help
    load_dotenv(Path(path), override=False)


def main(argv=None) -> int:
    """Entry point of the `turnstream` console script. A setting that cannot work, or a Redis that cannot be
    used, is one line on standard error, never a traceback."""
    args = build_parser().parse_args(argv)
    load_env_file()
    # redis-py loads once a command runs, not for --help
    from redis.exceptions import RedisError

    from service.store.connections import Misconfigured, redis_problem
    try:
        settings = _settings()
    except ConfigError as exc:
        return _refuse(args.command, str(exc))
    logs.configure(settings, verbose=args.verbose)
    try:
        return args.func(args) or 0
    except Misconfigured as exc:
        return _refuse(args.command, str(exc))
    except RedisError as exc:
        print(f"turnstream {args.command}: {redis_problem(exc, settings)}", file=sys.stderr)
        return 2


