"""`turnstream upgrade-check` on the test Redis: honest matches (finished and running, several games) replay
identically; a released rules version edited in place (a copied Uchronia whose current version deals 5 cards, not 6)
names every stored Uchronia match as changed; the same on an operator backup folder; Redis unreachable is one
line and exit 2."""
from __future__ import annotations

import json
import random
import re

import pytest

from service.app.backup import export_all
from service.app.history import History
from service.cli import main as cli_main
from service.cli.golden import SHORT_OPTIONS, play_one
from service.cli.upgrade import upgrade_check
from tests.invites import create_started, start_http
from tests.rules_copies import BUMP_DAY, BUMPED, CURRENT, copy_game, edit_json, import_fresh
from tests.integration.versions.upgrade_output import counts

def play(w, match_id: str, seed: str, commands: int | None = None) -> None:
    """Random legal play (with a few timeouts and take-backs): `commands` steps, or to the end."""
    rnd, history = random.Random(seed), History.from_wiring(w)
    for _ in range(commands or 5000):
        if w.matches.load(match_id).finished:
            return
        play_one(w.matches, history, match_id, rnd)
    assert commands, f"{match_id} did not finish"


@pytest.fixture
def stored(wiring, client, make_user):
    """Honest matches on the test Redis: {match id: (game id, finished)}, one of them begun over HTTP."""
    (ann, ann_h), (bob, bob_h) = make_user("ann"), make_user("bob")
    made = {}
    for n, game_id in enumerate(("uchronia", "origins", "ti4-exploration", "merchant-of-venus", "uchronia")):
        game = wiring.games[game_id]
        mid = create_started(wiring, ann, game, [ann, bob], SHORT_OPTIONS[game_id])
        play(wiring, mid, f"finished:{n}")
        made[mid] = (game_id, True)
    mid = start_http(client, ann_h, {"game": "uchronia", "players": [ann, bob]}, bob_h)
    for _ in range(6):
        active = client.get(f"/api/matches/{mid}").get_json()["active_players"][0]
        headers = ann_h if active == ann else bob_h
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers).get_json()["commands"]
        assert client.post(f"/api/matches/{mid}/commands", headers=headers, json=legal[-1]).status_code == 201
    made[mid] = ("uchronia", False)
    running = create_started(wiring, bob, wiring.games["merchant-of-venus"], [bob, ann])
    play(wiring, running, "running", commands=25)
    made[running] = ("merchant-of-venus", False)
    assert sum(finished for _, finished in made.values()) == 5
    return made


def edited_uchronia(tmp_path):
    """Uchronia with its released current version edited in place: 5 starting cards instead of 6 (what must never be)."""
    folder = copy_game(tmp_path)
    edit_json(folder / "uchronia.json", starting_hand=5)
    return import_fresh(tmp_path)


def test_honest_matches_replay_identically(wiring, stored, monkeypatch, capsys):
    """The real command against REDIS_URL: every stored match identical, the count line, exit 0."""
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    assert cli_main(["upgrade-check"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines() == [out.strip()], out  # nothing but the count line
    assert counts(out) == (len(stored), len(stored), 0, 0)
    assert cli_main(["upgrade-check", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["checked"], summary["identical"], summary["matches"]) == (len(stored), len(stored), [])


def test_an_edited_release_names_every_match_it_changes(wiring, stored, tmp_path, capsys):
    """Under a Uchronia whose current version deals 5 cards, each stored Uchronia match (finished or not) is changed at
    its setup; the other games' matches stay identical; exit 1."""
    games = dict(wiring.games, uchronia=edited_uchronia(tmp_path))
    assert upgrade_check(wiring, games=games) == 1
    out = capsys.readouterr().out
    uchronia = sorted(mid for mid, (game_id, _) in stored.items() if game_id == "uchronia")
    lines = [line for line in out.strip().splitlines()[:-1] if not line.startswith("rules ")]
    assert sorted(line.split(":", 1)[0] for line in lines) == uchronia
    for line in lines:
        assert re.search(rf": changed at version \d+ under rules {re.escape(CURRENT)}: the setup events differ", line), line
    assert counts(out) == (len(stored), len(stored) - len(uchronia), len(uchronia), 0)


def rules_line(out: str) -> str:
    """The one line naming a rules version changed in place."""
    found = [line for line in out.splitlines() if line.startswith("rules ")]
    assert len(found) == 1, out
    return found[0]


def test_an_in_place_code_edit_names_every_match_of_that_version(wiring, stored, tmp_path, capsys):
    """A logic edit of Uchronia's current version that no move so far reached (its scoring): every match re-derives
    identically, yet the version's digest differs from the one its matches recorded, so upgrade-check exits 1
    naming every Uchronia match, the running one too."""
    folder = copy_game(tmp_path)
    state = folder / "state.py"
    state.write_text(state.read_text() + "\n\ndef vp_bonus(points):\n    return points + 1\n")
    games = dict(wiring.games, uchronia=import_fresh(tmp_path))
    assert upgrade_check(wiring, games=games) == 1
    out = capsys.readouterr().out
    line = rules_line(out)
    uchronia = sorted(mid for mid, (game_id, _) in stored.items() if game_id == "uchronia")
    assert line.startswith(f"rules uchronia {CURRENT}: it") and "bump the rules version instead" in line
    assert "changed since its release" in line, "the current version is released: the lock holds the digest it was released with"
    assert upgrade_check(wiring, games=games, lock={}) == 1, "a version the lock does not hold: the matches' records"
    assert "its code or data changed in place" in rules_line(capsys.readouterr().out)
    assert all(mid in line for mid in uchronia) and f"{len(uchronia)} stored matches" in line
    assert any(not finished for mid, (g, finished) in stored.items() if mid in line), "a running match is named"
    assert counts(out)[1] == len(stored) and "1 rules version changed in place" in out.splitlines()[-1]


def test_after_a_bump_the_same_edit_keeps_every_match_on_its_rules(wiring, stored, tmp_path, capsys):
    """The designer's way: bump (the current version frozen whole), then the same edit of the package: the stored
    matches are judged by the frozen copy, identical to what they recorded; exit 0; new matches get the next."""
    from service.cli.rules import bump, read_lock
    folder, lock_path = copy_game(tmp_path), tmp_path / "rules.lock.json"
    bump("uchronia", folder, lock_path, BUMP_DAY)
    state = folder / "state.py"
    state.write_text(state.read_text() + "\n\ndef vp_bonus(points):\n    return points + 1\n")
    game = import_fresh(tmp_path)
    assert upgrade_check(wiring, games=dict(wiring.games, uchronia=game), lock=read_lock(lock_path)) == 0
    assert "rules " not in capsys.readouterr().out
    assert game.rules_version == BUMPED and game.at(CURRENT).rules_digest == read_lock(lock_path)["uchronia"][CURRENT]


def test_an_empty_or_foreign_database_is_not_a_clean_check(wiring, monkeypatch, capsys):
    """Nothing to check is exit 1 with one line saying why (a wrong REDIS_URL checks nothing), unless --allow-empty."""
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    wiring.redis.flushdb()
    wiring.redis.set("someone:else", "1")
    assert cli_main(["upgrade-check"]) == 1
    err = capsys.readouterr().err
    assert "nothing was checked" in err and "--allow-empty" in err and len(err.strip().splitlines()) == 1
    assert cli_main(["upgrade-check", "--allow-empty"]) == 0
    assert counts(capsys.readouterr().out) == (0, 0, 0, 0)


def test_the_command_line_reads_dot_env(wiring, monkeypatch, tmp_path, capsys):
    """REDIS_URL from ./.env, as the Procfile's runner reads it: the check runs against that Redis."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"# the service's settings\nREDIS_URL={wiring.settings.redis_url}\n")
    wiring.redis.flushdb()
    assert cli_main(["upgrade-check"]) == 1
    assert "nothing was checked" in capsys.readouterr().err
    monkeypatch.delenv("REDIS_URL", raising=False)


def test_a_backup_folder_is_checked_without_redis(wiring, stored, tmp_path, capsys):
    """`--export DIR` on what `turnstream export --all` wrote: identical under the installed rules, the Uchronia
    matches changed under the edited ones, a tampered event and an unreadable file broken."""
    folder = tmp_path / "backup"
    export_all(wiring, folder, say=lambda *_: None)
    assert cli_main(["upgrade-check", "--export", str(folder)]) == 0
    assert counts(capsys.readouterr().out) == (len(stored), len(stored), 0, 0)

    games = dict(wiring.games, uchronia=edited_uchronia(tmp_path))
    assert upgrade_check(export=str(folder), games=games) == 1
    out = capsys.readouterr().out
    assert counts(out)[2] == sum(game_id == "uchronia" for game_id, _ in stored.values())

    victim = next(mid for mid, (game_id, finished) in stored.items() if game_id == "origins")
    path = folder / "matches" / f"{victim}.json"
    doc = json.loads(path.read_text())
    event = next(e for e in doc["events"] if e["scope"] == "game" and e["actor"])
    event["data"] = dict(event["data"], forged=True)
    path.write_text(json.dumps(doc))
    (folder / "matches" / "m_torn.json").write_text("{not json")
    assert upgrade_check(export=str(folder)) == 1
    out = capsys.readouterr().out
    assert re.search(rf"^{victim}: broken at version {event['version']}: the hash chain breaks here", out, re.M), out
    assert re.search(r"m_torn\.json: broken: cannot read", out), out
    assert counts(out) == (len(stored) + 1, len(stored) - 1, 0, 2)


def test_an_unreachable_redis_is_one_line_and_exit_2(monkeypatch, capsys):
    """No traceback: the reason and what to set."""
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert cli_main(["upgrade-check"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "cannot reach Redis" in captured.err


def test_several_processes_answer_as_one(wiring, stored, monkeypatch, capsys):
    """`--jobs 2` checks the same matches in two processes of the installed games: the same summary as one."""
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    assert cli_main(["upgrade-check", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert cli_main(["upgrade-check", "--json", "--jobs", "2"]) == 0
    together = json.loads(capsys.readouterr().out)
    keep = ("checked", "identical", "changed", "broken", "matches")
    assert {k: together[k] for k in keep} == {k: alone[k] for k in keep} and together["checked"] == len(stored)
    with pytest.raises(SystemExit) as refused:  # argparse: one line on standard error, exit 2
        cli_main(["upgrade-check", "--jobs", "-1"])
    assert refused.value.code == 2 and "at least 0" in capsys.readouterr().err
