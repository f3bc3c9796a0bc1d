"""Rate limits on the real Redis, shared by every web process: accounts and matches per client address,
commands and chat per user; 429 JSON + Retry-After; commands leased: a round trip per lease, not per command."""
from __future__ import annotations

import re

import pytest

from service.config import from_env
from tests.integration.api.errors import error_of
from tests.integration.api.processes import process
from tests.invites import start_http


def from_address(address: str) -> dict:
    """Test-client kwargs that make a request come from `address`."""
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_account_creation_is_limited_per_address_across_processes(wiring, games):
    """Three accounts a minute per address: two through one process and one through another use the
    budget up; the fourth is a 429 with Retry-After on either; another address is still served."""
    one, two = (process(wiring, games, account_rate_limit="3/minute") for _ in range(2))
    assert [c.post("/api/users", json={"name": "a"}).status_code for c in (one, one, two)] == [201] * 3
    for c in (one, two):
        refused = c.post("/api/users", json={"name": "a"})
        err = error_of(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60 and err["retry_after"] == int(refused.headers["Retry-After"])
    assert one.post("/api/users", json={"name": "b"}, **from_address("10.1.2.3")).status_code == 201


def test_the_sign_up_form_shares_the_account_budget_and_answers_a_page(wiring, games):
    """The lobby's sign-up counts against the same per-address budget; its refusal is an HTML page."""
    c = process(wiring, games, account_rate_limit="1/minute")
    assert c.post("/api/users", json={"name": "a"}).status_code == 201
    lobby = c.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', lobby).group(1)
    refused = c.post("/signup", data={"name": "b", "csrf": csrf}, headers={"Accept": "text/html"})
    assert refused.status_code == 429 and refused.mimetype == "text/html" and int(refused.headers["Retry-After"]) >= 1


def test_match_creation_is_limited_per_address(wiring, games):
    """Two matches a minute per address, whoever creates them; another address has its own budget."""
    c = process(wiring, games, match_rate_limit="2/minute")
    users = [c.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    open_match = {"game": "dice-race", "seats": 2}
    assert c.post("/api/matches", json=open_match, headers=ann).status_code == 201
    assert c.post("/api/matches", json=open_match, headers=bob).status_code == 201
    error_of(c.post("/api/matches", json=open_match, headers=ann), 429, "rate_limited")
    assert c.post("/api/matches", json=open_match, headers=ann, **from_address("10.9.9.9")).status_code == 201


def test_chat_is_limited_per_user(wiring, games):
    """Two messages a minute per user; the other player may still talk."""
    c = process(wiring, games, chat_rate_limit="2/minute")
    users = [c.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    mid = start_http(c, ann, {"game": "dice-race", "players": [u["id"] for u in users]}, bob)
    said = [c.post(f"/api/matches/{mid}/chat", json={"text": "hi"}, headers=ann).status_code for _ in range(3)]
    assert said == [201, 201, 429]
    assert c.post(f"/api/matches/{mid}/chat", json={"text": "hi"}, headers=bob).status_code == 201


def test_the_command_limiter_costs_one_redis_round_trip_per_lease(wiring, games, monkeypatch):
    """A command's rate-limit check is at most one Redis command (the lease's EVALSHA): with 1000 a minute a
    lease covers 20 commands, so after a first command (scripts loaded, a lease taken) the next 30 cost
    the limiter one round trip: 19 from the first lease, one to take the next, 10 from it."""
    c = process(wiring, games, rate_limit_per_minute=1000)
    users = [c.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    mid = start_http(c, ann, {"game": "dice-race", "players": [u["id"] for u in users]}, bob)
    note = {"type": "note", "payload": {"text": "x"}}
    assert c.post(f"/api/matches/{mid}/commands", json=note, headers=ann).status_code == 201  # scripts loaded
    limit = c.application.extensions["leased_limits"]["commands"]
    sent = []
    original = limit.script.registered_client.execute_command
    monkeypatch.setattr(limit.script.registered_client, "execute_command",
                        lambda *a, **k: sent.append(a[:2]) or original(*a, **k))
    assert [c.post(f"/api/matches/{mid}/commands", json=note, headers=ann).status_code for _ in range(30)] == [201] * 30
    assert [name for name, sha in sent if sha == limit.script.sha or name == "EVAL"] == ["EVALSHA"]


def test_leased_command_budgets_are_shared_and_never_exceeded(wiring, games):
    """100 commands a minute (leases of 2) spent through two processes in turn: exactly 100 are served,
    whichever process asks, and every later one is a 429 with Retry-After on both."""
    one, two = (process(wiring, games, rate_limit_per_minute=100) for _ in range(2))
    users = [one.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    mid = start_http(one, ann, {"game": "dice-race", "players": [u["id"] for u in users]}, bob)
    note = {"type": "note", "payload": {"text": "x"}}
    codes = [(one, two)[i % 3 == 0].post(f"/api/matches/{mid}/commands", json=note, headers=ann).status_code
             for i in range(110)]
    assert codes.count(201) >= 99 and codes.count(201) <= 100 and set(codes) == {201, 429}
    for c in (one, two):
        refused = c.post(f"/api/matches/{mid}/commands", json=note, headers=ann)
        err = error_of(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60 and err["retry_after"] == int(refused.headers["Retry-After"])


def test_trusted_proxies_tell_clients_apart_by_x_forwarded_for(wiring, games):
    """Behind one trusted proxy, the address is the proxy's X-Forwarded-For entry, not the proxy."""
    c = process(wiring, games, account_rate_limit="1/minute", trusted_proxies=1)
    assert c.post("/api/users", json={"name": "a"}, headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 201
    assert c.post("/api/users", json={"name": "a"}, headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 429
    assert c.post("/api/users", json={"name": "a"}, headers={"X-Forwarded-For": "192.0.2.2"}).status_code == 201


def test_limit_settings_are_checked_at_start_up():
    """A malformed limit string fails when the settings are read, with the documented defaults otherwise."""
    settings = from_env({})
    assert (settings.account_rate_limit, settings.match_rate_limit, settings.chat_rate_limit) == \
        ("30/hour", "10/minute;120/hour", "20/minute")
    assert settings.command_rate_limit == "600/minute"
    with pytest.raises(ValueError):
        from_env({"TURNSTREAM_ACCOUNT_RATE_LIMIT": "thirty an hour"})


def test_leased_budgets_hold_under_concurrency_across_processes(wiring, games):
    """8 parallel connections, 4 on each of two processes, send commands of one user as fast as they can:
    at least 95% of the per-minute limit is served before the first 429, and never more than the limit
    (concurrent lease fetches in one process used to overwrite each other's lease: 317 of 600 served)."""
    import threading

    limit = 600
    apps = [process(wiring, games, rate_limit_per_minute=limit).application for _ in range(2)]
    first = apps[0].test_client()
    users = [first.post("/api/users", json={"name": n}).get_json() for n in ("ann", "bob")]
    ann, bob = ({"Authorization": f"Bearer {u['token']}"} for u in users)
    body = {"game": "dice-race", "players": [u["id"] for u in users]}
    mids = [start_http(first, ann, body, bob) for _ in range(8)]
    note = {"type": "note", "payload": {"text": "x"}}
    served, refused, lock = [], [], threading.Lock()
    start = threading.Barrier(8)

    def connection(n):
        c = apps[n % 2].test_client()
        start.wait()
        while True:
            code = c.post(f"/api/matches/{mids[n]}/commands", json=note, headers=ann).status_code
            with lock:
                if refused or code != 201:
                    refused.append(code)  # the first 429 anywhere ends the count
                    return
                served.append(n)

    threads = [threading.Thread(target=connection, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(refused) <= {201, 429} and 429 in refused
    print(f"{len(served)} of {limit} served before the first 429")
    assert 0.95 * limit <= len(served) <= limit, f"{len(served)} of {limit} served before the first 429"
    total = len(served) + refused.count(201)
    for c in (apps[0].test_client(), apps[1].test_client()):  # what the other connections still held
        while c.post(f"/api/matches/{mids[0]}/commands", json=note, headers=ann).status_code == 201:
            total += 1
    assert total <= limit
