"""A rules vote asked of the player to move runs on their turn's clock (real Redis): the turn begins at T1, the other
player proposes newer rules, she votes later; her inbox, the match page's deadline and the scheduled deadline still
run from T1, and the proposer, not to move, gains no wait."""
from __future__ import annotations

from datetime import timedelta

import pytest
from rq import Queue
from rq.registry import ScheduledJobRegistry

from domain.engine.timestamps import format_time, parse_time
from domain.games import load_games
from service.store.connections import make_queue_redis
from tests.conftest import drain_projections
from tests.integration.pages.forms import browser_of
from tests.invites import start_http
from tests.unit.versions.race_versions import OLD
from workers.queues import DEFAULT

HOURS = 6


@pytest.fixture
def games():
    """The real games and the dice race at 2026.11, with newer versions installed beside it."""
    found = load_games()
    found[OLD.id] = OLD
    return found


def inbox(client, headers) -> list:
    """(match id, reason, waiting since) of a player's inbox through the API."""
    rows = client.get("/api/users/me/inbox", headers=headers).get_json()["matches"]
    return [(m["id"], m["waiting_for"], m["waiting_since"]) for m in rows]


def deadline_jobs(wiring) -> list:
    """The ids of the scheduled turn-deadline jobs."""
    registry = ScheduledJobRegistry(queue=Queue(DEFAULT, connection=make_queue_redis(wiring.settings)))
    return [job for job in registry.get_job_ids() if job.startswith("deadline-")]


@pytest.mark.parametrize("vote", ["accept", "decline"])
def test_voting_on_rules_while_to_move_keeps_the_turns_start(wiring, client, make_user, vote):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "turn_deadline_hours": HOURS,
                                  "options": {"target": 50}}, hb)
    drain_projections(wiring)
    [(_, reason, t1)] = inbox(client, ha)
    assert reason == "turn" and len(deadline_jobs(wiring)) == 1
    proposed = client.post(f"/api/matches/{mid}/rules-proposal", json={"to": "2027.01"}, headers=hb)
    assert proposed.status_code == 201, proposed.get_json()
    drain_projections(wiring)
    assert inbox(client, ha) == [(mid, "rules_vote", t1)] and inbox(client, hb) == []

    voted = client.post(f"/api/matches/{mid}/rules-proposal/{vote}", headers=ha)
    assert voted.status_code == 200, voted.get_json()
    drain_projections(wiring)
    t2 = wiring.read_models.rows([mid])[0]["updated_at"]
    assert t2 > t1, "the vote comes after the turn began"
    assert inbox(client, ha) == [(mid, "turn", t1)] and inbox(client, hb) == [], "nobody gains a wait"
    due = format_time(parse_time(t1) + timedelta(hours=HOURS))
    page = browser_of(client, wiring, ann).get(f"/matches/{mid}").get_data(as_text=True)
    assert f'data-deadline="{due}"' in page and page.count("data-deadline=") == 1
    assert len(deadline_jobs(wiring)) == 1, "the turn keeps its one deadline"
