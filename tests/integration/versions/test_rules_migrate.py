"""Moving running matches to newer rules on a real Redis: the operator's `turnstream rules migrate` (its function,
run from another process's wiring) and the seated players' vote over HTTP. The event is stored, /state says the new
version, the next moves are judged by it, the move log and the audit page show it, the audit verifies once the
match has finished; a refused migration changes nothing."""
from __future__ import annotations

import pytest

from domain.games import load_games
from service.app.history import History
from service.bootstrap import build
from service.cli import main as cli_main
from service.cli.rules import migrate
from tests.integration.history.races import command, start_race, turn_headers
from tests.invites import create_started
from tests.unit.versions.race_versions import OLD


@pytest.fixture
def games():
    """The real games and the dice race at 2026.11, with 2027.01 (a 6 scores 12, no notes), 2027.02 (cannot read
    notes) and 2027.03 (a race to 1) installed beside it."""
    found = load_games()
    found[OLD.id] = OLD
    return found


@pytest.fixture
def operator(wiring):
    """The wiring of another process (the operator's `turnstream` command): its own match cache."""
    w = build(wiring.settings, games=wiring.games)
    yield w
    w.live.stop()


def stored(w, mid):
    return w.store.read_range(mid, 1)


def play_to_the_end(client, mid, people):
    for _ in range(200):
        if client.get(f"/api/matches/{mid}").get_json()["status"] == "finished":
            return
        command(client, mid, turn_headers(client, mid, people), "roll")
    raise AssertionError("the race did not finish")


def test_the_operator_migrates_an_active_match(client, make_user, wiring, operator):
    mid, people = start_race(client, make_user, target=30)
    ha, hb = people["ann"][1], people["bob"][1]
    command(client, mid, ha, "note", text="gl hf")
    command(client, mid, ha, "roll")
    command(client, mid, hb, "roll")
    assert client.get(f"/api/matches/{mid}/state").get_json()["rules_version"] == "2026.11"

    before = stored(wiring, mid)
    for to, rule in (("2027.02", "platform:rules.does-not-fold"), ("2031.01", "platform:rules.unknown-version"),
                     ("2026.11", "platform:rules.not-newer")):
        status, line = migrate(operator, mid, to)
        assert status == 1 and rule in line and "\n" not in line, line
    assert "noted at version" in migrate(operator, mid, "2027.02")[1]
    assert stored(wiring, mid) == before, "a refused migration appends nothing"
    assert migrate(operator, "m_missing", "2027.01")[0] == 2

    status, line = migrate(operator, mid, "2027.01")
    assert status == 0 and "2026.11" in line and "2027.01" in line, line
    after = stored(wiring, mid)
    assert after[:len(before)] == before, "the stream only grows"
    [upgraded] = after[len(before):]
    assert (upgraded["type"], upgraded["scope"], upgraded["actor"]) == ("rules_upgraded", "platform", None)
    assert upgraded["data"] == {"from": "2026.11", "to": "2027.01"}

    # the web process's cached fold is stale: its next read catches up through the event
    state = client.get(f"/api/matches/{mid}/state", headers=ha).get_json()
    assert state["rules_version"] == "2027.01" and state["version"] == upgraded["version"]
    assert client.get(f"/api/matches/{mid}").get_json()["rules_version"] == "2027.01"
    refused = client.post(f"/api/matches/{mid}/commands", headers=turn_headers(client, mid, people),
                          json={"type": "note", "payload": {"text": "hi"}})
    assert refused.status_code == 422 and refused.get_json()["error"]["rule"] == "dice-race:race.no-notes"
    events = client.get(f"/api/matches/{mid}/events?after={upgraded['version'] - 1}").get_json()["events"]
    assert events[0]["type"] == "rules_upgraded" and events[0]["data"] == {"from": "2026.11", "to": "2027.01"}

    play_to_the_end(client, mid, people)
    history = History.from_wiring(wiring)
    log = dict(history.move_log(mid))
    assert log[upgraded["version"]] == \
        "the match moved to rules 2027.01 (from 2026.11): the moves after this are judged by them"
    report = client.get(f"/api/matches/{mid}/audit").get_json()
    assert report["ok"] and report["randomness"]["verified"] and not report["problems"], report
    assert report["rules"] == [{"from_version": 1, "rules_version": "2026.11"},
                               {"from_version": upgraded["version"], "rules_version": "2027.01"}]
    page = client.get(f"/matches/{mid}/audit").get_data(as_text=True)
    assert f'data-rules-version="2026.11" data-from-version="1" data-to-version="{upgraded["version"] - 1}"' in page
    assert f'data-rules-version="2027.01" data-from-version="{upgraded["version"]}"' in page
    assert 'rules 2027.01' in client.get(f"/matches/{mid}").get_data(as_text=True)
    assert migrate(operator, mid, "2027.02")[1].endswith("the match has finished: it keeps the rules it was "
                                                          "played under")


def test_the_command_line_prints_a_refusal_in_one_line(wiring, monkeypatch, capsys):
    """`turnstream rules migrate` against REDIS_URL, on a real game with one rules version: exit 1, one line."""
    uchronia = wiring.games["uchronia"]
    mid = create_started(wiring, "ann", uchronia, ["ann", "bob"])
    before = stored(wiring, mid)
    monkeypatch.setenv("REDIS_URL", wiring.settings.redis_url)
    assert cli_main(["rules", "migrate", mid, "--to", "2031.01"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "platform:rules.unknown-version" in err and "2031.01" in err, err
    assert stored(wiring, mid) == before


def propose(client, mid, headers, to):
    return client.post(f"/api/matches/{mid}/rules-upgrade", headers=headers, json={"to": to})


def vote(client, mid, headers, accept):
    return client.post(f"/api/matches/{mid}/rules-upgrade/votes", headers=headers, json={"accept": accept})


def test_the_players_vote_to_move_their_match(client, make_user, wiring):
    mid, people = start_race(client, make_user, names=("ann", "bob", "cy"), target=40)
    (ann, ha), (_, hb), (cy, hc) = people["ann"], people["bob"], people["cy"]
    _, outsider = make_user("dan")
    command(client, mid, ha, "roll")
    assert propose(client, mid, outsider, "2027.01").status_code == 403
    unknown = propose(client, mid, hb, "2031.01")
    assert unknown.status_code == 422 and unknown.get_json()["error"]["rule"] == "platform:rules.unknown-version"
    assert vote(client, mid, ha, True).get_json()["error"]["code"] == "no_rules_vote_open"

    opened = propose(client, mid, hb, "2027.01")
    assert opened.status_code == 201, opened.get_json()
    proposal = opened.get_json()
    assert (proposal["status"], proposal["from"], proposal["to"]) == ("open", "2026.11", "2027.01")
    assert propose(client, mid, ha, "2027.01").get_json()["error"]["code"] == "rules_vote_open"
    status = client.get(f"/api/matches/{mid}/rules-upgrade").get_json()
    assert status["rules_version"] == "2026.11" and status["newer"] == ["2027.01", "2027.02", "2027.03"]
    assert status["proposal"]["id"] == proposal["id"] and sorted(status["proposal"]["voters"]) == sorted([ann, cy])
    own = vote(client, mid, hb, True)
    assert own.status_code == 422 and own.get_json()["error"]["rule"] == "platform:rules.own-proposal"
    assert vote(client, mid, outsider, True).status_code == 403
    assert vote(client, mid, ha, True).get_json() == {"id": proposal["id"], "status": "open",
                                                     "version": proposal["version"] + 1}
    assert client.get(f"/api/matches/{mid}/state").get_json()["rules_version"] == "2026.11"
    done = vote(client, mid, hc, True)
    assert done.status_code == 200 and done.get_json()["status"] == "accepted"
    assert client.get(f"/api/matches/{mid}/state").get_json()["rules_version"] == "2027.01"
    assert [e["type"] for e in stored(wiring, mid)[-4:]] == ["rules_upgrade_proposed", "rules_upgrade_voted",
                                                             "rules_upgrade_voted", "rules_upgraded"]

    # a second proposal, rejected: the match keeps 2027.01
    again = propose(client, mid, ha, "2027.02")
    assert again.status_code == 201, again.get_json()
    rejected = vote(client, mid, hb, False)
    assert rejected.get_json()["status"] == "rejected"
    assert client.get(f"/api/matches/{mid}/state").get_json()["rules_version"] == "2027.01"
    assert client.get(f"/api/matches/{mid}/rules-upgrade").get_json()["proposal"]["status"] == "rejected"
    log = [sentence for _, sentence in History.from_wiring(wiring).move_log(mid)]
    assert any(s.startswith("bob proposed moving the match to rules 2027.01") for s in log), log
    assert "the match moved to rules 2027.01 (from 2026.11): the moves after this are judged by them" in log
    assert any(s.startswith("the move to other rules was rejected") for s in log)


def test_the_rules_endpoints_are_documented(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert {"get", "post"} <= set(paths["/api/matches/{match_id}/rules-upgrade"])
    post = paths["/api/matches/{match_id}/rules-upgrade"]["post"]
    assert post["requestBody"]["content"]["application/json"]["schema"]["required"] == ["to"]
    assert {"201", "401", "403", "404", "409", "422"} <= set(post["responses"])
    votes = paths["/api/matches/{match_id}/rules-upgrade/votes"]["post"]
    assert {"200", "401", "403", "409", "422"} <= set(votes["responses"])
