"""A player called back by mail gets to the move on a browser that is signed out: the mail's match link offers
sign-in by token or by e-mail on the match page and comes back to it; a sign-in link started there returns to
the match (only a match page of this site: never another address); "next match" walks every waiting match."""
from __future__ import annotations

import re

import pytest

from tests.conftest import drain_projections
from tests.integration.pages.forms import browser_of
from tests.invites import start_http
from tests.mailbox import link_path, run_mail_jobs

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VIEWER = re.compile(r'data-viewer="([^"]*)"')


def proven(client, wiring, mailbox, make_user, name):
    """A player with a proven address; (id, headers, address)."""
    uid, headers = make_user(name)
    address = f"{name}@example.com"
    assert client.put("/api/users/me/email", json={"email": address}, headers=headers).status_code == 202
    run_mail_jobs(wiring)
    assert client.get(link_path(mailbox.to(address)[-1], "/verify-email/")).status_code == 200
    return uid, headers, address


def mailed(mailbox, address, kind):
    """The last mail of `kind` to `address`."""
    return [m for m in mailbox.to(address) if m["X-Turnstream-Kind"] == kind][-1]


def called_back(client, wiring, mailbox, make_user):
    """Ann's move in a match, and the match link of her "your move" mail; (ann, token headers, address, path)."""
    ann, ha, address = proven(client, wiring, mailbox, make_user, "ann")
    bob, hb = make_user("bob")
    mid = start_http(client, ha, {"game": "dice-race", "players": [ann, bob], "options": {"target": 100}}, hb)
    drain_projections(wiring)
    run_mail_jobs(wiring)
    return ann, ha, address, link_path(mailed(mailbox, address, "your_move"), f"/matches/{mid}")


def signed_out_match_page(browser, path) -> str:
    """The match page as a signed-out browser sees it: a spectator's, offering both ways to sign in."""
    page = browser.get(path).get_data(as_text=True)
    assert VIEWER.search(page).group(1) == "" and "data-sign-in-to-play" in page
    assert f'name="next" value="{path}"' in page and 'action="/signin"' in page and 'action="/sign-in"' in page
    return page


def test_a_token_typed_on_the_mailed_match_page_signs_in_and_lands_on_the_move(wiring, client, make_user,
                                                                               mailbox):
    ann, ha, _address, path = called_back(client, wiring, mailbox, make_user)
    phone = client.application.test_client()
    csrf = CSRF.search(signed_out_match_page(phone, path)).group(1)
    token = ha["Authorization"].removeprefix("Bearer ")
    signed = phone.post("/signin", data={"csrf": csrf, "token": token, "next": path})
    assert signed.status_code == 303 and signed.headers["Location"] == path
    page = phone.get(path).get_data(as_text=True)
    assert VIEWER.search(page).group(1) == ann and "data-sign-in-to-play" not in page
    other = client.application.test_client()
    csrf = CSRF.search(other.get(path).get_data(as_text=True)).group(1)
    away = other.post("/signin", data={"csrf": csrf, "token": token, "next": "//evil.example/x"})
    assert away.headers["Location"] == "/", "a next of another site is never followed"


def test_a_sign_in_mail_asked_from_the_match_page_returns_to_it(wiring, client, make_user, mailbox):
    ann, _ha, address, path = called_back(client, wiring, mailbox, make_user)
    phone = client.application.test_client()
    csrf = CSRF.search(signed_out_match_page(phone, path)).group(1)
    asked = phone.post("/sign-in", data={"csrf": csrf, "email": address, "next": path})
    assert asked.status_code == 202
    run_mail_jobs(wiring)
    link = link_path(mailed(mailbox, address, "sign_in"), "/sign-in/")
    page = phone.get(link).get_data(as_text=True)
    signed = phone.post(link, data={"csrf": CSRF.search(page).group(1)})
    assert signed.status_code == 303 and signed.headers["Location"] == path
    match_page = phone.get(path).get_data(as_text=True)
    assert VIEWER.search(match_page).group(1) == ann and "data-sign-in-to-play" not in match_page


def test_a_player_signed_out_everywhere_sees_the_new_token_then_the_match(wiring, client, make_user, mailbox):
    _ann, ha, address, path = called_back(client, wiring, mailbox, make_user)
    assert client.delete("/api/users/me/token", headers=ha).status_code == 204
    phone = client.application.test_client()
    csrf = CSRF.search(signed_out_match_page(phone, path)).group(1)
    phone.post("/sign-in", data={"csrf": csrf, "email": address, "next": path})
    run_mail_jobs(wiring)
    link = link_path(mailed(mailbox, address, "sign_in"), "/sign-in/")
    signed = phone.post(link, data={"csrf": CSRF.search(phone.get(link).get_data(as_text=True)).group(1)})
    assert signed.headers["Location"] == f"/welcome?next={path}"
    welcome = phone.get(signed.headers["Location"]).get_data(as_text=True)
    assert "data-new-token" in welcome and f'href="{path}" data-back-to-match' in welcome


@pytest.mark.parametrize("elsewhere", ["https://evil.example/matches/x", "//evil.example", "/account",
                                       "/matches/x/../../account", "/matches/x?y=1"])
def test_a_sign_in_link_returns_only_to_a_match_page_of_this_site(wiring, client, make_user, mailbox, elsewhere):
    _ann, _ha, address = proven(client, wiring, mailbox, make_user, "ann")
    browser = client.application.test_client()
    csrf = CSRF.search(browser.get("/sign-in").get_data(as_text=True)).group(1)
    assert browser.post("/sign-in", data={"csrf": csrf, "email": address, "next": elsewhere}).status_code == 202
    run_mail_jobs(wiring)
    link = link_path(mailed(mailbox, address, "sign_in"), "/sign-in/")
    signed = browser.post(link, data={"csrf": CSRF.search(browser.get(link).get_data(as_text=True)).group(1)})
    assert signed.headers["Location"] == "/account"


def test_next_match_walks_every_waiting_match_in_order(wiring, client, make_user):
    ann, ha = make_user("ann")
    bob, hb = make_user("bob")
    waiting = []
    for _ in range(3):
        waiting.append(start_http(client, ha, {"game": "dice-race", "players": [ann, bob],
                                               "options": {"target": 100}}, hb))
        drain_projections(wiring)  # each waits from a later moment: the inbox's order is the creation order
    browser = browser_of(client, wiring, ann)
    here, walked = waiting[0], []
    for _ in range(4):
        here = browser.get(f"/next?from={here}").headers["Location"].removeprefix("/matches/")
        walked.append(here)
    assert walked == [waiting[1], waiting[2], waiting[0], waiting[1]], "in order, and round again"
    assert client.post(f"/api/matches/{waiting[1]}/commands", json={"type": "roll"}, headers=ha).status_code == 201
    drain_projections(wiring)
    assert browser.get(f"/next?from={waiting[1]}").headers["Location"] == f"/matches/{waiting[0]}", \
        "from a match that waits no more: the longest-waiting"
    page = browser.get(f"/matches/{waiting[2]}").get_data(as_text=True)
    assert VIEWER.search(page).group(1) == ann
