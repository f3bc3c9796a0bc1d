"""The operator's scenario of a rules fix, done the documented way on a real Redis: finish and start matches,
`rules bump`, edit the new version's data, restart. Every earlier match, finished or active, keeps its states,
legal commands, replay and a verified audit; new matches get the new rules; the API says which is which."""
from __future__ import annotations

import json
import random

from domain.engine import ALL
from service.app.history import History
from service.bootstrap import build
from service.cli.rules import bump
from service.web.app import create_app
from tests.invites import create_started
from tests.rules_copies import BUMP_DAY, BUMPED, CURRENT, copy_game, edit_json, import_fresh


def play(w, match_id: str, moves: int, rnd: random.Random) -> None:
    """Up to `moves` random legal commands of whoever must act, until the match is over."""
    for _ in range(moves):
        match = w.matches.load(match_id)
        if match.status != "active":
            return
        player = match.active_players()[0]
        command = rnd.choice(match.game.legal_commands(match.game_state, player))
        w.matches.submit(player, match_id, command["type"], command["payload"])


def facts(w, match_id: str) -> dict:
    """What a player, a spectator and an auditor can see of a match: its states at every tenth version, the
    legal commands now, the audit's verdict."""
    history, match = History.from_wiring(w), w.matches.load(match_id)
    states = {v: history.state_at(match_id, v).view(ALL) for v in range(1, match.version + 1, 10)}
    legal = {p: match.game.legal_commands(match.game_state, p) for p in match.active_players()}
    audit = history.audit(match_id)
    return {"version": match.version, "rules": match.game.rules_version, "state": match.game_state,
            "states": states, "legal": legal, "ok": audit["ok"], "verified": audit["randomness"]["verified"]}


def hand_of(w, match_id: str, player: str) -> int:
    """How many cards a player holds (as they see it)."""
    return w.matches.load(match_id).view(player)["players"][player]["hand_size"]


def test_a_bumped_rule_leaves_every_earlier_match_as_it_was(settings, redis_client, tmp_path):
    folder = copy_game(tmp_path)
    before = build(settings, games={"uchronia": import_fresh(tmp_path)})
    rnd = random.Random(7)
    finished = create_started(before, "ann", before.games["uchronia"], ["ann", "bob"], {"max_rounds": 5})
    play(before, finished, 2000, rnd)
    active = create_started(before, "ann", before.games["uchronia"], ["ann", "bob"])
    assert hand_of(before, active, "ann") == 6
    play(before, active, 12, rnd)
    assert before.matches.load(finished).status == "finished" and before.matches.load(active).status == "active"
    seen = {mid: facts(before, mid) for mid in (finished, active)}
    assert seen[finished]["ok"] and seen[finished]["verified"] and seen[active]["ok"]
    before.live.stop()

    bump("uchronia", folder, tmp_path / "rules.lock.json", BUMP_DAY)
    edit_json(folder / "uchronia.json", starting_hand=5)
    after = build(settings, games={"uchronia": import_fresh(tmp_path)})  # a restarted process
    try:
        for mid in (finished, active):
            assert facts(after, mid) == seen[mid], mid
        play(after, active, 5, rnd)  # the active match goes on under its own rules
        assert after.matches.load(active).game.rules_version == CURRENT
        fresh = create_started(after, "cy", after.games["uchronia"], ["cy", "dee"])
        assert hand_of(after, fresh, "cy") == 5, "a new match is dealt under the new rules"
        assert after.matches.load(fresh).game.rules_version == BUMPED
        client = create_app(wiring=after).test_client()
        game = client.get("/api/games").get_json()["games"][0]
        assert (game["rules_version"], game["rules_versions"]) == (BUMPED, [CURRENT, BUMPED])
        assert client.get(f"/api/matches/{active}/state").get_json()["rules_version"] == CURRENT
        assert client.get(f"/api/matches/{fresh}").get_json()["rules_version"] == BUMPED
        page = client.get(f"/matches/{active}").get_data(as_text=True)
        assert f'data-rules-version="{CURRENT}"' in page
        assert json.loads(json.dumps(History.from_wiring(after).audit(finished)["rules"])) == [
            {"from_version": 1, "rules_version": CURRENT}]
    finally:
        after.live.stop()
