"""`turnstream replay` on a real game (Uchronia): one readable sentence per event, the state at a version;
its replays equal what each player saw live."""
from __future__ import annotations

import json

from service.cli import main as cli_main
from tests.invites import start_http


def test_uchronia_replay_log_and_views(client, make_user, wiring, monkeypatch, capsys):
    """Play Uchronia by its legal commands; each player's live view equals the replay; the CLI prints the log."""
    people = [make_user(n) for n in ("ann", "bob", "cy")]
    ids = [uid for uid, _ in people]
    headers = dict(people)
    mid = start_http(client, people[0][1], {"game": "uchronia", "players": ids}, *[h for _, h in people[1:]])
    live = {}
    for _ in range(12):
        for uid in ids:
            state = client.get(f"/api/matches/{mid}/state", headers=headers[uid]).get_json()
            live[(uid, state["version"])] = state["view"]
        active = client.get(f"/api/matches/{mid}").get_json()["active_players"]
        legal = client.get(f"/api/matches/{mid}/legal", headers=headers[active[0]]).get_json()["commands"]
        resp = client.post(f"/api/matches/{mid}/commands", headers=headers[active[0]], json=legal[0])
        assert resp.status_code == 201, resp.get_json()
    for (uid, version), view in live.items():
        replay = client.get(f"/api/matches/{mid}/replay?version={version}", headers=headers[uid]).get_json()
        assert replay["view"] == view, (uid, version)
    head = client.get(f"/api/matches/{mid}").get_json()["version"]
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    assert cli_main(["replay", mid, "--version", str(head - 2), "--as", ids[0]]) == 0
    out = capsys.readouterr().out
    log, _, rest = out.partition("\nstate at version ")
    lines = log.strip().splitlines()
    assert len(lines) == head - 2
    assert lines[0].split()[0] == "1" and "ann created a Uchronia match" in lines[0]
    assert all(len(line.split(None, 1)) == 2 for line in lines)
    assert any("ann" in line and "Forum" in line for line in lines)
    assert rest.startswith(f"{head - 2} of {head} (active)")
    assert json.loads(rest.split("\n", 1)[1]) == client.get(
        f"/api/matches/{mid}/replay?version={head - 2}", headers=headers[ids[0]]).get_json()["view"]
    assert cli_main(["replay", "m_missing"]) == 2
