"""`turnstream bench --archive`: Redis bytes of a finished match in its live and its archived form, per game (MEMORY
USAGE of every key of the match), bytes per event, the ratio, matches per GiB, and the time to open an archived
match's page and a replay from a cold process (nothing of it cached), p50/p99."""
from __future__ import annotations

import gc
import math
import os
import random
import statistics
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone

from domain.engine.timestamps import format_time
from projections.delivery import catch_up
from projections.log_trim import trim_logs
from projections.snapshots import SnapshotStore
from service import create_app
from service.app.archive import ARCHIVED, archive_match
from service.app.invitations import accept_for_all
from service.app.matches import MatchService, legal_for
from service.app.state_views import StateViews
from service.bootstrap import build
from service.cli.bench.common import percentile, progress
from service.config import Settings
from service.store.archive_codec import decode
from service.store.events import EventStore
from service.store.keys import Keys

GAMES = ("uchronia", "merchant-of-venus", "ti4-exploration", "origins")
GIB = 1024 ** 3
ACTIVE_AT = 100  # an active match is measured once it has this many events (a third to a half of a match)
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def playing_clock(rnd: random.Random):
    """A play-by-web clock: each reading moves on by 2 s to 6 h (log-uniform), as people move days apart."""
    now = [datetime(2026, 11, 1, tzinfo=timezone.utc)]

    def clock() -> str:
        now[0] += timedelta(milliseconds=round(math.exp(rnd.uniform(math.log(2_000), math.log(6 * 3_600_000)))))
        return format_time(now[0])
    return clock


def play_finished(w, game_id: str, players: list, rnd: random.Random, midway=None) -> str:
    """A match of `game_id` with its default options, played to its end by random legal commands sent as the page
    sends them (a random command id each); its id. `midway(match_id)` is called once, at ACTIVE_AT events."""
    service = MatchService(w.store, w.games, clock=playing_clock(rnd))
    game = w.games[game_id]
    match = accept_for_all(service, service.create(players[0], game_id, game.options_schema.load({}),
                                                   players=players))
    for _ in range(5000):
        match = service.load(match.id)
        if match.finished:
            return match.id
        if midway is not None and match.version >= ACTIVE_AT:
            midway(match.id)
            midway = None
        player = rnd.choice(sorted(match.active_players()))
        legal = legal_for(match, player)
        plain = [c for c in legal if c["type"] not in match.game.offer_commands] or legal
        command = rnd.choice(plain)
        page_id = "page-" + "".join(rnd.choice(BASE36) for _ in range(13))
        service.submit(player, match.id, command["type"], command["payload"], command_id=page_id)
    raise RuntimeError(f"a {game_id} match did not end within 5000 commands")


def match_bytes(w, match_id: str) -> dict:
    """{key kind: MEMORY USAGE} of every key of a match that exists (stream, meta, command table, secret, replay
    snapshots, summary row, archive record)."""
    keys = w.store.keys
    kinds = {"stream": keys.stream(match_id), "meta": keys.meta(match_id), "cmds": keys.cmds(match_id),
             "secret": keys.secret(match_id), "snapshots": keys.snapshot(match_id),
             "summary": keys.summary(match_id), "archive": keys.archive(match_id)}
    pipe = w.redis.pipeline(transaction=False)
    for key in kinds.values():
        pipe.memory_usage(key, samples=0)
    return {kind: used for kind, used in zip(kinds, pipe.execute()) if used}


def active_bytes(w, match_id: str) -> dict:
    """match_bytes of a match being played, projected first (its row and snapshots, as a worker keeps them)."""
    catch_up(w.projector, w.store.keys.partition(match_id))
    return match_bytes(w, match_id)


def user_bytes(w, user_ids: list) -> dict:
    """Mean MEMORY USAGE per user, by kind: the record (with its token's hash), its share of the name index, its
    match index and inbox, its rating keys; and how many matches its index lists."""
    keys, kinds = w.store.keys, {"record": [], "name index": [], "match index": [], "inbox": [], "ratings": [],
                                 "other": []}
    names = w.redis.memory_usage(keys.user_names(), samples=0) or 0
    listed = []
    for uid in user_ids:
        found = {kind: 0 for kind in kinds}
        found["name index"] = names / max(1, w.redis.zcard(keys.user_names()))
        for key in w.redis.scan_iter(match=f"*{uid}*", count=1000):
            kind = ("record" if key == keys.user(uid) else "match index" if key == keys.player_index(uid)
                    else "inbox" if key == keys.inbox(uid) else "ratings" if key.startswith(Keys.ratings_prefix())
                    else "other")
            found[kind] += w.redis.memory_usage(key, samples=0) or 0
        for kind, used in found.items():
            kinds[kind].append(used)
        listed.append(w.redis.zcard(keys.player_index(uid)))
    out = {kind: round(statistics.mean(v)) for kind, v in kinds.items() if any(v)}
    return {"bytes": out, "total": sum(out.values()), "matches_listed": round(statistics.mean(listed), 1)}


SHARED = {"partition logs": (Keys.LOG_PATTERN,), "change feeds": (Keys.CHANGES_PATTERN,),
          "indexes and inboxes": Keys.INDEX_PATTERNS}


def shared_bytes(w) -> dict:
    """{structure: MEMORY USAGE} of what matches share: the partition logs (one entry per append, never trimmed:
    a rebuild replays them), the change feeds (capped), the indexes and inboxes."""
    total = {}
    for name, patterns in SHARED.items():
        total[name] = sum(w.redis.memory_usage(key, samples=0) or 0 for pattern in patterns
                          for key in w.redis.scan_iter(match=pattern, count=1000))
    return total


def cold_views(w):
    """The wiring as a process that has cached nothing sees it: a fresh event store (no decoded records), match
    cache, snapshot store and state views, on the same Redis."""
    store = EventStore(w.redis, w.settings.partitions)
    snapshots = SnapshotStore(w.redis, store.keys, w.settings.snapshot_every, w.games, store.read_range)
    matches = MatchService(store, w.games, cache_size=w.settings.cache_size, snapshots=snapshots)
    return {"store": store, "matches": matches, "state_views": StateViews(matches)}


def time_cold(w, app, match_ids: list, samples: int, rnd: random.Random) -> dict:
    """Milliseconds to open a match's page and to replay it at a random version, each from a cold process (the
    wiring's caches replaced by fresh ones before every request): p50, p99, max of the wall time, and p50, p99
    of the CPU time the request took (what it costs apart from waiting for a core on a busy machine). One
    untimed request of each kind first (the game's rules version and the templates loaded, as in a process that
    has served anything), and the garbage collector frozen as the service's processes freeze it
    (service/server/gc_policy.py)."""
    client = app.test_client()
    timed: dict = {"page": ([], []), "replay": ([], [])}
    for i in range(-1, samples):
        match_id = match_ids[i % len(match_ids)]
        head = w.store.version(match_id)
        for path, kind in ((f"/matches/{match_id}", "page"),
                           (f"/api/matches/{match_id}/replay?version={rnd.randint(0, head)}", "replay")):
            for name, value in cold_views(w).items():
                setattr(w, name, value)
            if i < 0:
                gc.collect()
                gc.freeze()
            began, cpu = time.perf_counter(), time.thread_time()
            resp = client.get(path)
            if i >= 0:
                timed[kind][0].append((time.perf_counter() - began) * 1000)
                timed[kind][1].append((time.thread_time() - cpu) * 1000)
            if resp.status_code != 200:
                raise RuntimeError(f"GET {path}: HTTP {resp.status_code}")
    gc.unfreeze()
    return {kind: {"p50_ms": round(percentile(wall, 0.5), 2), "p99_ms": round(percentile(wall, 0.99), 2),
                   "max_ms": round(max(wall), 2), "cpu_p50_ms": round(percentile(cpu, 0.5), 2),
                   "cpu_p99_ms": round(percentile(cpu, 0.99), 2), "samples": len(wall)}
            for kind, (wall, cpu) in timed.items()}


def run_archive_bench(args, url: str, note: str) -> dict:
    """Play finished matches of every game on the bench's Redis, project them, measure their keys, archive them,
    measure again and time cold opens; the figures."""

    count = args.archive_matches or (3 if args.quick else 6)
    samples = 20 if args.quick else 60
    settings = Settings(redis_url=url, rate_limit_per_minute=10 ** 9)
    w = build(settings)
    rnd = random.Random(20261101)
    progress(f"redis: {note}")
    people = [w.users.create(f"archive{i}")["id"] for i in range(6)]
    made: dict = {}
    active: dict = {}
    for game_id in GAMES:
        game = w.games[game_id]
        progress(f"{game_id}: playing {count} matches to their end (default options, random legal commands)")
        active[game_id] = []
        made[game_id] = [play_finished(w, game_id, people[:game.min_players + n % 2], rnd,
                                       lambda mid, g=game_id: active[g].append(active_bytes(w, mid)))
                         for n in range(count)]
    for p in range(w.store.keys.partitions):
        catch_up(w.projector, p)  # summary rows, indexes, replay snapshots: the live form as a worker leaves it
    matches = sum(len(ids) for ids in made.values())
    shared_live = shared_bytes(w)
    app = create_app(wiring=replace(w))
    cold_app_wiring = app.extensions["turnstream"]
    figures: dict = {"redis": note, "matches_per_game": count, "games": {}}
    for game_id, ids in made.items():
        progress(f"{game_id}: measuring, archiving, timing cold opens")
        live_cold = time_cold(cold_app_wiring, app, ids, max(10, samples // 3), rnd)
        rows = []
        for match_id in ids:
            events = w.store.version(match_id)
            live = match_bytes(w, match_id)
            outcome = archive_match(w.store, match_id, 0)
            if outcome["status"] != ARCHIVED:
                raise RuntimeError(f"{match_id} not archived: {outcome}")
            archived = match_bytes(w, match_id)
            record = w.store.archive_read_back(match_id)
            decoding = []
            for _ in range(3):
                began = time.perf_counter()
                decode(record)
                decoding.append((time.perf_counter() - began) * 1000)
            rows.append({"decode_ms": min(decoding), "events": events, "live": live, "archived": archived,
                         "live_total": sum(live.values()), "archived_total": sum(archived.values()),
                         "live_without_cmds": sum(v for k, v in live.items() if k != "cmds"),
                         "record": outcome["record_bytes"]})
        cold = time_cold(cold_app_wiring, app, ids, samples, rnd)
        figures["games"][game_id] = game_figures(rows, cold, live_cold)
        figures["games"][game_id]["active"] = {k: round(statistics.mean(a.get(k, 0) for a in active[game_id]))
                                               for k in sorted({k for a in active[game_id] for k in a})}
    figures["users"] = user_bytes(w, people)
    shared_archived = shared_bytes(w)
    for p in range(w.store.keys.partitions):
        catch_up(w.projector, p)
    # as the worker leaves them in a day
    trim_logs(w.redis, w.store.keys, 0, now_ms=int(time.time() * 1000) + 3_600_000, exact=True)
    figures["shared_bytes_per_match"] = {
        "live": {k: round(v / matches) for k, v in shared_live.items()},
        "archived": {k: round(v / matches) for k, v in shared_archived.items()},
        "trimmed_total": shared_bytes(w)}
    figures["load_average"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return figures


def game_figures(rows: list, cold: dict, live_cold: dict) -> dict:
    """One game's figures from its matches' rows."""
    live = [r["live_total"] for r in rows]
    bare = [r["live_without_cmds"] for r in rows]  # as if no client sent command ids: the smaller live form
    archived = [r["archived_total"] for r in rows]
    events = [r["events"] for r in rows]
    ratios = [a / b for a, b in zip(archived, bare)]
    per_event = [a / e for a, e in zip(archived, events)]
    kinds = sorted({k for r in rows for k in r["live"]} | {k for r in rows for k in r["archived"]})
    return {
        "matches": len(rows), "events": {"mean": round(statistics.mean(events)), "min": min(events), "max": max(events)},
        "live_bytes": {"mean": round(statistics.mean(live)), "min": min(live), "max": max(live)},
        "archived_bytes": {"mean": round(statistics.mean(archived)), "min": min(archived), "max": max(archived)},
        "live_bytes_without_cmds": {"mean": round(statistics.mean(bare)), "min": min(bare), "max": max(bare)},
        "live_bytes_per_event": round(sum(live) / sum(events), 1),
        "live_bytes_per_event_without_cmds": round(sum(bare) / sum(events), 1),
        "archived_bytes_per_event": {"mean": round(sum(archived) / sum(events), 1), "max": round(max(per_event), 1)},
        "record_bytes_per_event": round(sum(r["record"] for r in rows) / sum(events), 1),
        "decode_us_per_event": round(1000 * sum(r["decode_ms"] for r in rows) / sum(events), 2),
        "ratio": {"mean": round(sum(archived) / sum(bare), 4), "max": round(max(ratios), 4),
                  "with_cmds": round(sum(archived) / sum(live), 4)},
        "keys_live": {k: round(statistics.mean(r["live"].get(k, 0) for r in rows)) for k in kinds
                      if any(k in r["live"] for r in rows)},
        "keys_archived": {k: round(statistics.mean(r["archived"].get(k, 0) for r in rows)) for k in kinds
                          if any(k in r["archived"] for r in rows)},
        "matches_per_gib": {"live": int(GIB / statistics.mean(live)), "live_without_cmds": int(GIB / statistics.mean(bare)),
                            "archived": int(GIB / statistics.mean(archived))},
        "cold_archived": cold, "cold_live": live_cold,
    }


TARGET_RATIO = 0.08
TARGET_PER_EVENT = 33
TARGET_REPLAY_P99_MS = 30.0


def report_archive(figures: dict) -> str:
    """The figures as readable lines, one block per game, and the targets."""
    lines = [f"redis: {figures['redis']}", f"{figures['matches_per_game']} finished matches per game, default "
             f"options, random legal play; every key of a match (MEMORY USAGE SAMPLES 0); load average "
             f"{figures['load_average']}"]
    ok = True
    for game_id, g in figures["games"].items():
        cold, live_cold = g["cold_archived"], g["cold_live"]
        lines += [
            f"{game_id}: {g['events']['mean']} events ({g['events']['min']}-{g['events']['max']})",
            f"  live:      {g['live_bytes']['mean']:,} bytes per match ({g['live_bytes_per_event']:.0f} per event; "
            f"{g['live_bytes_without_cmds']['mean']:,}, {g['live_bytes_per_event_without_cmds']:.0f} per event, "
            f"without the command table): " + ", ".join(f"{k} {v:,}" for k, v in g["keys_live"].items()),
            f"  archived:  {g['archived_bytes']['mean']:,} bytes per match ({g['archived_bytes_per_event']['mean']:.1f} "
            f"per event, worst {g['archived_bytes_per_event']['max']:.1f}; the record alone "
            f"{g['record_bytes_per_event']:.1f}): " + ", ".join(f"{k} {v:,}" for k, v in g["keys_archived"].items()),
            f"  ratio:     {g['ratio']['mean']:.1%} of the live bytes without the command table (worst match "
            f"{g['ratio']['max']:.1%}; {g['ratio']['with_cmds']:.1%} of all); per GiB "
            f"{g['matches_per_gib']['live']:,} live ({g['matches_per_gib']['live_without_cmds']:,} without command "
            f"tables) or {g['matches_per_gib']['archived']:,} archived matches",
            f"  cold open: archived page p50 {cold['page']['p50_ms']:.1f} / p99 {cold['page']['p99_ms']:.1f} ms "
            f"(CPU {cold['page']['cpu_p50_ms']:.1f} / {cold['page']['cpu_p99_ms']:.1f}), "
            f"replay p50 {cold['replay']['p50_ms']:.1f} / p99 {cold['replay']['p99_ms']:.1f} ms "
            f"(CPU {cold['replay']['cpu_p50_ms']:.1f} / {cold['replay']['cpu_p99_ms']:.1f}) "
            f"(live form: page p99 {live_cold['page']['p99_ms']:.1f}, replay p99 {live_cold['replay']['p99_ms']:.1f} ms); "
            f"decoding a record: {g['decode_us_per_event']:.1f} us per event",
            f"  active:    {sum(g['active'].values()):,} bytes per match being played, at {ACTIVE_AT} events: "
            + ", ".join(f"{k} {v:,}" for k, v in g["active"].items()),
        ]
        ok = ok and g["ratio"]["max"] <= TARGET_RATIO and g["archived_bytes_per_event"]["max"] <= TARGET_PER_EVENT \
            and cold["replay"]["p99_ms"] <= TARGET_REPLAY_P99_MS
    shared, trimmed = figures["shared_bytes_per_match"]["archived"], figures["shared_bytes_per_match"]["trimmed_total"]
    lines.append("shared structures, per match (not a match's keys; the same live and archived): "
                 + ", ".join(f"{k} {v:,} bytes" for k, v in shared.items())
                 + f"; the partition logs once trimmed (TURNSTREAM_LOG_KEEP_HOURS later): {trimmed['partition logs']:,} "
                 f"bytes in all, whatever the number of matches")
    users = figures["users"]
    lines.append(f"users: {users['total']:,} bytes per user listing {users['matches_listed']} matches: "
                 + ", ".join(f"{k} {v:,}" for k, v in users["bytes"].items()))
    lines.append(f"targets (archived <= {TARGET_RATIO:.0%} of live and <= {TARGET_PER_EVENT} bytes per event in every "
                 f"match, archived replay p99 <= {TARGET_REPLAY_P99_MS:.0f} ms cold): {'met' if ok else 'NOT met'}")
    return "\n".join(lines)
