"""`turnstream upgrade-check` over matches that ended by a concession (every game, conceded over HTTP) and one
whose conceding player's stand-in plays on: every one identical, exit 0 (the pre-deploy check no longer fails
wherever someone conceded)."""
from __future__ import annotations

from service.cli.upgrade import upgrade_check
from tests.integration.matches.playing import GAMES, play_one_move
from tests.integration.versions.upgrade_output import counts
from tests.invites import start_http


def test_conceded_matches_replay_identically(wiring, client, make_user, capsys):
    (ann, ha), (bob, hb), (cyd, hc) = make_user("ann"), make_user("bob"), make_user("cyd")
    for game in GAMES:
        mid = start_http(client, ha, {"game": game, "players": [ann, bob]}, hb)
        play_one_move(client, mid, [ha, hb])
        assert client.post(f"/api/matches/{mid}/concede", headers=hb).status_code == 201
        assert client.get(f"/api/matches/{mid}").get_json()["status"] == "finished"
    mid = start_http(client, ha, {"game": "uchronia", "players": [ann, bob, cyd]}, hb, hc)
    play_one_move(client, mid, [ha, hb, hc])
    assert client.post(f"/api/matches/{mid}/concede", headers=hc).status_code == 201
    for _ in range(3):
        match = wiring.matches.load(mid)
        player = match.active_players()[0]
        command = match.game.legal_commands(match.game_state, player)[0]
        wiring.matches.submit(player, mid, command["type"], command["payload"], stand_in=player == cyd)
    assert upgrade_check(wiring) == 0, capsys.readouterr().out
    assert counts(capsys.readouterr().out) == (len(GAMES) + 1, len(GAMES) + 1, 0, 0)
