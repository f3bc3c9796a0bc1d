"""Audit against the real Redis: tampering named at its version, randomness verified, export audited offline."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from service.cli import main as cli_main
from tests.conftest import ROOT
from tests.integration.history.races import command, start_race, turn_headers
from tests.integration.history.tampering import rewrite_stream


def played(client, make_user, rolls=4):
    """A running dice race with a few rolls and a draw."""
    mid, people = start_race(client, make_user, target=100)
    command(client, mid, people["ann"][1], "draw")
    for _ in range(rolls):
        command(client, mid, turn_headers(client, mid, people), "roll")
    return mid, people


def finished(client, make_user):
    """A dice race played to its end."""
    mid, people = start_race(client, make_user, target=12)
    while client.get(f"/api/matches/{mid}").get_json()["status"] != "finished":
        command(client, mid, turn_headers(client, mid, people), "roll")
    return mid, people


def test_an_intact_running_match_audits_ok_without_revealing(client, make_user):
    """Chain ok; the seed is not revealed, so the randomness verdict is null."""
    mid, _ = played(client, make_user)
    report = client.get(f"/api/matches/{mid}/audit").get_json()
    head = client.get(f"/api/matches/{mid}").get_json()["version"]
    assert report["ok"] is True and report["broken_at"] is None and report["length"] == head
    assert report["randomness"]["revealed"] is False and report["randomness"]["verified"] is None
    assert len(report["randomness"]["commitment"]) == 64
    assert client.get("/api/matches/m_none/audit").status_code == 404


def test_tampering_is_named_at_the_right_version(client, make_user, wiring):
    """Rewrite one event's data, drop one, reorder two, drop the last: each named by the audit."""
    cases = {
        "rewrite": (lambda envs: envs[:5] + [dict(envs[5], data=dict(envs[5]["data"], value=9))] + envs[6:], 6),
        "drop": (lambda envs: envs[:4] + envs[5:], 5),
        "reorder": (lambda envs: envs[:5] + [envs[6], envs[5]] + envs[7:], 6),
        "truncate": (lambda envs: envs[:-1], None),
    }
    for name, (tamper, at) in cases.items():
        mid, _ = played(client, make_user)
        envs = wiring.store.read_range(mid, 1)
        assert envs[5]["type"] == "die_rolled"
        rewrite_stream(wiring, mid, tamper(envs))
        report = client.get(f"/api/matches/{mid}/audit").get_json()
        assert report["ok"] is False, name
        assert report["broken_at"] == (at or len(envs)), name


def test_a_finished_match_verifies_and_a_forged_seed_does_not(client, make_user, wiring):
    """After seed_revealed every draw re-derives; a different seed in its place fails the commitment."""
    mid, _ = finished(client, make_user)
    report = client.get(f"/api/matches/{mid}/audit").get_json()
    assert report["ok"] and report["randomness"] == {"commitment": report["randomness"]["commitment"],
                                                     "revealed": True, "verified": True}
    envs = wiring.store.read_range(mid, 1)
    assert envs[-1]["type"] == "seed_revealed"
    envs[-1] = dict(envs[-1], data={"seed": "11" * 32})
    rewrite_stream(wiring, mid, envs)
    forged = client.get(f"/api/matches/{mid}/audit").get_json()
    assert forged["ok"] is False and forged["randomness"]["verified"] is False
    assert forged["broken_at"] == len(envs)


def test_export_is_audited_offline_without_redis(client, make_user, wiring, tmp_path, monkeypatch, capsys):
    """`turnstream export` writes the document; `turnstream audit --file` checks it with no Redis reachable;
    a tampered copy fails naming the version."""
    mid, _ = finished(client, make_user)
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    path = tmp_path / "export.json"
    assert cli_main(["export", mid, "-o", str(path)]) == 0
    doc = json.loads(path.read_text())
    assert doc["match"] == mid and doc["seed"] and doc["length"] == len(doc["events"])
    assert doc["commitment"] == doc["events"][0]["data"]["commitment"]
    doc["events"][4]["data"]["value"] = 7
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    env = dict(os.environ, REDIS_URL="redis://127.0.0.1:1/0", PYTHONPATH=str(ROOT))
    ok = subprocess.run([sys.executable, "-m", "service.cli", "audit", "--file", str(path)], cwd=ROOT, env=env,
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "draws verified" in ok.stdout and ok.stdout.strip().endswith("OK")
    bad = subprocess.run([sys.executable, "-m", "service.cli", "audit", "--file", str(tampered), "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and json.loads(bad.stdout)["broken_at"] == 5


def test_cli_audit_of_a_stored_match_and_bad_input(client, make_user, wiring, monkeypatch, capsys, tmp_path):
    """`turnstream audit <match>` reads Redis; unknown matches and unreadable files are one-line errors."""
    mid, _ = played(client, make_user)
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    assert cli_main(["audit", mid]) == 0
    assert "hash chain: intact" in capsys.readouterr().out
    assert cli_main(["audit", "m_missing"]) == 2
    assert "no match" in capsys.readouterr().err
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2]")
    assert cli_main(["audit", "--file", str(junk)]) == 2
    assert cli_main(["audit"]) == 2


def test_heads_kept_while_running_are_verified_offline_once_revealed(client, make_user, wiring, tmp_path,
                                                                   monkeypatch, capsys):
    """Heads the audit endpoint showed while the match ran are checked against the export with
    `audit --file F --head V:HASH`; a head from another history fails the audit."""
    mid, people = start_race(client, make_user, target=12)
    kept = []
    while client.get(f"/api/matches/{mid}").get_json()["status"] != "finished":
        shown = client.get(f"/api/matches/{mid}/audit").get_json()
        assert shown["ok"] and shown["chain"] == {"format": 2, "hashes_verified": True}
        kept.append(f"{shown['length']}:{shown['head']}")
        command(client, mid, turn_headers(client, mid, people), "roll")
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    path = tmp_path / "export.json"
    assert cli_main(["export", mid, "-o", str(path)]) == 0
    capsys.readouterr()
    heads = [arg for head in kept for arg in ("--head", head)]
    assert cli_main(["audit", "--file", str(path), *heads]) == 0
    out = capsys.readouterr().out
    assert out.count("on the chain") == len(kept) and "NOT" not in out and out.strip().endswith("OK")
    version = kept[1].split(":")[0]
    assert cli_main(["audit", "--file", str(path), "--head", f"{version}:{'ab' * 32}"]) == 1
    assert "NOT on the chain" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        cli_main(["audit", "--file", str(path), "--head", "three:xyz"])
    assert refused.value.code == 2


def test_the_audit_page_says_it_in_words(client, make_user, wiring):
    """/matches/<id>/audit: verified with every draw checked once finished, pending before, and a tampered
    match named as broken at its version; the finished match's page links to it."""
    mid, people = finished(client, make_user)
    html = client.get(f"/matches/{mid}/audit").get_data(as_text=True)
    assert 'data-ok="true"' in html and "Verified" in html and 'data-randomness="verified"' in html
    assert f'href="/matches/{mid}/audit"' in client.get(f"/matches/{mid}", headers=people["ann"][1]).get_data(as_text=True)
    running, _ = played(client, make_user)
    assert 'data-randomness="pending"' in client.get(f"/matches/{running}/audit").get_data(as_text=True)
    envs = wiring.store.read_range(running, 1)
    rewrite_stream(wiring, running, envs[:5] + [dict(envs[5], data=dict(envs[5]["data"], value=9))] + envs[6:])
    broken = client.get(f"/matches/{running}/audit").get_data(as_text=True)
    assert 'data-ok="false"' in broken and "breaks at event 6" in broken
    (cy, hc), (di, hd) = make_user("cy"), make_user("di")
    called_off = client.post("/api/matches", json={"game": "dice-race", "players": [cy, di]}, headers=hc).get_json()
    assert client.post(f"/api/matches/{called_off['id']}/decline", headers=hd).status_code == 200
    assert 'data-randomness="never"' in client.get(f"/matches/{called_off['id']}/audit").get_data(as_text=True)
    missing = client.get("/matches/m_none/audit", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and missing.mimetype == "text/html"
