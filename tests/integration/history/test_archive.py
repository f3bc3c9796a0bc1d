"""Archived matches on the test Redis: every read answers byte for byte what it answered before archiving, in all
four games (state, replay at several versions, events for a spectator and a player, audit, export, the pages,
upgrade-check, a projection rebuild), from the process that cached the match and from a cold one; a run stopped
after any step leaves the match readable and a second run completes; a second run changes nothing; chat closes."""
from __future__ import annotations

import random
import re

import pytest

from service.app.archive import ALREADY, ARCHIVED, STEPS, archive_match
from service.app.backup import backup_match
from service.app.history import History
from service.cli import main as cli_main
from service.cli.golden import SHORT_OPTIONS, play_one
from service.cli.upgrade import stored_matches
from tests.conftest import drain_projections
from tests.invites import create_started
from tests.integration.history.archives import client_of, cold, finished_match

GAMES = ("uchronia", "merchant-of-venus", "ti4-exploration", "origins")
CSRF_VALUE = re.compile(r'((?:name="csrf"|csrf-token") (?:value|content)=")[^"]*"')


class Stop(Exception):
    """A run of the archiver stopped after a step (what a kill -9 there leaves)."""


def answers(w, mid: str, viewers: dict) -> dict:
    """Everything the service answers about a match, as bytes: for each viewer (None: a spectator) the summary,
    state, events, replays at several versions, disputes and move log; the audit, exports, pages, upgrade-check."""
    client = client_of(w)
    head = w.store.version(mid)
    out = {}
    for name, headers in viewers.items():
        h = headers or {}
        summary = client.get(f"/api/matches/{mid}", headers=h).get_json()
        summary.pop("archived")
        out[f"summary/{name}"] = summary
        for path in ("state", "events?after=0", f"events?after={head // 2}", "disputes", "audit"):
            resp = client.get(f"/api/matches/{mid}/{path}", headers=h)
            assert resp.status_code == 200, (path, resp.get_json())
            out[f"{path}/{name}"] = (resp.get_data(), resp.headers.get("ETag"))
        for v in sorted({0, 1, 3, 24, 25, 26, head // 2, head - 1, head}):
            resp = client.get(f"/api/matches/{mid}/replay?version={v}", headers=h)
            out[f"replay/{v}/{name}"] = resp.get_data()
    history = History.from_wiring(w)
    out["export"] = history.export(mid)
    out["backup"] = backup_match(history, mid)
    out["move_log"] = history.move_log(mid)
    out["page export"] = client.get(f"/matches/{mid}/export").get_data()
    for page in (f"/matches/{mid}", f"/matches/{mid}/audit", f"/matches/{mid}/board?version={head // 2}"):
        out[page] = CSRF_VALUE.sub(r'\1"', client.get(page).get_data(as_text=True))
    out["upgrade-check"] = list(stored_matches(w.store, [mid]))
    out["row"] = w.redis.get(w.store.keys.summary(mid))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_read_is_the_same_after_archiving(w, people, game_id):
    """Before and after archiving (in the process that cached the match, and in a cold one), every answer is the
    same bytes; /api/matches/<id> says archived; the match's keys are its meta, its row and its record."""
    ids, headers = people
    mid = finished_match(w, game_id, ids, f"archive:{game_id}")
    viewers = {"spectator": None, "player": headers[ids[0]]}
    # a process that folded the match as it was played answers with the key order the code built (a result's,
    # an event's); one that read it from Redis with the stored order: each is compared with itself
    before, before_cold = answers(w, mid, viewers), answers(cold(w, snapshots=False), mid, viewers)
    keys = w.store.keys
    assert w.redis.exists(keys.snapshot(mid))  # replays above started from snapshots
    assert client_of(w).get(f"/api/matches/{mid}").get_json()["archived"] is False
    outcome = archive_match(w.store, mid, 0)
    assert outcome["status"] == ARCHIVED and outcome["record_bytes"] < 0.1 * outcome["live_bytes"]
    assert not w.redis.exists(keys.stream(mid), keys.cmds(mid), keys.secret(mid), keys.snapshot(mid))
    warm = answers(w, mid, viewers)
    assert warm == before
    fresh = cold(w)
    assert answers(fresh, mid, viewers) == before_cold
    assert client_of(fresh).get(f"/api/matches/{mid}").get_json()["archived"] is True
    assert client_of(w).get(f"/api/matches/{mid}").get_json()["archived"] is True


@pytest.mark.parametrize("game_id", GAMES)
def test_a_cold_replay_of_an_archived_match_folds_once_and_answers_the_same(w, people, game_id):
    """A replay at any version from a process that has folded nothing of an archived match (its short path: the
    record folded up to that version only) answers what the live match answered, to a player and a spectator."""
    ids, headers = people
    mid = finished_match(w, game_id, ids, f"cold-replay:{game_id}")
    head = w.store.version(mid)
    versions = sorted({0, 1, 2, head // 3, head // 2, head - 1, head})
    viewers = {"spectator": None, "player": headers[ids[0]]}

    def replays(archived: bool):
        out = {}
        for v in versions:
            for name, h in viewers.items():
                process = cold(w, snapshots=False)  # nothing of the match folded in this process yet
                out[(v, name)] = client_of(process).get(f"/api/matches/{mid}/replay?version={v}", headers=h or {})
                if archived and v != head:
                    assert process.matches.cache.get(mid) is None, "the short path was not taken"
        return {k: (r.status_code, r.get_json()) for k, r in out.items()}

    before = replays(archived=False)
    assert archive_match(w.store, mid, 0)["status"] == ARCHIVED
    assert replays(archived=True) == before
    beyond = client_of(cold(w)).get(f"/api/matches/{mid}/replay?version={head + 1}")
    assert beyond.status_code == 400 and beyond.get_json()["error"]["code"] == "version_out_of_range"


def test_chat_and_rematch_are_refused_once_archived(w, people):
    """Nothing is appended to an archived match: chat (allowed after the end until then) and a rematch offer are
    a 409 match_archived, from a warm process and a cold one; the match is unchanged."""
    ids, headers = people
    mid = finished_match(w, "ti4-exploration", ids, "chat")
    client = client_of(w)
    assert client.post(f"/api/matches/{mid}/chat", json={"text": "still here"}, headers=headers[ids[0]]).status_code == 201
    head = w.store.version(mid)
    assert archive_match(w.store, mid, 0)["status"] == ARCHIVED
    for c in (client, client_of(cold(w))):
        for path, body in (("chat", {"text": "hello?"}), ("rematch", None)):
            resp = c.post(f"/api/matches/{mid}/{path}", json=body, headers=headers[ids[1]])
            assert resp.status_code == 409, resp.get_json()
            assert resp.get_json()["error"]["code"] == "match_archived"
    assert w.store.version(mid) == head and cold(w).matches.load(mid).version == head


@pytest.mark.parametrize("stop_after", STEPS)
def test_a_run_stopped_after_any_step_leaves_the_match_readable_and_a_second_run_completes(w, people, stop_after):
    """A run stopped after each step (what a kill -9 there leaves: the stream stays until the switch, which is one
    script) reads the same; the next run archives the match; reads still the same."""
    ids, headers = people
    mid = finished_match(w, "origins", ids, "crash")
    viewers = {"spectator": None, "player": headers[ids[1]]}
    before, before_cold = answers(w, mid, viewers), answers(cold(w, snapshots=False), mid, viewers)

    def step(name):
        if name == stop_after:
            raise Stop(name)

    with pytest.raises(Stop):
        archive_match(w.store, mid, 0, step=step)
    assert answers(cold(w, snapshots=False), mid, viewers) == before_cold
    second = archive_match(w.store, mid, 0)
    assert second["status"] == (ALREADY if stop_after == "switched" else ARCHIVED)
    assert answers(cold(w), mid, viewers) == before_cold and answers(w, mid, viewers) == before


def match_keys(w, mid: str) -> dict:
    """Every key of a match and its value (DUMP), the archive record included."""
    found = {}
    p = w.store.keys.partition(mid)
    for key in w.redis.scan_iter(match=f"ts:{{p{p:02d}}}:*{mid}*"):
        found[key] = w.redis.execute_command("DUMP", key, NEVER_DECODE=[])
    return found


def test_archiving_twice_changes_nothing_and_the_command_counts(w, people, capsys, monkeypatch):
    """`turnstream archive` archives what is due; run again it changes no key; --older-than leaves younger ones."""
    monkeypatch.setenv("REDIS_URL", w.settings.redis_url)
    ids, _headers = people
    done = [finished_match(w, game_id, ids, f"twice:{game_id}") for game_id in ("uchronia", "origins")]
    assert cli_main(["archive", "--older-than", "48"]) == 0
    assert "archived 0 matches" in capsys.readouterr().out
    assert cli_main(["archive", "--older-than", "0"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("archived 2 matches") and "0 failed" in line
    keys = {mid: match_keys(w, mid) for mid in done}
    assert cli_main(["archive", "--older-than", "0"]) == 0
    assert "archived 0 matches" in capsys.readouterr().out
    assert archive_match(w.store, done[0], 0)["status"] == ALREADY
    assert {mid: match_keys(w, mid) for mid in done} == keys


def test_a_projection_rebuild_reads_archived_matches_and_writes_them_no_snapshots(w, people):
    """Rebuilding every read model from the logs folds archived matches from their records: the same rows, and no
    replay snapshot comes back."""
    from projections.rebuild import rebuild_projections
    ids, _ = people
    mid = finished_match(w, "merchant-of-venus", ids, "rebuild")
    # rows as folded from the stored events (their key order)
    rebuild_projections(cold(w).projector, say=lambda *_: None)
    row = w.redis.get(w.store.keys.summary(mid))
    lists = client_of(w).get(f"/api/matches?player={ids[0]}").get_data()
    assert archive_match(w.store, mid, 0)["status"] == ARCHIVED
    fresh = cold(w)
    rebuild_projections(fresh.projector, say=lambda *_: None)
    assert w.redis.get(w.store.keys.summary(mid)) == row
    assert client_of(fresh).get(f"/api/matches?player={ids[0]}").get_data() == lists
    assert not w.redis.exists(w.store.keys.snapshot(mid))


def test_the_worker_sweep_archives_due_matches_once(w, people):
    """The reconciler's check enqueues the sweep when a finished match is due; the job archives it, moves its
    cursor and finds nothing due afterwards."""
    from dataclasses import replace

    from workers import archiving, context
    from workers.queues import queue
    ids, _ = people
    mid = finished_match(w, "ti4-exploration", ids, "sweep")
    context.use(w)
    assert archiving.due_count(w.redis, w.store.keys, 24) == 0  # just finished
    w.settings = replace(w.settings, archive_after_hours=0)
    assert archiving.due_count(w.redis, w.store.keys, 0) == 1
    assert archiving.schedule(force=True)
    queued = queue("default")
    assert [j.func_name for j in queued.jobs] == [archiving.JOB]
    assert not archiving.schedule(force=True)  # one sweep at a time
    summary = archiving.sweep()
    assert summary["archived"] == 1 and w.store.archived(mid)
    assert archiving.due_count(w.redis, w.store.keys, 0) == 0 and archiving.schedule(force=True) is False


def test_archiving_on_a_redis_cluster(cluster_wiring):
    """On a Redis Cluster the record shares its match's slot, the switch script runs there, the binary record is
    read past the client's decoding, and every read (and the sweep from the global index) works the same."""
    from redis.cluster import RedisCluster
    from service.app.archive import archive_due

    cw = cluster_wiring
    game = cw.games["uchronia"]
    mid = create_started(cw, "u_ann", game, ["u_ann", "u_bob"], SHORT_OPTIONS["uchronia"])
    rnd, history = random.Random("cluster"), History.from_wiring(cw)
    while not cw.matches.load(mid).finished:
        play_one(cw.matches, history, mid, rnd)
    drain_projections(cw)
    fresh = lambda: History.from_wiring(cold(cw, snapshots=False))  # noqa: E731
    before = (fresh().export(mid), fresh().audit(mid), fresh().replay(mid, 7, None), list(stored_matches(cw.store, [mid])))
    tally, resume = archive_due(cw.store, cw.redis, 0)
    assert tally.counts[ARCHIVED] == 1 and resume is None and cw.store.archived(mid)
    assert isinstance(cw.redis, RedisCluster) and not cw.redis.exists(cw.store.keys.stream(mid))
    assert (fresh().export(mid), fresh().audit(mid), fresh().replay(mid, 7, None),
            list(stored_matches(cold(cw).store, [mid]))) == before
