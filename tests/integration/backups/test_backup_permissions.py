"""An operator backup holds every secret seed: `turnstream export --all` writes its files 0600 in a 0700 folder,
whatever the umask, also over files a previous backup left 0644."""
from __future__ import annotations

import os
import stat
import subprocess
import sys

from tests.e2e.processes import ROOT
from tests.invites import start_http


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def export_all(redis_url: str, directory) -> subprocess.CompletedProcess:
    """`turnstream export --all -o DIR` as an operator runs it, under the common umask 022."""
    env = dict(os.environ, REDIS_URL=redis_url, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "service.cli", "export", "--all", "-o", str(directory)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.umask(0o022))


def some_matches(client):
    """Two players and two started matches."""
    users = [client.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    tokens = {u["id"]: {"Authorization": f"Bearer {u['token']}"} for u in users}
    for _ in range(2):
        start_http(client, tokens[users[0]["id"]], {"game": "uchronia", "players": list(tokens)},
                   tokens[users[1]["id"]])


def test_backup_files_are_0600_in_a_0700_folder(client, wiring, tmp_path):
    some_matches(client)
    backup = tmp_path / "backup"
    done = export_all(wiring.settings.redis_url, backup)
    assert done.returncode == 0, done.stderr
    files = [backup / "users.json", backup / "manifest.json", *sorted((backup / "matches").iterdir())]
    assert len(files) == 4
    assert mode(backup) == 0o700 and mode(backup / "matches") == 0o700
    assert {p.name: mode(p) for p in files} == {p.name: 0o600 for p in files}


def test_a_backup_over_an_older_one_makes_its_files_private(client, wiring, tmp_path):
    some_matches(client)
    backup = tmp_path / "backup"
    (backup / "matches").mkdir(parents=True, mode=0o755)
    os.chmod(backup, 0o755)
    (backup / "users.json").write_text("{}")
    os.chmod(backup / "users.json", 0o644)
    assert export_all(wiring.settings.redis_url, backup).returncode == 0
    assert mode(backup) == 0o700 and mode(backup / "matches") == 0o700 and mode(backup / "users.json") == 0o600


def test_a_folder_holding_other_files_keeps_its_mode_and_says_so(client, wiring, tmp_path):
    some_matches(client)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    (shared / "notes.txt").write_text("someone else's")
    done = export_all(wiring.settings.redis_url, shared)
    assert done.returncode == 0, done.stderr
    assert mode(shared) == 0o755 and "holds other files, so its mode is left as it is (755)" in done.stdout
    assert mode(shared / "matches") == 0o700 and mode(shared / "users.json") == 0o600
    assert all(mode(p) == 0o600 for p in (shared / "matches").iterdir())
